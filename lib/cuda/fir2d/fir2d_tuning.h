/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_TUNING_H

// The measured rule that picks a 2D FIR algorithm (docs/kernels.md has the
// crossover table it was fitted to). Host arithmetic only.

#include "fir2d_geometry.h"

namespace gr {
namespace gpufilter {
namespace cuda {

//! Rank-1 terms a separable kernel may have and still be run as 1D passes: beyond
//! this the FFT or the direct form is always faster.
constexpr int fir2d_max_separable_terms = 4;
//! Terms the separable method takes when a user asks for it: a kernel that needs more
//! is refused (the direct form or the FFT is then far faster anyway).
constexpr int fir2d_max_forced_terms = 32;

/*!
 * The fastest algorithm for a kh x kw kernel whose numerical rank is `terms` (0: more
 * than fir2d_max_separable_terms), on rows of `width` items.
 */
fir2d_method choose_fir2d_method(int kh, int kw, int terms, int width);

//! Whether method separable takes kernel k (at most fir2d_max_forced_terms rank-1
//! terms); otherwise std::invalid_argument naming `method`. The blocks check a kernel
//! where it is given, so the GPU and the CPU fallback refuse the same kernels.
template <class Tap>
void check_separable(const kernel2d<Tap>& k);
//! The same, for a kh x kw kernel already separated into `terms` terms (0: more
//! than fir2d_max_forced_terms).
void check_separable_terms(int terms, int kh, int kw);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
