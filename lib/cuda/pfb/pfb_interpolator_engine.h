/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_INTERPOLATOR_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_PFB_INTERPOLATOR_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "pfb_controls.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Polyphase interpolator on device-resident samples: gr-filter 3.10's
 * pfb_interpolator_ccf(interp, taps).
 *
 * The taps are split over L = interp branch filters as gr-filter's
 * polyphase_filterbank splits them (zero-padded to L*T, T = ceil(ntaps/L); branch j
 * has taps h[j + k*L]); input i gives the L outputs
 *   y[i*L + j] = sum_{k<T} h[j + k*L] * x[i - k],
 * branch j in turn, as gr-filter's work() loop (its filter f reads the window of T
 * inputs ending at x[i]). x[m] = 0 before the first sample.
 *
 * The last T - 1 inputs are kept on the device, so any split of the input into calls
 * gives the output of one call; history_items() = T - 1 (the block's history() is T,
 * gr-filter's).
 */
class pfb_interpolator_engine final
    : public controlled_processor<pfb_interpolator_controls>
{
public:
    //! Uses the current device. Throws std::invalid_argument for interp 0 or empty
    //! taps.
    pfb_interpolator_engine(unsigned interp, const std::vector<float>& taps);

    //! New taps from the next call on. The kept history is trimmed to the newest
    //! T' - 1 inputs or zero-padded at its old end (set_history() then gives the real
    //! past). Synchronizes the stream.
    void set_taps(const std::vector<float>& taps, cudaStream_t stream);
    //! pfb_interpolator_controls, on the attached stream.
    void set_taps(const std::vector<float>& taps) override
    {
        set_taps(taps, control_stream());
    }
    void reset(cudaStream_t stream);

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return n * d_interp; }
    std::size_t max_output_count(std::size_t n) const override { return n * d_interp; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    std::size_t history_items() const override { return d_history_len; }
    void set_history(const void* const* host, cudaStream_t s) override;
    const char* method() const override { return "pfb"; }

    unsigned interpolation() const { return d_interp; }
    int taps_per_filter() const { return d_taps_per_filter; }
    const std::vector<float>& taps() const { return d_taps; }

private:
    unsigned d_interp;
    int d_taps_per_filter = 0;
    std::vector<float> d_taps;
    device_buffer<float> d_branch; // padded: d_branch[k*L + j] = h[j + k*L]
    std::size_t d_history_len = 0; // T - 1
    device_buffer<complex> d_history[2];
    int d_current = 0;
    port_layout d_ports;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
