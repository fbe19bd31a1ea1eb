/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/sample_types.h"
#include "fir2d_tuning.h"
#include "kernel_separation.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// The time of each algorithm on one 4096 x 4096 fp32 image, in milliseconds, as
// measured on an H200 (docs/kernels.md, "2D FIR"): a straight line in the work each
// does, fitted to the measurements. Only their order matters; other GPUs scale them
// alike, and other image sizes move all three by about the same factor.
double direct_ms(int kh, int kw)
{
    return 0.048 + 0.00081 * kh * ((kw + 7) / 8 * 8); // rows padded to 8 taps
}

double separable_ms(int kh, int kw, int terms)
{
    if (kh <= 32 && kw <= 32) // both passes on shared-memory tiles
        return 0.105 + 0.001 * terms * (kh + kw);
    return 0.10 + 0.001 * terms * (kh + kw) + 0.05 * (terms - 1);
}

double fft_ms(int kh, int kw) { return 0.26 + 0.0009 * std::max(kh, kw); }

} // namespace

fir2d_method choose_fir2d_method(int kh, int kw, int terms, int /*width*/)
{
    const double direct = direct_ms(kh, kw);
    const double separable = terms > 0 ? separable_ms(kh, kw, terms) : HUGE_VAL;
    const double fft = fft_ms(kh, kw);
    if (direct <= separable && direct <= fft)
        return fir2d_method::direct;
    return separable <= fft ? fir2d_method::separable : fir2d_method::fft;
}

void check_separable_terms(int terms, int kh, int kw)
{
    if (terms == 0)
        throw std::invalid_argument("method: separable needs a kernel of at most " +
                                    std::to_string(fir2d_max_forced_terms) +
                                    " rank-1 terms (numerical rank); this " +
                                    std::to_string(kh) + "x" + std::to_string(kw) +
                                    " kernel needs more: use auto, direct or fft");
}

template <class Tap>
void check_separable(const kernel2d<Tap>& k)
{
    const auto parts = separate_kernel(k, fir2d_max_forced_terms);
    check_separable_terms(static_cast<int>(parts.terms.size()), k.rows, k.cols);
}

template void check_separable<float>(const kernel2d<float>&);
template void check_separable<complex>(const kernel2d<complex>&);

} // namespace cuda
} // namespace gpufilter
} // namespace gr
