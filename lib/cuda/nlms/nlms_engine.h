/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_ENGINE_H

#include "../common/resources.h"
#include "../stream/processor.h"
#include "nlms_controls.h"
#include "nlms_params.h"
#include "nlms_tuning.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief NLMS adaptive FIR filters on device-resident samples, nfilters independent
 * lanes of ntaps taps each.
 *
 * For each filter, with x_n = [x[n], x[n-1], ..., x[n-N+1]] (zeros before the
 * stream), y[n] = w . x_n, e[n] = d[n] - y[n], then
 * w <- w + mu e[n] x_n / (eps + x_n . x_n). The kernel takes the samples in steps of
 * nlms_block, an exact rewriting of as many updates (nlms_kernels.cuh); x_n . x_n is
 * summed afresh at every step's start and carried through the step one square in and
 * one out a sample, so it cannot drift beyond a step.
 *
 * As a processor: two input ports, x and d, and one output port, e; an item is one
 * sample of every filter (nfilters floats, filter k at index k). The taps and the last
 * ntaps-1 x of every filter stay on the device between calls, so any split of the
 * stream into calls gives the output of one call. history_items() is 0: the engine
 * keeps its own x history (GNU Radio's window has none to give).
 */
class nlms_engine final : public controlled_processor<nlms_controls>
{
public:
    //! Uses the current device. mu: one value, or one per filter. `tuning`: the
    //! launch shape (nlms_tuning.h), by default the current device's rule. Throws
    //! std::invalid_argument naming the parameter for ntaps outside
    //! [1, nlms_max_taps], nfilters < 1, mu <= 0 or not finite, eps <= 0 or not
    //! finite, or a tuning it cannot use.
    nlms_engine(int ntaps,
                int nfilters,
                const std::vector<float>& mu,
                float eps,
                const nlms_tuning& tuning = nlms_tuning_for_device());

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return n; }
    std::size_t max_output_count(std::size_t n) const override { return n; }
    //! in[0]: x, in[1]: d, out[0]: e, items of nfilters floats.
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    const char* method() const override { return "nlms"; }

    //! n samples of every filter, filter k's row at x + k * row (likewise d and e).
    void process_rows(const float* x,
                      const float* d,
                      float* e,
                      std::size_t row,
                      std::size_t n,
                      cudaStream_t s);

    //! Step sizes from the next sample on: one value for all filters or one each.
    void set_mu(const std::vector<float>& mu, cudaStream_t s);
    //! Filter k's taps (ntaps values) from the next sample on; synchronizes.
    void set_taps(int k, const std::vector<float>& taps, cudaStream_t s);
    //! Filter k's taps now; synchronizes.
    std::vector<float> taps(int k, cudaStream_t s) const;
    //! Every filter's taps, filter after filter; synchronizes.
    std::vector<float> all_taps(cudaStream_t s) const;
    //! The same into out (nfilters * ntaps floats of host memory); synchronizes.
    void copy_all_taps(float* out, cudaStream_t s) const;
    //! Taps and x history back to zeros.
    void reset(cudaStream_t s);

    // nlms_controls, on the attached stream.
    void set_mu(const std::vector<float>& mu) override { set_mu(mu, control_stream()); }
    void set_taps(int k, const std::vector<float>& taps) override
    {
        set_taps(k, taps, control_stream());
    }
    std::vector<float> taps(int k) override { return taps(k, control_stream()); }
    void reset() override { reset(control_stream()); }

    int ntaps() const { return d_ntaps; }
    int nfilters() const { return d_nfilters; }
    float eps() const { return d_eps; }

private:
    void launch(const float* x,
                const float* d,
                float* e,
                long long filter_stride,
                long long sample_stride,
                std::size_t n,
                cudaStream_t s);
    void check_filter(int k) const;

    int d_ntaps;
    int d_nfilters;
    float d_eps;
    nlms_shape d_shape; // the tuning's, for d_ntaps
    port_layout d_ports;
    std::vector<float> d_mu_host; // what set_mu copies from, alive until the copy ends
    device_buffer<float> d_mu;
    device_buffer<float> d_taps;
    device_buffer<float> d_history; // nlms_shape::history x of every filter
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
