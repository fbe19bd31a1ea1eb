/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_POLYPHASE_FIR_FFT_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_POLYPHASE_FIR_FFT_KERNELS_CUH

// Device code of polyphase_bank's fused path: the branch FIR and the inverse FFT of
// its rows in one kernel, on the shared block FFT (common/block_fft.cuh). A sample
// crosses device memory once in and each channel sample once out, at any oversample
// rate: the rotation of the FFT input (polyphase_bank.h) is where the FIR writes.

#include "../common/block_fft.cuh"
#include "../common/cuda_check.h"
#include "../common/history_keep.cuh"
#include "../common/kernel_attributes.h"
#include "polyphase_kernels.cuh"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_fir_fft {

//! A block holds E complex samples, E / N whole steps of N points, and runs E / 16
//! threads: one radix-16 butterfly each a stage. 64 registers a thread and 1024
//! threads a multiprocessor, as the fused FFT FIR (the stages wait at barriers, other
//! blocks' warps hide them).
__host__ __device__ constexpr int threads_for(int e) { return e / 16; }
__host__ __device__ constexpr int min_blocks_for(int e)
{
    return 1024 / threads_for(e) > 0 ? 1024 / threads_for(e) : 1;
}
inline std::size_t shared_bytes(int e)
{
    return static_cast<std::size_t>(block_fft::padded_size(e)) * sizeof(float2);
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

constexpr int tap_chunk = 8; // taps whose loads are issued together

//! The branch taps (tap k of branch f at f + k*N) where the FIR reads them: device
//! memory through the read-only cache, or the block's copy in shared memory.
struct device_taps {
    const float* taps;
    __device__ __forceinline__ float operator[](int i) const { return __ldg(taps + i); }
};
struct shared_taps {
    const float* taps;
    __device__ __forceinline__ float operator[](int i) const { return taps[i]; }
};

/*!
 * The FIR of the block's `rows` steps into buf (block_fft slot layout), conjugated
 * for the inverse transform: branch outputs of step t at point t*N + p,
 * p = N - 1 - ((j + R) mod N) for column j (gr-filter's d_idxlut; polyphase_bank.h).
 *
 * Coordinates of pfb_kernels::fir: u = v + base, u = a*N + b. Steps t and t + os
 * (os = N / R) end one row apart in the same column, so they share a branch: a work
 * item is W such steps t0 + m*os of one column j, and step m, tap k reads row
 * a(t0) - wrap + m - k. The item's W + T - 1 input loads and T tap loads serve W*T
 * multiply-adds. Taps go in chunks of tap_chunk whose loads are issued together, so
 * a thread keeps a dozen loads in flight rather than one.
 */
template <int N, int W, int TH, class L, class Taps>
__device__ __forceinline__ void fir_rows(const L& x,
                                         float2* buf,
                                         int rows,
                                         int os,
                                         int R,
                                         int T,
                                         const Taps& branch_taps,
                                         int base,
                                         long long u_first)
{
    constexpr int log2N = block_fft_plan{ N, true }.log2n();
    constexpr int mask = N - 1;
    constexpr int C = tap_chunk;
    const int items = (rows / W) << log2N;
    // os divides the power of two N, so it is one too: shifts, not divisions.
    const int os_log2 = __ffs(os) - 1;
    for (int w = threadIdx.x; w < items; w += TH) {
        const int j = w & mask;
        const int q = w >> log2N;
        const int t0 = (((q >> os_log2) * W) << os_log2) + (q & (os - 1));
        const long long u0 = u_first + static_cast<long long>(t0) * R;
        const long long a = u0 >> log2N;
        const int b = static_cast<int>(u0 & mask);
        const int wrap = j > b ? 1 : 0;
        const int h = b - j + wrap * N; // tap k of this branch: h + k*N
        const long long v = (a - wrap) * N + j - base;
        float2 acc[W];
#pragma unroll
        for (int m = 0; m < W; ++m)
            acc[m] = make_float2(0.0f, 0.0f);
        for (int k0 = 0; k0 < T; k0 += C) {
            const int kc = min(C, T - k0);
            // xs[i]: row offset W - 1 - k0 - i; step m, tap k0 + kk reads
            // xs[kk + W - 1 - m].
            float2 xs[C + W - 1];
            float hs[C];
#pragma unroll
            for (int i = 0; i < C + W - 1; ++i)
                xs[i] = i < kc + W - 1 ? x[v + static_cast<long long>(W - 1 - k0 - i) * N]
                                       : make_float2(0.0f, 0.0f);
#pragma unroll
            for (int kk = 0; kk < C; ++kk)
                hs[kk] = kk < kc ? branch_taps[h + (k0 + kk) * N] : 0.0f;
#pragma unroll
            for (int kk = 0; kk < C; ++kk)
#pragma unroll
                for (int m = 0; m < W; ++m) {
                    const float2 xv = xs[kk + W - 1 - m];
                    acc[m].x = fmaf(xv.x, hs[kk], acc[m].x);
                    acc[m].y = fmaf(xv.y, hs[kk], acc[m].y);
                }
        }
        const int p = N - 1 - ((j + R) & mask);
#pragma unroll
        for (int m = 0; m < W; ++m)
            buf[block_fft::slot(((t0 + m * os) << log2N) + p)] = block_fft::conj(acc[m]);
    }
}

/*!
 * fir_rows for os = N / R = OS > 1, with an item taking the W*OS consecutive steps
 * t0 .. t0 + W*OS - 1 of one column j, every phase p = t - t0 mod OS, rather than W
 * steps of one phase: the phases read the same rows with other taps, so the item
 * loads its T + W rows once for all of them (at os 2 and 8 taps, 10 rows for 4
 * steps where two items loaded 18). The rows are what limit the oversampled
 * channelizer: loads that miss L1 and come from L2.
 *
 * Step t0 + p reads rows r_p - k (k < T), r_p = a_p - wrap_p, and r_p - r_0 = d_p is
 * 0 or 1: the OS steps advance (OS - 1) * R < N samples, so a_p rises by at most one,
 * and wrap_p falls when it does not. With the window's top row r_0 + 1, tap kk of the
 * window (row r_0 + 1 + m - kk for the item's m-th step of a phase) meets phase p's
 * tap kk - s_p, s_p = 1 - d_p, or zero where that lies outside [0, T): T + 1 window
 * taps a phase. The top row r_0 + W only matters where some d_p is 1; otherwise it is
 * not loaded (it may lie past the block's rows, and an Inf there times a zero tap
 * would give NaN).
 */
template <int N, int W, int OS, int TH, class L, class Taps>
__device__ __forceinline__ void fir_rows_phases(const L& x,
                                                float2* buf,
                                                int rows,
                                                int R,
                                                int T,
                                                const Taps& branch_taps,
                                                int base,
                                                long long u_first)
{
    constexpr int log2N = block_fft_plan{ N, true }.log2n();
    constexpr int mask = N - 1;
    constexpr int C = tap_chunk / 2; // with OS phases of taps: 64 registers a thread
    const int items = (rows / (W * OS)) << log2N;
    for (int w = threadIdx.x; w < items; w += TH) {
        const int j = w & mask;
        const int t0 = (w >> log2N) * (W * OS);
        int h[OS], s[OS]; // phase p: its branch's first tap, and its shift s_p
        long long r0 = 0;
        bool top = false; // some d_p is 1
#pragma unroll
        for (int p = 0; p < OS; ++p) {
            const long long u = u_first + static_cast<long long>(t0 + p) * R;
            const long long a = u >> log2N;
            const int b = static_cast<int>(u & mask);
            const int wrap = j > b ? 1 : 0;
            h[p] = b - j + wrap * N;
            const long long r = a - wrap;
            if (p == 0)
                r0 = r;
            s[p] = 1 - static_cast<int>(r - r0);
            top = top || s[p] == 0;
        }
        const long long v = (r0 + 1) * N + j - base; // the window's top row, column j
        float2 acc[OS][W];
#pragma unroll
        for (int p = 0; p < OS; ++p)
#pragma unroll
            for (int m = 0; m < W; ++m)
                acc[p][m] = make_float2(0.0f, 0.0f);
        for (int k0 = 0; k0 <= T; k0 += C) {
            const int kc = min(C, T + 1 - k0);
            // xs[i]: row offset W - 1 - k0 - i from the top row; step m, window tap
            // k0 + kk reads xs[kk + W - 1 - m].
            float2 xs[C + W - 1];
            float hs[OS][C];
#pragma unroll
            for (int i = 0; i < C + W - 1; ++i)
                xs[i] = i < kc + W - 1 && (top || k0 + i > 0)
                            ? x[v + static_cast<long long>(W - 1 - k0 - i) * N]
                            : make_float2(0.0f, 0.0f);
#pragma unroll
            for (int p = 0; p < OS; ++p)
#pragma unroll
                for (int kk = 0; kk < C; ++kk) {
                    const int k = k0 + kk - s[p]; // phase p's own tap
                    hs[p][kk] =
                        kk < kc && k >= 0 && k < T ? branch_taps[h[p] + k * N] : 0.0f;
                }
#pragma unroll
            for (int kk = 0; kk < C; ++kk)
#pragma unroll
                for (int m = 0; m < W; ++m) {
                    const float2 xv = xs[kk + W - 1 - m];
#pragma unroll
                    for (int p = 0; p < OS; ++p) {
                        acc[p][m].x = fmaf(xv.x, hs[p][kk], acc[p][m].x);
                        acc[p][m].y = fmaf(xv.y, hs[p][kk], acc[p][m].y);
                    }
                }
        }
        const int col = N - 1 - ((j + R) & mask);
#pragma unroll
        for (int p = 0; p < OS; ++p)
#pragma unroll
            for (int m = 0; m < W; ++m)
                buf[block_fft::slot(((t0 + p + m * OS) << log2N) + col)] =
                    block_fft::conj(acc[p][m]);
    }
}

//! The steps W of fir_rows' window: the most (4, 2 or 1) of each residue modulo
//! os = N / R that a block's `rows` steps hold (os 0 where R does not divide N: 1).
__host__ __device__ constexpr int window_steps(int rows, int os)
{
    return os == 0 ? 1 : rows % (4 * os) == 0 ? 4 : rows % (2 * os) == 0 ? 2 : 1;
}

//! fir_rows with the longest window the block's steps allow (window_steps); with
//! Phases, fir_rows_phases at os 2.
template <int N, int TH, bool Phases, class L, class Taps>
__device__ __forceinline__ void fir_block(const L& x,
                                          float2* buf,
                                          int rows,
                                          int os,
                                          int R,
                                          int T,
                                          const Taps& branch_taps,
                                          int base,
                                          long long u_first)
{
    const int W = window_steps(rows, os);
    if constexpr (Phases) {
        if (os == 2 && rows % (2 * W) == 0) { // every phase of a column at once
            if (W == 4)
                return fir_rows_phases<N, 4, 2, TH>(
                    x, buf, rows, R, T, branch_taps, base, u_first);
            if (W == 2)
                return fir_rows_phases<N, 2, 2, TH>(
                    x, buf, rows, R, T, branch_taps, base, u_first);
            return fir_rows_phases<N, 1, 2, TH>(
                x, buf, rows, R, T, branch_taps, base, u_first);
        }
    }
    if (os == 0) // R does not divide N: a branch's steps are rows apart
        fir_rows<N, 1, TH>(x, buf, rows, 1, R, T, branch_taps, base, u_first);
    else if (W == 4)
        fir_rows<N, 4, TH>(x, buf, rows, os, R, T, branch_taps, base, u_first);
    else if (W == 2)
        fir_rows<N, 2, TH>(x, buf, rows, os, R, T, branch_taps, base, u_first);
    else
        fir_rows<N, 1, TH>(x, buf, rows, os, R, T, branch_taps, base, u_first);
}

/*!
 * The fused path for N channels (a power of two, N <= E): block b computes steps
 * [b*rows, b*rows + rows) of the launch, rows = E / N, from the launch origin
 * (v_first, base) of polyphase_bank::origin, R input samples a step.
 *
 * 1. FIR into shared memory (fir_block), every row of the block, conjugated; with
 *    SharedTaps, from a copy of the bank's taps in shared memory behind the rows
 *    (shared_taps_fit), else from device memory. A FIR item waits on its tap and
 *    sample loads together; the multiply-adds waiting on taps from L2 were the
 *    oversampled channelizer's most sampled stalls (1024 channels, os 2, 8 taps:
 *    69 -> 76-77 GS/s on an H100 with the copy).
 * 2. The block FFT's stages (plan {N, small first}, `rows` transforms a block) in
 *    shared memory, but the last, which stores straight to the output (from 64
 *    channels up: consecutive threads on consecutive channels): conjugated, the
 *    unscaled inverse transform (exp(+j)) as gr-fft's fft_complex_rev.
 *    out[(b*rows + t)*N + c] for the block's valid steps t.
 */
template <int N, int E, class S, bool SharedTaps>
__global__ void __launch_bounds__(threads_for(E), min_blocks_for(E))
    fir_fft(pfb_kernels::source<S> src,
            int R,
            int T,
            const float* __restrict__ branch_taps,
            const float2* __restrict__ twiddles,
            long long v_first,
            int base,
            long long nsteps,
            float2* __restrict__ out,
            history_keep<float2, S, pfb_kernels::complex_sample> keep)
{
    keep.copy(); // the next call's history, where the call asked for it (n = 0: none)
    namespace bf = block_fft;
    constexpr int TH = threads_for(E);
    constexpr int rows = E / N;
    constexpr block_fft_plan plan{ N, true };
    constexpr int log2N = plan.log2n();
    constexpr int S_ = plan.stages();
    static_assert(E % N == 0 && E >= 16, "fir_fft: whole steps a block");
    extern __shared__ float4 storage[]; // shared_bytes(E)
    float2* buf = reinterpret_cast<float2*>(storage);

    // All os 2 phases of a column in one FIR item where a block runs alone on its
    // multiprocessor (16384 samples): no other block's transform hides its row
    // loads, and the item loads fewer (2048 channels, os 2, 8 taps, H100: 57-60 ->
    // 63-64 GS/s). Where blocks share a multiprocessor the one-phase items are faster
    // (1024 channels: 76-78 against 72-73), and their kernels carry no registers of
    // the other kind (os 1 at 256 channels fell 10% when they did). Below 2048
    // channels os 2 takes smaller blocks (pfb_fused_block), and in the 16384-sample
    // kernels of 512 and 1024 channels, which run os 4 and up, the items' registers
    // only made ptxas spill.
    constexpr bool phases = min_blocks_for(E) == 1 && N >= 2048;
    const long long step0 = static_cast<long long>(blockIdx.x) * rows;
    const long long valid = min(static_cast<long long>(rows), nsteps - step0) << log2N;
    const long long u_first = v_first + base + step0 * R;
    const int os = N % R == 0 ? N / R : 0;

    // Block-uniform: every sample the block reads lies in the input (most blocks of
    // a long call), so loads need no range checks.
    const long long v_lo = ((u_first >> log2N) - T) * N - base;
    const long long v_hi =
        (((u_first + static_cast<long long>(rows - 1) * R) >> log2N) + 1) * N - base;
    auto fir = [&](const auto& taps) {
        if (src.in_input(v_lo, v_hi - v_lo))
            fir_block<N, TH, phases>(direct_source<S>{ src.input, src.history_len },
                                     buf,
                                     rows,
                                     os,
                                     R,
                                     T,
                                     taps,
                                     base,
                                     u_first);
        else
            fir_block<N, TH, phases>(src, buf, rows, os, R, T, taps, base, u_first);
    };
    if constexpr (SharedTaps) {
        // The whole bank, N*T taps (N*T a multiple of 4 from 512 channels up), copied
        // once a block: the FIR's tap loads then wait on shared memory, not on L2.
        float* s_taps = reinterpret_cast<float*>(buf + bf::padded_size(E));
        const float4* from = reinterpret_cast<const float4*>(branch_taps);
        float4* to = reinterpret_cast<float4*>(s_taps);
        for (int i = threadIdx.x; i < N / 4 * T; i += TH)
            to[i] = __ldg(from + i);
        __syncthreads();
        fir(shared_taps{ s_taps });
    } else {
        fir(device_taps{ branch_taps });
    }
    __syncthreads();

    bf::run_stages<N, true, TH, 0, S_ - 1, rows>(buf, twiddles);
    using last = bf::stage<N, true, S_ - 1, TH, rows>;
    typename last::values v;
    last::compute(
        v, [&](int i) { return buf[bf::slot(i)]; }, twiddles);
    float2* dst = out + (step0 << log2N);
    if constexpr (last::Ns >= 4) {
        last::store(v, [&](int i, float2 y) {
            if (i < valid)
                dst[i] = bf::conj(y);
        });
    } else {
        // A thread's outputs lie fewer than 4 apart (N <= 32): stored as they are, a
        // warp's writes would scatter over 32 rows. Through shared memory instead,
        // then out in pairs (a pair never straddles a pad).
        __syncthreads(); // every thread has read the stage's input
        last::store(v, [&](int i, float2 y) { buf[bf::slot(i)] = bf::conj(y); });
        __syncthreads();
        const int total = static_cast<int>(valid);
        if ((reinterpret_cast<unsigned long long>(dst) & 15) == 0) {
            float4* d4 = reinterpret_cast<float4*>(dst);
            for (int e = threadIdx.x; e < total / 2; e += TH) {
                const float2 lo = buf[bf::slot(2 * e)], hi = buf[bf::slot(2 * e + 1)];
                d4[e] = make_float4(lo.x, lo.y, hi.x, hi.y);
            }
        } else {
            for (int e = threadIdx.x; e < total; e += TH)
                dst[e] = buf[bf::slot(e)];
        }
    }
}

//! The block sizes with a kernel for N channels: 4096 samples, and from 512 channels
//! up also 8192 and 16384 (more steps a block share more of their input rows).
inline bool has_block(int N, int E)
{
    return E == 4096 || (N >= 512 && N <= E && (E == 8192 || E == 16384));
}

//! Taps a branch from which blocks copy them (at 4 the copy gained nothing).
constexpr int copy_min_taps = 8;

/*!
 * Whether blocks of E samples for N channels may copy the bank's taps into shared
 * memory: from 512 channels up, with two blocks or more a multiprocessor (one block
 * has no other to run while it copies: 4096 channels x 4 taps fell from 117 to 104
 * GS/s on an H100), where 8 taps a branch fit beside the rows in the 228 KB of the
 * largest multiprocessors (512 channels, 1024 in blocks of 8192: the only kernels
 * built with the copy).
 */
__host__ __device__ constexpr bool can_copy_taps(int N, int E)
{
    return N >= 512 && min_blocks_for(E) >= 2 &&
           min_blocks_for(E) *
                   (block_fft::padded_size(E) * 8 + N * copy_min_taps * 4 + 1024) <=
               228 * 1024;
}

/*!
 * Whether they do, for R input samples a step and T taps a branch (measured on an
 * H100, GS/s of input, vector layout): where a block would read each tap twice or
 * more (its rows / window_steps windows a column; 1024 channels os 2 at 8 taps, 69 ->
 * 76; 512 channels os 2, 80 -> 85; once, 1024 channels os 1 x 4 taps, it was 2%
 * slower), with 8 taps a branch or more (at 4 taps the copy gained nothing), and the
 * copy leaves a multiprocessor the blocks its registers allow (min_blocks_for):
 * `per_sm` bytes of shared memory, `reserved` of them kept for each block, `per_block`
 * at most a block.
 */
inline bool shared_taps_fit(int N,
                            int E,
                            int R,
                            int T,
                            std::size_t per_sm,
                            std::size_t reserved,
                            std::size_t per_block)
{
    const int rows = E / N;
    const int os = N % R == 0 ? N / R : 0;
    if (!can_copy_taps(N, E) || T < copy_min_taps || rows / window_steps(rows, os) < 2)
        return false;
    const std::size_t bytes = shared_bytes(E) + static_cast<std::size_t>(N) * T * 4;
    return bytes <= per_block && min_blocks_for(E) * (bytes + reserved) <= per_sm;
}

template <int N, int E, class S>
void launch_shape(pfb_kernels::source<S> src,
                  int R,
                  int T,
                  const float* taps,
                  const float2* twiddles,
                  long long v_first,
                  int base,
                  long long nsteps,
                  float2* out,
                  history_keep<float2, S, pfb_kernels::complex_sample> keep,
                  unsigned blocks,
                  bool copy_taps,
                  cudaStream_t stream)
{
    constexpr bool can_copy = can_copy_taps(N, E); // fewer kernels to build
    auto* kernel =
        can_copy && copy_taps ? fir_fft<N, E, S, can_copy> : fir_fft<N, E, S, false>;
    const std::size_t bytes =
        shared_bytes(E) +
        (can_copy && copy_taps ? static_cast<std::size_t>(N) * T * sizeof(float) : 0);
    if (bytes > 48 * 1024) // past the default 48 KB a kernel opts in
        allow_dynamic_shared_memory(kernel, bytes);
    kernel<<<blocks, threads_for(E), bytes, stream>>>(
        src, R, T, taps, twiddles, v_first, base, nsteps, out, keep);
    GPUFILTER_CHECK_LAUNCH();
}

} // namespace pfb_fir_fft
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
