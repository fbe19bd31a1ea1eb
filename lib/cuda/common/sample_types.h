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

/*!
 * Interleaved integer IQ samples, as SDR front ends deliver them: one complex sample
 * per item (I then Q). They stay integers in device memory (a quarter or half of the
 * transfer of complex float) and are converted in a kernel's load path
 * (sample_load.h, which also fixes their scaling).
 */
struct iq_s8 {
    std::int8_t i, q;
};
struct iq_u8 { //!< offset binary, as rtl_sdr delivers it
    std::uint8_t i, q;
};
struct iq_s16 {
    std::int16_t i, q;
};

//! A filter's output is complex as soon as its input or its taps are.
template <class In, class Tap>
using filter_output_t =
    std::conditional_t<is_complex_v<In> || is_complex_v<Tap>, complex, float>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
