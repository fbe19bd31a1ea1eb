/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEEMPHASIS_H
#define INCLUDED_GPUFILTER_CUDA_DEEMPHASIS_H
// FM de-emphasis coefficients, shared by the GPU engine and the CPU fallback (plain
// C++: no CUDA types).

#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

//! De-emphasis as gr-analog's fm_deemph builds it (iir_filter_ffd, new style):
//! y[t] = b0 x[t] + b1 x[t-1] - a1 y[t-1]. tau == 0: none (b0 = 1).
struct deemphasis {
    double b0 = 1, b1 = 0, a1 = 0;

    //! The bilinear transform of 1 / (1 + s tau) at `rate`, as fm_deemph(rate, tau).
    static deemphasis for_rate(double rate, double tau)
    {
        if (!(rate > 0) || !std::isfinite(rate) || !(tau >= 0) || !std::isfinite(tau))
            throw std::invalid_argument("deemphasis: the rate must be positive and tau "
                                        "finite and >= 0");
        if (tau == 0)
            return {};
        const double w_ca = 2.0 * rate * std::tan(1.0 / tau / (2.0 * rate));
        const double k = -w_ca / (2.0 * rate);
        const double p1 = (1.0 + k) / (1.0 - k);
        const double b0 = -k / (1.0 - k);
        return { b0, b0, -p1 };
    }
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
