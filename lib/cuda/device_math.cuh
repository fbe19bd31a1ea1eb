/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEVICE_MATH_CUH
#define INCLUDED_GPUFILTER_CUDA_DEVICE_MATH_CUH

// Device-side sample arithmetic shared by all kernel families: complex samples are
// float2 on the device (layout-compatible with std::complex<float> on the host).

#include "sample_types.h"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {

template <class T>
struct device_type {
    using type = T;
};
template <>
struct device_type<complex> {
    using type = float2;
};
template <class T>
using device_t = typename device_type<T>::type;

template <class T>
__device__ __forceinline__ T zero();
template <>
__device__ __forceinline__ float zero<float>()
{
    return 0.0f;
}
template <>
__device__ __forceinline__ float2 zero<float2>()
{
    return make_float2(0.0f, 0.0f);
}

// acc += x * h for every real/complex combination of x and h.
__device__ __forceinline__ void mac(float& acc, float x, float h)
{
    acc = fmaf(x, h, acc);
}
__device__ __forceinline__ void mac(float2& acc, float2 x, float h)
{
    acc.x = fmaf(x.x, h, acc.x);
    acc.y = fmaf(x.y, h, acc.y);
}
__device__ __forceinline__ void mac(float2& acc, float x, float2 h)
{
    acc.x = fmaf(x, h.x, acc.x);
    acc.y = fmaf(x, h.y, acc.y);
}
__device__ __forceinline__ void mac(float2& acc, float2 x, float2 h)
{
    acc.x = fmaf(x.x, h.x, fmaf(-x.y, h.y, acc.x));
    acc.y = fmaf(x.x, h.y, fmaf(x.y, h.x, acc.y));
}

/*!
 * The input a filter sees: its kept history (H samples) followed by the new samples
 * (n), indexed as one sequence; outside both it reads zeros. This lets kernels read
 * the caller's buffer in place instead of copying it behind the history.
 */
template <class T>
struct history_then_input {
    const T* history;
    long long history_len;
    const T* input;
    long long input_len;

    __device__ __forceinline__ T operator[](long long v) const
    {
        if (v < 0)
            return zero<T>();
        if (v < history_len)
            return history[v];
        v -= history_len;
        return v < input_len ? input[v] : zero<T>();
    }
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
