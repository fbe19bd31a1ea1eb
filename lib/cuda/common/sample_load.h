/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_SAMPLE_LOAD_H
#define INCLUDED_GPUFILTER_CUDA_SAMPLE_LOAD_H

// The load policy of complex-input kernels: how a stored sample (complex float, or an
// interleaved integer IQ pair) becomes the complex float it is computed with. One
// policy per format, chosen by template parameter, so one kernel serves every format.
// Host and device share it, so that a history uploaded from the host is converted
// exactly as the kernels convert new samples.
//
// Scaling (full scale maps to about +-1, as GNU Radio's converters and SDR sources do):
//   int8   v / 128             -128..127 -> [-1, 0.9921875]
//   uint8  (v - 127.5) / 127.5 0..255 -> [-1, 1], symmetric about the ADC's mid-scale
//                              (rtl_sdr's offset binary; no raw value is exactly 0)
//   int16  v / 32768           -32768..32767 -> [-1, 0.99997]

#include "sample_types.h"
#include <vector_functions.h>
#include <vector_types.h>

#if defined(__CUDACC__)
#define GPUFILTER_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define GPUFILTER_HOST_DEVICE inline
#endif

namespace gr {
namespace gpufilter {
namespace cuda {

//! to_complex(x): the stored sample x as a complex float (float2).
GPUFILTER_HOST_DEVICE float2 to_complex(float2 x) { return x; }
GPUFILTER_HOST_DEVICE float2 to_complex(iq_s8 x)
{
    constexpr float scale = 1.0f / 128.0f;
    return make_float2(x.i * scale, x.q * scale);
}
GPUFILTER_HOST_DEVICE float2 to_complex(iq_u8 x)
{
    constexpr float offset = 127.5f;
    return make_float2((x.i - offset) / offset, (x.q - offset) / offset);
}
GPUFILTER_HOST_DEVICE float2 to_complex(iq_s16 x)
{
    constexpr float scale = 1.0f / 32768.0f;
    return make_float2(x.i * scale, x.q * scale);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
