/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_DECIMATOR_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_PFB_DECIMATOR_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "pfb_controls.h"
#include "polyphase_bank.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Polyphase decimator on device-resident samples: gr-filter 3.10's
 * `stream_to_streams(decim) -> pfb_decimator_ccf(decim, taps, channel,
 * use_fft_rotator, use_fft_filters)`, from one wideband input port to one output.
 *
 * The same filterbank as the channelizer at oversample rate 1 (polyphase_bank.h):
 * output i ends at input sample i*decim + decim - 1 and is
 *   sum_f branch_f(i) * rot[f],
 * branch f (taps h[f + k*decim]) reading x[i*decim + decim - 1 - f - k*decim]
 * (gr-filter's filter f on stream decim-1-f), rot[f] = exp(+j*2*pi*f*channel/decim).
 *
 * - use_fft_rotator: as gr-filter, the sum is bin `channel` of the unscaled inverse
 *   FFT of the branch outputs (work_*_fft). Otherwise a direct rotate-and-add with
 *   gr-filter's own rotator table (work_*_exp): gr_expj of the angle rounded to float,
 *   so the two settings differ as they do in gr-filter (by ~1e-7 * the angle).
 * - use_fft_filters: kept and reported, changes nothing on the GPU: gr-filter's FIR
 *   and FFT branch filters compute the same convolution (zero initial state). Note
 *   that gr-filter's FFT filters restart from zeros on set_taps while its block also
 *   moves to history T; a block reproducing that glitch does it with reset().
 *
 * In, history, restarts and process(): as pfb_channelizer_engine (R = decim).
 */
template <class In>
class pfb_decimator_engine final : public controlled_processor<pfb_decimator_controls>
{
public:
    using in_type = In;
    using out_type = complex;

    //! Uses the current device. `tuning`: the chunk size (pfb_tuning.h; its path does
    //! not apply, the decimator's output stage reads the branch rows of the two
    //! passes), by default the current device's. Throws std::invalid_argument for
    //! decim 0, empty taps, channel >= decim or a tuning it cannot use.
    pfb_decimator_engine(unsigned decim,
                         const std::vector<float>& taps,
                         unsigned channel,
                         bool use_fft_rotator = true,
                         bool use_fft_filters = true,
                         const pfb_tuning& tuning = pfb_tuning_for_device());

    void set_taps(const std::vector<float>& taps, cudaStream_t stream);
    //! The channel from the next call on (gr-filter's set_channel); synchronizes.
    //! Unlike gr-filter 3.10, whose set_channel leaves d_rotator as built (so there
    //! it only takes effect with use_fft_rotator), the exp rotator follows too.
    void set_channel(unsigned channel, cudaStream_t stream);

    // pfb_decimator_controls, on the attached stream.
    void set_taps(const std::vector<float>& taps) override
    {
        set_taps(taps, control_stream());
    }
    void set_channel(unsigned channel) override
    {
        set_channel(channel, control_stream());
    }
    unsigned channel() const { return d_channel; }
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

    unsigned decimation() const { return static_cast<unsigned>(d_bank.numchans()); }
    int taps_per_filter() const { return d_bank.taps_per_filter(); }
    const std::vector<float>& taps() const { return d_bank.taps(); }
    bool use_fft_rotator() const { return d_use_fft_rotator; }
    bool use_fft_filters() const { return d_use_fft_filters; }

private:
    polyphase_bank<In> d_bank;
    unsigned d_channel;
    bool d_use_fft_rotator;
    bool d_use_fft_filters;
    port_layout d_ports;
    device_buffer<complex> d_rotator; // decim entries, the exp path only
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
