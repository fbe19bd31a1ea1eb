/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEVICE_MATH_CUH
#define INCLUDED_GPUFILTER_CUDA_DEVICE_MATH_CUH

// Device-side sample arithmetic shared by all kernel families: complex samples are
// float2 on the device (layout-compatible with std::complex<float> on the host);
// 16-bit integer samples stay int16 in device memory (half the transfer of float) and
// are widened to float where they are computed with.

#include "sample_types.h"
#include <cuda_runtime.h>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Blocks of per_block threads (or items) that cover n.
inline unsigned blocks_for(long long n, long long per_block)
{
    return static_cast<unsigned>((n + per_block - 1) / per_block);
}

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
template <>
__device__ __forceinline__ std::int16_t zero<std::int16_t>()
{
    return 0;
}

//! The type a sample is computed in: int16 samples become float (exactly, as
//! gr-filter's volk_16i_32fc_dot_prod_32fc does), others stay what they are.
template <class T>
struct compute_type {
    using type = T;
};
template <>
struct compute_type<std::int16_t> {
    using type = float;
};
template <class T>
using compute_t = typename compute_type<T>::type;

__device__ __forceinline__ float to_compute(std::int16_t x) { return x; }
__device__ __forceinline__ float to_compute(float x) { return x; }
__device__ __forceinline__ float2 to_compute(float2 x) { return x; }

//! Whether a sample is a number and not infinite (both parts of a complex one).
__device__ __forceinline__ bool is_finite(float x) { return isfinite(x); }
__device__ __forceinline__ bool is_finite(float2 x)
{
    return isfinite(x.x) && isfinite(x.y);
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

//! a + b for a real or a complex sample (partial sums joined).
__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ float2 add(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}
//! a - b and a * b for complex samples.
__device__ __forceinline__ float2 sub(float2 a, float2 b)
{
    return make_float2(a.x - b.x, a.y - b.y);
}
__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x));
}

//! Items of T in 16 bytes (one float4 load).
template <class T>
__host__ __device__ constexpr int per16()
{
    return 16 / static_cast<int>(sizeof(T));
}

//! N values from 16-byte aligned shared memory, as float4s.
template <int N, class V>
__device__ __forceinline__ void load_aligned(V (&dst)[N], const V* src)
{
    static_assert((N * sizeof(V)) % 16 == 0, "loaded as float4");
    const float4* s = reinterpret_cast<const float4*>(src);
    float4* d = reinterpret_cast<float4*>(dst);
#pragma unroll
    for (int q = 0; q < static_cast<int>(N * sizeof(V) / 16); ++q)
        d[q] = s[q];
}

/*!
 * The type a direct-form sum is accumulated in: the output's, except for int16
 * samples, which sum in double. Their products with float taps are exact there, and
 * the sums round once, to the output. In float, gr-filter's own QA case
 * (freq_xlating_fir_filter_scc, an output deep in the stopband: terms near 100 that
 * cancel to 0.1) loses about 5e-5, its tolerance; gr-filter's volk sum loses 4.5e-5.
 * int16 streams come from SDR front ends, at rates far below what the double sums
 * cost (docs/xlating_hilbert.md).
 */
template <class In, class Out>
struct accumulator_type {
    using type = Out;
};
template <>
struct accumulator_type<std::int16_t, float2> {
    using type = double2;
};
template <class In, class Out>
using accumulator_t = typename accumulator_type<In, Out>::type;

template <>
__device__ __forceinline__ double2 zero<double2>()
{
    return make_double2(0.0, 0.0);
}
__device__ __forceinline__ void mac(double2& acc, float x, float2 h)
{
    acc.x = fma(static_cast<double>(x), static_cast<double>(h.x), acc.x);
    acc.y = fma(static_cast<double>(x), static_cast<double>(h.y), acc.y);
}

//! A finished sum as the output type (rounded once from double).
template <class Out>
__device__ __forceinline__ Out to_output(Out acc)
{
    return acc;
}
template <class Out>
__device__ __forceinline__ Out to_output(double2 acc)
{
    return make_float2(static_cast<float>(acc.x), static_cast<float>(acc.y));
}

//! What a kernel does with a finished output k (of this launch): nothing...
struct no_epilogue {
    template <class Out>
    __device__ __forceinline__ Out operator()(Out acc, long long) const
    {
        return acc;
    }
};

/*!
 * ...or multiply it by exp(j*2*pi*phase(k)), phase(k) = base_cycles + k*step_cycles:
 * a frequency shift fused into the filter pass. The phase is formed and wrapped in
 * double (k*step rounds by less than k*1e-16 cycles: 1e-10 for a million outputs),
 * and only the wrapped value, within [-0.5, 0.5], is rounded to float for sincospif:
 * about 2e-7 rad of error per output, which never accumulates. base_cycles comes
 * from the host, derived from the stream's 64-bit output count (rotation.h).
 */
struct rotate_epilogue {
    double base_cycles;
    double step_cycles;

    __device__ __forceinline__ float2 operator()(float2 acc, long long k) const
    {
        double p = fma(static_cast<double>(k), step_cycles, base_cycles);
        p -= rint(p);
        float s, c;
        sincospif(2.0f * static_cast<float>(p), &s, &c);
        return make_float2(fmaf(acc.x, c, -acc.y * s), fmaf(acc.x, s, acc.y * c));
    }
};

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

    //! Whether v in [first, first + n) all lie in the new samples: a kernel then
    //! reads them from in_input(first) with plain loads, without the tests above.
    __device__ __forceinline__ bool in_input(long long first, long long n) const
    {
        return first >= history_len && first + n <= history_len + input_len;
    }
    //! The caller's buffer from v = first on (first in the new samples).
    __device__ __forceinline__ const T* from(long long first) const
    {
        return input + (first - history_len);
    }
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
