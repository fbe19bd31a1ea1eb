/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_NLMS_CPU_H
#define INCLUDED_GPUFILTER_NLMS_CPU_H

#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief The NLMS filters on the CPU (the blocks' fallback, the batch API without a
 * GPU and the benchmark's CPU rows): the GPU engine's algorithm (cuda::nlms_engine),
 * with VOLK's dot product.
 *
 * x_n . x_n is a running sum in double (x[n]^2 in, x[n-N]^2 out, both exact in
 * double), recomputed exactly from the window every N samples: between two anchors
 * it is off by at most 2N roundings of 2^-53 of the largest norm in that span, so it
 * cannot drift over any stream length.
 */
class nlms_cpu
{
public:
    //! mu: one value or one per filter. Throws std::invalid_argument naming the
    //! parameter (the rules of cuda/nlms/nlms_params.h).
    nlms_cpu(int ntaps, int nfilters, const std::vector<float>& mu, float eps);

    //! n samples of every filter; sample t of filter k at [k * filter_stride +
    //! t * sample_stride] of x, d and e.
    void process(const float* x,
                 const float* d,
                 float* e,
                 std::size_t filter_stride,
                 std::size_t sample_stride,
                 std::size_t n);
    //! Filters [first, last) only: lanes are independent, so threads may share them.
    void process_filters(int first,
                         int last,
                         const float* x,
                         const float* d,
                         float* e,
                         std::size_t filter_stride,
                         std::size_t sample_stride,
                         std::size_t n);

    void set_mu(const std::vector<float>& mu);
    float mu(int k) const { return d_lanes.at(k).mu; }
    void set_taps(int k, const std::vector<float>& taps);
    std::vector<float> taps(int k) const;
    void reset();

    int ntaps() const { return d_ntaps; }
    int nfilters() const { return static_cast<int>(d_lanes.size()); }

private:
    struct lane {
        std::vector<float> taps_rev; // w[N-1-i]: VOLK's dot runs oldest to newest
        std::vector<float> window;   // [N x history | up to block new samples]
        double norm = 0.0;           // x_n . x_n, running
        int since_anchor = 0;
        float mu = 0.0f;
    };
    void run(lane& l,
             const float* x,
             const float* d,
             float* e,
             std::size_t stride,
             std::size_t n);
    void check_filter(int k) const;

    int d_ntaps;
    float d_eps;
    std::size_t d_block; // samples per pass over a lane's window
    std::vector<lane> d_lanes;
};

} // namespace gpufilter
} // namespace gr

#endif
