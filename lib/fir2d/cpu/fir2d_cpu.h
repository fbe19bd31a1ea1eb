/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR2D_CPU_H
#define INCLUDED_GPUFILTER_FIR2D_CPU_H

#include "cuda/fir2d/fir2d_geometry.h"
#include <complex>

namespace gr {
namespace gpufilter {

/*!
 * The 2D FIR's output window (cuda/fir2d/fir2d_geometry.h) on the CPU, direct form,
 * in host memory: the CPU fallback of the blocks and of the NumPy API. T: float or
 * std::complex<float>; Tap: float or std::complex<float>.
 */
template <class T, class Tap>
void fir2d_cpu(const cuda::kernel2d<Tap>& k,
               const cuda::row_source<T>& src,
               const cuda::output_window& win,
               T* out);

} // namespace gpufilter
} // namespace gr

#endif
