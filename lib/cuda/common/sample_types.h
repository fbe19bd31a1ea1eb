/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_SAMPLE_TYPES_H
#define INCLUDED_GPUFILTER_CUDA_SAMPLE_TYPES_H

#include <type_traits>
#include <complex>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {

using complex = std::complex<float>;

template <class T>
inline constexpr bool is_complex_v = std::is_same_v<T, complex>;

//! A filter's output is complex as soon as its input or its taps are.
template <class In, class Tap>
using filter_output_t =
    std::conditional_t<is_complex_v<In> || is_complex_v<Tap>, complex, float>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
