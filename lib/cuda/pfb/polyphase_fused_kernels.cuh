/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_POLYPHASE_FUSED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_POLYPHASE_FUSED_KERNELS_CUH

// The synthesizer's in-block FFT: Stockham passes of radix 2, 4 and 16 over rows of
// a 4096-sample block, exp(+j), with a twiddle table of N entries (the channelizer's
// fused kernel runs on the shared block FFT instead: polyphase_fir_fft_kernels.cuh).

#include "polyphase_kernels.cuh"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_kernels {

// The block's shape: fused_elems complex samples in shared memory, fused_elems / N
// whole rows, and each thread moves fused_elems / fused_threads of them per FFT pass
// through registers.
constexpr int fused_threads = 256;
constexpr int fused_elems = 4096;
constexpr int fused_per_thread = fused_elems / fused_threads;
static_assert(fused_per_thread == 16, "the FFT passes below hold 16 values a thread");
//! Shared-memory index of sample i of the block's rows: one pad sample every 16, so
//! that the FFT passes' strided stores (stride 4 or 16 samples) spread over the banks.
__host__ __device__ constexpr int fused_pad(int i) { return i + (i >> 4); }
//! 34 KB at 4096 samples.
constexpr int fused_smem_bytes = fused_pad(fused_elems) * 8;

//! The radix-4 inverse DFT (exp(+j)) of a[0..3], in place.
__device__ __forceinline__ void idft4(float2& a0, float2& a1, float2& a2, float2& a3)
{
    const float2 t0 = add(a0, a2), t1 = sub(a0, a2), t2 = add(a1, a3);
    const float2 d13 = sub(a1, a3);
    const float2 t3 = make_float2(-d13.y, d13.x); // i (a1 - a3)
    a0 = add(t0, t2);
    a1 = add(t1, t3);
    a2 = sub(t0, t2);
    a3 = sub(t1, t3);
}

//! The inverse DFT of x[0..RADIX-1] in place, RADIX 2, 4 or 16 (16 = 4 x 4: DFT-4s
//! over x[4 r1 + r2], twiddles exp(+2 pi i r2 m1 / 16), DFT-4s over r2; output
//! m1 + 4 m2).
template <int RADIX>
__device__ __forceinline__ void idft(float2* x)
{
    if (RADIX == 2) {
        const float2 a = x[0], b = x[1];
        x[0] = add(a, b);
        x[1] = sub(a, b);
    } else if (RADIX == 4) {
        idft4(x[0], x[1], x[2], x[3]);
    } else {
        constexpr float c1 = 0.92387953251128674f, s1 = 0.38268343236508978f,
                        r2 = 0.70710678118654752f;
        // exp(+2 pi i p / 16), p = 0..9
        const float wc[10] = { 1, c1, r2, s1, 0, -s1, -r2, -c1, -1, -c1 };
        const float ws[10] = { 0, s1, r2, c1, 1, c1, r2, s1, 0, -s1 };
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            idft4(x[q], x[4 + q], x[8 + q], x[12 + q]); // x[4 m1 + q] = Y[q][m1]
#pragma unroll
            for (int m1 = 1; m1 < 4; ++m1)
                if (q)
                    x[4 * m1 + q] =
                        cmul(x[4 * m1 + q], make_float2(wc[q * m1], ws[q * m1]));
        }
        float2 y[16];
#pragma unroll
        for (int m1 = 0; m1 < 4; ++m1) {
            float2 a0 = x[4 * m1], a1 = x[4 * m1 + 1], a2 = x[4 * m1 + 2],
                   a3 = x[4 * m1 + 3];
            idft4(a0, a1, a2, a3);
            y[m1] = a0;
            y[m1 + 4] = a1;
            y[m1 + 8] = a2;
            y[m1 + 12] = a3;
        }
#pragma unroll
        for (int m = 0; m < 16; ++m)
            x[m] = y[m];
    }
}

/*!
 * One Stockham pass of radix RADIX over every row of buf (rows of N = 2^log2N,
 * fused_pad layout), the rows' earlier passes having combined Ns = 2^log2Ns: sample
 * jj + r*N/RADIX times exp(+2 pi i r (jj mod Ns) / (RADIX Ns)), the radix DFT, output
 * m to (jj - jj mod Ns)*RADIX + jj mod Ns + m*Ns. Each thread loads its
 * fused_per_thread values, the block syncs, each stores them. Returns log2(Ns*RADIX).
 */
template <int RADIX>
__device__ __forceinline__ int
fft_pass(float2* buf, int log2N, int log2Ns, const float2* __restrict__ twiddle)
{
    constexpr int LR = RADIX == 2 ? 1 : RADIX == 4 ? 2 : 4;
    constexpr int per = fused_per_thread / RADIX;
    const int Ns = 1 << log2Ns;
    const int stride = 1 << (log2N - LR);
    const int twshift = log2N - log2Ns - LR;
    float2 v[fused_per_thread];
#pragma unroll
    for (int i = 0; i < per; ++i) {
        const int q = threadIdx.x + i * fused_threads;
        const int row = (q >> (log2N - LR)) << log2N;
        const int jj = q & (stride - 1);
        const int k = jj & (Ns - 1);
        float2* x = v + i * RADIX;
#pragma unroll
        for (int r = 0; r < RADIX; ++r)
            x[r] = buf[fused_pad(row + jj + r * stride)];
        if (k) {
#pragma unroll
            for (int r = 1; r < RADIX; ++r)
                x[r] = cmul(x[r], __ldg(twiddle + ((r * k) << twshift)));
        }
        idft<RADIX>(x);
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < per; ++i) {
        const int q = threadIdx.x + i * fused_threads;
        const int row = (q >> (log2N - LR)) << log2N;
        const int jj = q & (stride - 1);
        const int k = jj & (Ns - 1);
        const int o = row + ((jj - k) << LR) + k;
#pragma unroll
        for (int r = 0; r < RADIX; ++r)
            buf[fused_pad(o + r * Ns)] = v[i * RADIX + r];
    }
    __syncthreads();
    return log2Ns + LR;
}

/*!
 * Every row of fused_elems samples in buf (fused_pad layout, rows of P = 2^log2P)
 * transformed in place by the Stockham passes above (fft_pass: unscaled,
 * exp(+j)): a radix-2 pass when log2 P is odd, a radix-4 pass when the rest is not a
 * multiple of 4, then radix-16 passes. Every thread of the block calls it.
 */
__device__ __forceinline__ void
fft_rows(float2* buf, int log2P, const float2* __restrict__ twiddle)
{
    int log2Ns = 0;
    if (log2P & 1)
        log2Ns = fft_pass<2>(buf, log2P, log2Ns, twiddle);
    if ((log2P - log2Ns) & 2)
        log2Ns = fft_pass<4>(buf, log2P, log2Ns, twiddle);
    while (log2Ns < log2P)
        log2Ns = fft_pass<16>(buf, log2P, log2Ns, twiddle);
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
