/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_KERNEL_SEPARATION_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_KERNEL_SEPARATION_H

// A 2D kernel as a short sum of outer products (its truncated SVD): a kernel of
// numerical rank r filters as r pairs of 1D passes (fir2d_separable_engine), which
// costs kh + kw instead of kh * kw multiplies per output and term. Host code only.

#include "fir2d_geometry.h"
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief One rank-1 term: k(i, j) ~ coef * column[i] * row[j].
 *
 * column and row are unit vectors (Euclidean norm 1; the first entry of column at
 * least half its largest in magnitude is positive) and coef carries the weight: the
 * singular value sigma for a term of the kernel's real part, j*sigma (complex taps) for a
 * term of its imaginary part, so that the vectors stay real and the GPU passes are
 * real-tap passes over real or complex samples. Unit vectors keep the intermediate rows
 * of the vertical pass on the scale of the input whatever the kernel's gain, and the
 * coefficients rank the terms by weight.
 */
template <class Tap>
struct separable_term {
    Tap coef{};
    std::vector<float> column; //!< kh taps, along the stream
    std::vector<float> row;    //!< kw taps, along a row
};

template <class Tap>
struct kernel_separation {
    std::vector<separable_term<Tap>> terms;
    //! ||K - sum of terms||_F / ||K||_F, measured on the float terms as stored (1 when
    //! there are no terms, 0 for a zero kernel, NaN for a kernel with NaN or Inf).
    double residual = 1.0;
};

/*!
 * \brief The fewest rank-1 terms whose sum is the kernel within rel_tol (relative
 * Frobenius norm, measured), at most max_terms; no terms when more would be needed.
 *
 * A complex kernel's real and imaginary parts are separated each into real terms,
 * and the count is their total. A zero kernel gives one term with coef 0 and zero
 * vectors (so that its sizes are known) and residual 0; a kernel with NaN or Inf
 * taps, or max_terms < 1, gives no terms. Deterministic: the same kernel always
 * gives the same terms.
 *
 * Cost: a randomized range finder (Halko, Martinsson, Tropp 2011) with
 * m = max_terms + 8 columns and one power iteration, i.e. about 5 * kh * kw * m
 * multiplies, then a Jacobi SVD of an m x kw matrix: a few milliseconds for a
 * 751 x 751 kernel at max_terms 8. Where min(kh, kw) <= m the SVD is exact (one-sided
 * Jacobi on the kernel itself). Throws std::invalid_argument for a kernel without
 * taps or whose taps do not match its size.
 */
template <class Tap>
kernel_separation<Tap>
separate_kernel(const kernel2d<Tap>& k, int max_terms, double rel_tol = 1e-6);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
