/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_POLYPHASE_FUSED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_POLYPHASE_FUSED_KERNELS_CUH

// Device code of polyphase_bank's fused path: the branch FIR and the inverse FFT in
// one kernel (fir_fft), and the in-block Stockham FFT passes it shares with the
// synthesizer's kernels.

#include "polyphase_kernels.cuh"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_kernels {

// The fused kernel's shape: a block holds fused_elems complex samples in shared
// memory, fused_elems / N whole rows (steps), and each thread moves
// fused_elems / fused_threads of them per FFT pass through registers. Measured on an
// H100 at 1024 x 8: 256 threads / 4096 samples with at most 64 registers (4 blocks
// per SM) 103 GS/s; 512 / 8192 at 64 registers 84, at 128 registers 85.
constexpr int fused_threads = 256;
constexpr int fused_elems = 4096;
constexpr int fused_per_thread = fused_elems / fused_threads;
static_assert(fused_per_thread == 16, "the FFT passes below hold 16 values a thread");
//! Shared-memory index of sample i of the block's rows: one pad sample every 16, so
//! that the FFT passes' strided stores (stride 4 or 16 samples) spread over the banks.
__host__ __device__ constexpr int fused_pad(int i) { return i + (i >> 4); }
//! 34 KB at 4096 samples (polyphase_bank opts in where a larger block passes 48 KB).
constexpr int fused_smem_bytes = fused_pad(fused_elems) * 8;

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x));
}
__device__ __forceinline__ float2 cadd(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}
__device__ __forceinline__ float2 csub(float2 a, float2 b)
{
    return make_float2(a.x - b.x, a.y - b.y);
}
__device__ __forceinline__ void caxpy(float2& acc, float h, float2 x)
{
    acc.x = fmaf(x.x, h, acc.x);
    acc.y = fmaf(x.y, h, acc.y);
}

//! [history | input] where the caller knows v is in the input: no checks.
template <class S>
struct direct_source {
    const S* input;
    long long history_len;
    __device__ __forceinline__ float2 operator[](long long v) const
    {
        return to_complex(input[v - history_len]);
    }
};

constexpr int fused_tap_chunk = 8; // taps whose loads are issued together

/*!
 * The fused kernel's FIR stage (fir_fft below): rows steps from u_first into buf,
 * slot N - 1 - ((j + R) mod N) of row t. Taps go in chunks of fused_tap_chunk whose
 * loads are all issued before the multiply-adds, so each thread keeps a dozen loads
 * in flight rather than one.
 */
