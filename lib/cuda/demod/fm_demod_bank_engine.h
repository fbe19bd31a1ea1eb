/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FM_DEMOD_BANK_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FM_DEMOD_BANK_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "deemphasis.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief FM reception of many channels at once: the stage after a channelizer.
 *
 * Input: GNU Radio's vector stream of a channelizer (item t holds sample t of
 * `nchan` channels). For each of `channels` (indices into the vector), the same
 * arithmetic as this chain of GNU Radio 3.10 blocks per channel:
 *   quadrature_demod_cf(gain) -> fir_filter_fff(decimation, taps) -> fm_deemph
 * i.e. out[j] = deemph(sum_k taps[k] * demod[j*decimation - k]) with demod[-k] = 0 at
 * the start, as gr-filter's window gives it. Output: one vector of channels.size()
 * floats per `decimation` input items. State (the previous sample, the FIR history,
 * the decimation phase, the de-emphasis state) carries across calls, so any split of
 * the stream into calls gives the same output. set_history() restarts it as a
 * flowgraph restart restarts that chain (see there).
 *
 * Three kernels per call: the demodulator writes each channel's row (channel-major,
 * after ntaps-1 samples of history), the FIR computes only the decimated outputs
 * (one thread per output and channel), and the de-emphasis runs one thread per
 * channel along the call's outputs (the recursion is sequential in time, parallel
 * across channels; it runs at the audio rate).
 */
class fm_demod_bank_engine final : public processor
{
public:
    //! Uses the current device. max_items: the most input items one process() call
    //! takes. Throws std::invalid_argument (before touching the GPU) for nchan == 0,
    //! an empty or out-of-range channel list, decimation 0, empty taps, a gain or a
    //! de-emphasis coefficient that is not finite, max_items == 0.
    fm_demod_bank_engine(unsigned nchan,
                         const std::vector<unsigned>& channels,
                         unsigned decimation,
                         const std::vector<float>& taps,
                         float gain,
                         deemphasis deemph,
                         std::size_t max_items);

    unsigned nchan() const { return d_nchan; }
    std::size_t outputs_per_item() const { return d_channels.size(); }

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override;
    std::size_t max_output_count(std::size_t n) const override { return n / d_decim + 1; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    //! A (re)start: GNU Radio's fresh, zeroed buffers give the chain above a zero
    //! previous sample, a zero FIR window and the decimation phase 0, and
    //! iir_filter_ffd keeps its state; so this zeroes the previous samples and the FIR
    //! history (queued on s, before the next call) and keeps the de-emphasis state.
    //! No history items: `host` is not read.
    void set_history(const void* const* host, cudaStream_t s) override;
    const char* method() const override { return "fm_demod_bank"; }

private:
    unsigned d_nchan;
    std::vector<unsigned> d_channels;
    unsigned d_decim;
    std::size_t d_ntaps;
    float d_gain;
    deemphasis d_deemph;
    std::size_t d_max_items;
    port_layout d_ports;
    std::size_t d_phase = 0; // input items since the last output, mod decimation
    device_buffer<unsigned> d_channel_index;
    device_buffer<float> d_taps;
    device_buffer<float> d_table;   // fast_atan2f_table()
    device_buffer<complex> d_prev;  // two rows of channels.size() samples, ping-pong
    device_buffer<float> d_rows[2]; // per channel: ntaps-1 history + max_items demod
    device_buffer<float> d_fir;     // per channel: the call's FIR outputs
    device_buffer<double> d_state;  // per channel: de-emphasis x[t-1], y[t-1]
    int d_current = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
