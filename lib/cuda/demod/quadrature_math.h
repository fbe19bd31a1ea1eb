/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_QUADRATURE_MATH_H
#define INCLUDED_GPUFILTER_CUDA_QUADRATURE_MATH_H

// The quadrature demodulator's arithmetic on one sample, the same code for the kernel
// and for the host tests that check it: every step is one IEEE float operation,
// rounded to nearest, in GNU Radio's order (fused multiply-add only where volk's
// kernel has one, no approximate division), so the device and the host give the same
// bits.

#include <cuda_runtime.h>
#include <cmath>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace quadrature {

__host__ __device__ __forceinline__ float mul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
__host__ __device__ __forceinline__ float add(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
__host__ __device__ __forceinline__ float sub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
__host__ __device__ __forceinline__ float fma(float a, float b, float c)
{
#ifdef __CUDA_ARCH__
    return __fmaf_rn(a, b, c);
#else
    return std::fmaf(a, b, c);
#endif
}
__host__ __device__ __forceinline__ float div(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

/*!
 * x * conj(prev) as volk_32fc_x2_multiply_conjugate_32fc computes it on x86-64 with
 * FMA (volk's AVX kernel built for its AVX2/FMA machines, where the compiler fuses
 * the second product's sum): re = fma(xr, pr, xi*pi), im = fma(xi, pr, -(xr*pi)).
 * volk's plain SSE/AVX kernels round the two products separately instead; the
 * results then differ by an ulp of the product, about 1e-7 rad of the angle.
 */
__host__ __device__ __forceinline__ void
conj_product(float xr, float xi, float pr, float pi, float& re, float& im)
{
    re = fma(xr, pr, mul(xi, pi));
    im = fma(xi, pr, -mul(xr, pi));
}

/*!
 * gr::fast_atan2f(y, x) of GNU Radio 3.10: the ratio of the smaller to the larger
 * magnitude (below 1/255 it is its own arctangent), looked up in a 255-step table of
 * atan on [0, 1] with linear interpolation, then moved to its octant. 0 for (0, 0).
 * table: fast_atan2f_table() (257 floats).
 */
__host__ __device__ __forceinline__ float fast_atan2(float y, float x, const float* table)
{
    const float ya = fabsf(y);
    const float xa = fabsf(x);
    if (!(ya > 0.0f || xa > 0.0f))
        return 0.0f;
    const float z = ya < xa ? div(ya, xa) : div(xa, ya);
    float base;
    if (static_cast<double>(z) < 0.003921569) { // gr's threshold, compared in double
        base = z;
    } else {
        float alpha = mul(z, 255.0f);
        // A NaN ratio (an infinite or NaN sample) takes entry 0, as x86 does for gr.
        const int index = (alpha == alpha ? static_cast<int>(alpha) : 0) & 0xff;
        alpha = sub(alpha, static_cast<float>(index));
        base = add(table[index], mul(sub(table[index + 1], table[index]), alpha));
    }
    constexpr float pi = 3.14159265358979323846f;
    constexpr float half_pi = 1.57079632679489661923f;
    if (xa > ya) {
        if (x >= 0.0f)
            return y >= 0.0f ? base : -base;
        return y >= 0.0f ? sub(pi, base) : sub(base, pi);
    }
    if (y >= 0.0f)
        return x >= 0.0f ? sub(half_pi, base) : add(half_pi, base);
    return x >= 0.0f ? add(-half_pi, base) : sub(-half_pi, base);
}

//! One output: gain * fast_atan2f(x * conj(prev)).
__host__ __device__ __forceinline__ float
demod_sample(float xr, float xi, float pr, float pi, float gain, const float* table)
{
    float re, im;
    conj_product(xr, xi, pr, pi, re, im);
    return mul(gain, fast_atan2(im, re, table));
}

} // namespace quadrature
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