template <bool one_row_per_step, class L>
__device__ __forceinline__ void fused_fir(const L& x,
                                          float2* buf,
                                          int N,
                                          int log2N,
                                          int R,
                                          int T,
                                          const float* __restrict__ branch_taps,
                                          int base,
                                          long long u_first,
                                          int rows)
{
    constexpr int C = fused_tap_chunk;
    const int mask = N - 1;
    if (one_row_per_step && rows >= 4) {
        // Work item (4 consecutive steps t0.., column j): one branch, step t0 + i
        // tap k reads row a_first + t0 + i - wrap - k: xs[m] below is the row for
        // i - (k - k0) = 3 - m.
        const long long a_first = u_first >> log2N;
        const int b = static_cast<int>(u_first & mask);
        const int items = (rows >> 2) << log2N;
        for (int w = threadIdx.x; w < items; w += fused_threads) {
            const int j = w & mask;
            const int t0 = (w >> log2N) << 2;
            const int wrap = j > b ? 1 : 0;
            const float* h = branch_taps + (b - j + wrap * N);
            const long long v = (a_first + t0 - wrap) * N + j - base;
            float2 a0 = make_float2(0.0f, 0.0f), a1 = a0, a2 = a0, a3 = a0;
            for (int k0 = 0; k0 < T; k0 += C) {
                const int kc = min(C, T - k0);
                float2 xs[C + 3];
                float hs[C];
#pragma unroll
                for (int m = 0; m < C + 3; ++m)
                    xs[m] = m < kc + 3 ? x[v + static_cast<long long>(3 - k0 - m) * N]
                                       : make_float2(0.0f, 0.0f);
#pragma unroll
                for (int kk = 0; kk < C; ++kk)
                    hs[kk] =
                        kk < kc ? __ldg(h + static_cast<long long>(k0 + kk) * N) : 0.0f;
#pragma unroll
                for (int kk = 0; kk < C; ++kk) {
                    caxpy(a0, hs[kk], xs[kk + 3]);
                    caxpy(a1, hs[kk], xs[kk + 2]);
                    caxpy(a2, hs[kk], xs[kk + 1]);
                    caxpy(a3, hs[kk], xs[kk]);
                }
            }
            // R == N: slot N - 1 - ((j + N) mod N).
            const int i0 = (t0 << log2N) + (N - 1 - j);
            buf[fused_pad(i0)] = a0;
            buf[fused_pad(i0 + N)] = a1;
            buf[fused_pad(i0 + 2 * N)] = a2;
            buf[fused_pad(i0 + 3 * N)] = a3;
        }
        return;
    }
    for (int e = threadIdx.x; e < rows << log2N; e += fused_threads) {
        const int t = e >> log2N;
        const int j = e & mask;
        const long long u = u_first + static_cast<long long>(t) * R;
        const long long a = u >> log2N;
        const int b = static_cast<int>(u & mask);
        const int wrap = j > b ? 1 : 0;
        const float* h = branch_taps + (b - j + wrap * N);
        const long long v = (a - wrap) * N + j - base;
        float2 acc = make_float2(0.0f, 0.0f);
        for (int k0 = 0; k0 < T; k0 += C) {
            const int kc = min(C, T - k0);
            float2 xs[C];
            float hs[C];
#pragma unroll
            for (int kk = 0; kk < C; ++kk) {
                xs[kk] = kk < kc ? x[v - static_cast<long long>(k0 + kk) * N]
                                 : make_float2(0.0f, 0.0f);
                hs[kk] = kk < kc ? __ldg(h + static_cast<long long>(k0 + kk) * N) : 0.0f;
            }
#pragma unroll
            for (int kk = 0; kk < C; ++kk)
                caxpy(acc, hs[kk], xs[kk]);
        }
        buf[fused_pad((t << log2N) + N - 1 - ((j + R) & mask))] = acc;
    }
}

//! The radix-4 inverse DFT (exp(+j)) of a[0..3], in place.
__device__ __forceinline__ void idft4(float2& a0, float2& a1, float2& a2, float2& a3)
{
    const float2 t0 = cadd(a0, a2), t1 = csub(a0, a2), t2 = cadd(a1, a3);
    const float2 d13 = csub(a1, a3);
    const float2 t3 = make_float2(-d13.y, d13.x); // i (a1 - a3)
    a0 = cadd(t0, t2);
    a1 = cadd(t1, t3);
    a2 = csub(t0, t2);
    a3 = csub(t1, t3);
}

