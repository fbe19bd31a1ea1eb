/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_SYNTHESIZER_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_PFB_SYNTHESIZER_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "batched_fft.h"
#include "pfb_controls.h"
#include "pfb_tuning.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Polyphase synthesizer on device-resident samples: gr-filter 3.10's
 * pfb_synthesizer_ccf(numchans, taps, twox), one input port per connected channel
 * input, one output port.
 *
 * With M = numchans, P = M (twox false) or 2M (true), T = ceil(ntaps/M) and h the
 * taps zero-padded to M*T, step s takes one sample of every input port and gives M
 * outputs:
 *   X_s[map[p]] = in_p[s] (the last port wins a repeated bin; other bins 0),
 *   Y_s = unscaled inverse P-point FFT of X_s (fft_complex_rev),
 *   y[s*M + i] = sum_{j<T} h[i + j*M] * Y_{s-j}[c_s*M + i],
 * with c_s = 0 (twox false) or c_s = 1 - (s mod 2) (twox true). That is gr-filter's
 * 2x mode exactly: its filters i (taps h[i + j*M], odd j) and M+i (even j) read the
 * halves d_state and d_state^1 of each step's FFT, and d_state flips every step, so
 * tap j of both reads half d_state(s)^1 of step s - j. Y_s = 0 before the first step.
 *
 * set_taps() zeros the filter state (gr-filter's fir_filter_with_buffer::set_taps
 * does) and keeps the 2x parity (gr-filter's d_state). The state is T - 1 transformed
 * rows on the device; history_items() is 0, as gr-filter's block has no history.
 *
 * Two ways through the kernels (the tuning's synth_path when the engine is made): the
 * transformed rows written to device memory and read back by the branch filters, or
 * one kernel that gathers, transforms and filters in shared memory
 * (one_pass_regions()).
 */
class pfb_synthesizer_engine final : public controlled_processor<pfb_synthesizer_controls>
{
public:
    //! map: one FFT bin per input port (at least one entry), each in [0, P). Uses
    //! the current device. `tuning`: the kernels and the chunk size (pfb_tuning.h),
    //! by default the current device's measured rules. Throws std::invalid_argument
    //! for numchans 0, empty taps, twox with an odd numchans, an empty map, an entry
    //! out of range or a tuning it cannot use.
    pfb_synthesizer_engine(unsigned numchans,
                           const std::vector<float>& taps,
                           bool twox,
                           const std::vector<int>& map,
                           const pfb_tuning& tuning = pfb_tuning_for_device());

    void set_taps(const std::vector<float>& taps, cudaStream_t stream);
    //! A new map from the next call on. Another length changes the input ports (only
    //! between calls of a host path, which then fits its slots) and restarts the
    //! filters, as a fresh engine.
    void set_channel_map(const std::vector<int>& map, cudaStream_t stream);

    // pfb_synthesizer_controls, on the attached stream.
    void set_taps(const std::vector<float>& taps) override
    {
        set_taps(taps, control_stream());
    }
    void set_channel_map(const std::vector<int>& map) override
    {
        set_channel_map(map, control_stream());
    }
    void reset(cudaStream_t stream);

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return n * d_numchans; }
    std::size_t max_output_count(std::size_t n) const override { return n * d_numchans; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    const char* method() const override { return "pfb"; }

    //! Whether the channel gather and the inverse FFT run as one kernel, else the
    //! gather kernel and cuFFT: synth_fused_for(tuning, P) when the engine is made.
    bool fused() const { return d_fused; }
    //! The one-pass kernel's regions of pfb_block_samples a block with the current
    //! taps, 0 where calls take the rows path: nonzero where synth_one_pass_for(tuning,
    //! P) held as the engine was made and synth_one_pass_regions(tuning, P, T) > 0.
    int one_pass_regions() const { return d_one_pass_regions; }
    unsigned numchans() const { return d_numchans; }
    bool twox() const { return d_twox == 2; }
    int taps_per_filter() const { return d_taps_per_filter; }
    const std::vector<float>& taps() const { return d_taps; }
    const std::vector<int>& channel_map() const { return d_map; }

private:
    //! The device copy of the port pointers of a call (host_stream reuses a few).
    const complex* const* port_table(const void* const* in, cudaStream_t s);

    unsigned d_numchans;
    int d_twox;
    int d_fft_size;
    std::vector<int> d_map;
    port_layout d_ports;
    int d_taps_per_filter = 0;
    std::vector<float> d_taps;
    device_buffer<float> d_branch; // d_branch[j*M + i] = h[i + j*M]
    device_buffer<int> d_inv;      // per bin: the port feeding it, or -1
    std::size_t d_chunk_rows;
    batched_fft d_fft;
    device_buffer<complex> d_rows[2]; // (T - 1 + d_chunk_rows) rows of P
    int d_current = 0;
    int d_parity = 0; // gr-filter's d_state at the next step
    bool d_fused = false;
    int d_log2p = 0;
    device_buffer<complex> d_twiddle; // fused, one pass: exp(+2 pi i m / P), m < P
    pfb_tuning d_tuning;
    bool d_one_pass_wanted = false;
    int d_one_pass_regions = 0; // with the current taps; 0: the rows path

    struct table {
        std::vector<const void*> key;
        device_buffer<const complex*> ptrs;
    };
    std::vector<table> d_tables;
    std::size_t d_next_table = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
