/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_CHANNELIZER_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_PFB_CHANNELIZER_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "pfb_controls.h"
#include "polyphase_bank.h"
#include <array>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! How a channelizer hands out its channels.
enum class pfb_layout {
    streams, //!< one output port per mapped channel (pfb_channelizer_ccf's ports)
    vector   //!< one port of numchans-sample vectors, one per step, channel order
};

/*!
 * \brief Polyphase channelizer on device-resident samples: gr-filter 3.10's
 * `stream_to_streams(numchans) -> pfb_channelizer_ccf(numchans, taps,
 * oversample_rate)` (gr-filter's python `pfb.channelizer_ccf`), from one wideband
 * input port.
 *
 * In: complex (std::complex<float>), or interleaved IQ iq_s8, iq_u8, iq_s16,
 * converted on the GPU with the scaling in common/sample_load.h.
 *
 * Each step consumes numchans/oversample_rate = R input samples (an integer, as
 * gr-filter requires; checked to 1e-5 absolute as gr-filter does, or 1e-5 relative,
 * which a float N/R for large N needs) and yields one sample of each of the numchans
 * channels (polyphase_bank.h has the exact algorithm). Channel c of step s is
 * gr-filter's fft outbuf[c]: with pfb_layout::streams, output port k carries
 * channel channel_map[k] (the map may reorder, repeat and drop channels; an empty
 * map is 0..numchans-1; its length is the number of ports); with pfb_layout::vector,
 * the single port's item s is the numchans channels of step s, channel 0 first.
 *
 * History and restarts (processor.h): history_items() = numchans*T - 1 input
 * samples (T = ceil(ntaps/numchans)); after set_history() or reset() the next input
 * sample is sample 0 of a fresh stream_to_streams row, so the next output ends at
 * new sample R - 1 (gr-filter's work() restarts its rotation at every call, which it
 * can because calls always end on such a boundary).
 *
 * process() never allocates: the plans and buffers are made at construction.
 */
template <class In>
class pfb_channelizer_engine final : public controlled_processor<pfb_channelizer_controls>
{
public:
    using in_type = In;
    using out_type = complex;

    //! Uses the current device. `tuning`: the path (two passes or the fused kernel)
    //! and the chunk size (pfb_tuning.h), by default the current device's measured
    //! rules. Throws std::invalid_argument for numchans 0, empty taps, an
    //! oversample_rate that is not numchans/i for i in [1, numchans], a channel map
    //! entry outside [0, numchans) (also a non-empty map with pfb_layout::vector) or
    //! a tuning it cannot use.
    pfb_channelizer_engine(unsigned numchans,
                           const std::vector<float>& taps,
                           float oversample_rate = 1.0f,
                           pfb_layout layout = pfb_layout::streams,
                           const std::vector<int>& channel_map = {},
                           const pfb_tuning& tuning = pfb_tuning_for_device());

    //! New taps from the next output on (polyphase_bank::set_taps); synchronizes.
    void set_taps(const std::vector<float>& taps, cudaStream_t stream);
    //! A new map from the next call on. Another length changes the ports (only
    //! between calls of a host path, which then fits its slots) and restarts the
    //! filters, as a fresh engine.
    void set_channel_map(const std::vector<int>& map, cudaStream_t stream);

    // pfb_channelizer_controls, on the attached stream.
    void set_taps(const std::vector<float>& taps) override
    {
        set_taps(taps, control_stream());
    }
    void set_channel_map(const std::vector<int>& map) override
    {
        set_channel_map(map, control_stream());
    }
    const std::vector<int>& channel_map() const { return d_map; }
    void reset(cudaStream_t stream) { d_bank.reset(stream); }

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override
    {
        return d_bank.output_count(n);
    }
    std::size_t max_output_count(std::size_t n) const override
    {
        return d_bank.max_output_count(n);
    }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    std::size_t history_items() const override { return d_bank.history_len(); }
    void set_history(const void* const* host, cudaStream_t s) override
    {
        d_bank.set_history(static_cast<const In*>(host[0]), s);
    }
    const char* method() const override { return "pfb"; }

    unsigned numchans() const { return static_cast<unsigned>(d_bank.numchans()); }
    //! R = numchans / oversample_rate: input samples per output step.
    int rate_ratio() const { return d_bank.rate_ratio(); }
    int taps_per_filter() const { return d_bank.taps_per_filter(); }
    const std::vector<float>& taps() const { return d_bank.taps(); }
    pfb_layout layout() const { return d_layout; }

    //! R for numchans and oversample_rate, as gr-filter's d_rate_ratio; throws
    //! std::invalid_argument as the constructor does.
    static int rate_ratio_for(unsigned numchans, float oversample_rate);

private:
    void upload_ports(void* const* out, cudaStream_t s);
    //! The ports' map on the device and their pointer tables, for d_map.
    void make_port_tables(cudaStream_t s);

    // Checked before the bank touches the GPU.
    pfb_layout d_layout;
    std::vector<int> d_map;
    polyphase_bank<In> d_bank;
    port_layout d_ports;
    device_buffer<int> d_map_dev;

    // The output ports' device pointers, for the kernel that writes them: a ring of
    // tables, each filled on the host (pinned) and copied on the stream; a slot is
    // refilled only after its last copy has finished (its event).
    static constexpr int ring = 4;
    pinned_buffer<complex*> d_table_host; // ring * ports
    device_buffer<complex*> d_table_dev;  // ring * ports
    std::array<event, ring> d_table_copied;
    std::array<bool, ring> d_table_used{};
    int d_slot = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