//! The inverse DFT of x[0..RADIX-1] in place, RADIX 2, 4 or 16 (16 = 4 x 4: DFT-4s
//! over x[4 r1 + r2], twiddles exp(+2 pi i r2 m1 / 16), DFT-4s over r2; output
//! m1 + 4 m2).
template <int RADIX>
__device__ __forceinline__ void idft(float2* x)
{
    if (RADIX == 2) {
        const float2 a = x[0], b = x[1];
        x[0] = cadd(a, b);
        x[1] = csub(a, b);
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

/*!
 * The fused path: branch FIR and unscaled inverse FFT in one kernel, for N a power of
 * two, N <= fused_elems (pfb_fused_supported). Block b computes steps
 * [b*rows, b*rows + rows) of the launch, rows = fused_elems / N, in the coordinates of
 * fir above (u = v + base, u = a*N + b):
 *
 * 1. FIR into shared memory, slot p = N - 1 - ((j + R) mod N) of each row. With one
 *    row per step and rows >= 4 (N <= 1024) a work item is (4 consecutive steps,
 *    column j): they share branch b - j (+N), step i tap k reads row
 *    a_first + t0 + i - wrap - k, so a 4-row window slides up the column: one input
 *    load and one tap load per 4 multiply-adds. Otherwise a work item is one
 *    (step, column), T loads of each. Inputs and taps come through the caches (a
 *    block's neighbours read the same rows).
 * 2. In-place Stockham autosort FFT of every row (Govindaraju et al. 2008): a radix-2
 *    pass when log2 N is odd, a radix-4 pass when the rest is not a multiple of 4,
 *    then radix-16 passes (fft_pass); pass with stride Ns reads
 *    x[j + r*N/R'], multiplies by exp(+2 pi i r (j mod Ns) / (R' Ns)) (twiddle[m] =
 *    exp(+2 pi i m / N), computed in double), does the radix-R' DFT with exp(+j) and
 *    writes x[(j - j mod Ns)*R' + j mod Ns + r*Ns]. Each thread loads its 16 values,
 *    the block syncs, each thread stores them: out of place through registers.
 *    Shared memory holds sample i at fused_pad(i).
 * 3. The valid rows go out, coalesced: out[(step0 + t)*N + c].
 */
template <class S, bool one_row_per_step>
__global__ void __launch_bounds__(fused_threads, 4)
    fir_fft(source<S> src,
            int N,
            int log2N,
            int R,
            int T,
            const float* __restrict__ branch_taps,
            const float2* __restrict__ twiddle,
            long long v_first,
            int base,
            long long nsteps,
            float2* __restrict__ out)
{
    extern __shared__ float4 storage[]; // fused_elems complex: fused_smem_bytes
    float2* buf = reinterpret_cast<float2*>(storage);
    const int tid = threadIdx.x;
    const int rows = fused_elems >> log2N;
    const long long step0 = static_cast<long long>(blockIdx.x) * rows;
    const int nb = static_cast<int>(min(static_cast<long long>(rows), nsteps - step0));
    const long long u_first = v_first + base + step0 * R;

    // Block-uniform: every sample the block reads lies in the input (most blocks of
    // a long call), so loads need no range checks.
    const long long v_lo = ((u_first >> log2N) - T) * N - base;
    const long long v_hi =
        (((u_first + static_cast<long long>(rows - 1) * R) >> log2N) + 1) * N - base;
    if (v_lo >= src.history_len && v_hi <= src.history_len + src.input_len)
        fused_fir<one_row_per_step>(direct_source<S>{ src.input, src.history_len },
                                    buf,
                                    N,
                                    log2N,
                                    R,
                                    T,
                                    branch_taps,
                                    base,
                                    u_first,
                                    rows);
    else
        fused_fir<one_row_per_step>(
            src, buf, N, log2N, R, T, branch_taps, base, u_first, rows);
    __syncthreads();

    fft_rows(buf, log2N, twiddle);

    // Rows [0, nb) out, pairs of samples as one 16-byte store where dst allows (N is
    // even: a pair never straddles a row or a pad).
    const int total = nb << log2N;
    float2* dst = out + (step0 << log2N);
    if ((reinterpret_cast<unsigned long long>(dst) & 15) == 0) {
        float4* d4 = reinterpret_cast<float4*>(dst);
        for (int e = tid; e < total / 2; e += fused_threads) {
            const float2 lo = buf[fused_pad(2 * e)], hi = buf[fused_pad(2 * e + 1)];
            d4[e] = make_float4(lo.x, lo.y, hi.x, hi.y);
        }
    } else {
        for (int e = tid; e < total; e += fused_threads)
            dst[e] = buf[fused_pad(e)];
    }
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
