/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_QUADRATURE_DEMOD_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_QUADRATURE_DEMOD_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/demod/demod_controls.h"
#include <gnuradio/gr_complex.h>
#include <gnuradio/math.h>
#include <volk/volk.h>
#include <algorithm>
#include <vector>

namespace gr {
namespace gpufilter {

//! gr-analog's quadrature_demod_cf work(): volk's conjugate product of each sample
//! with the one before (the window's old item first), then gain * fast_atan2f. In
//! chunks through a buffer of fixed size, so that work() does not allocate.
class quadrature_demod_cpu_kernel final
    : public controlled_cpu_kernel<cuda::quadrature_demod_controls>
{
public:
    explicit quadrature_demod_cpu_kernel(float gain) : d_gain(gain), d_tmp(chunk) {}
    void set_gain(float gain) override { d_gain = gain; }

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        const auto in = static_cast<const gr_complex*>(windows[0]);
        const auto y = static_cast<float*>(out[0]);
        for (std::size_t done = 0; done < nnew; done += chunk) {
            const std::size_t n = std::min(chunk, nnew - done);
            volk_32fc_x2_multiply_conjugate_32fc(
                d_tmp.data(), in + done + 1, in + done, static_cast<unsigned>(n));
            for (std::size_t i = 0; i < n; ++i)
                y[done + i] = d_gain * gr::fast_atan2f(d_tmp[i].imag(), d_tmp[i].real());
        }
        return nnew;
    }

private:
    static constexpr std::size_t chunk = 8192;
    float d_gain;
    std::vector<gr_complex> d_tmp;
};

} // namespace gpufilter
} // namespace gr

#endif
