/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_FIR_PARTITIONED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FFT_FIR_PARTITIONED_KERNELS_CUH

// Uniformly partitioned overlap-save (fft_fir_engine's path for filters longer than
// the fused sizes hold): the taps are cut into P partitions of B = N/2, each
// with its N-point spectrum H_p. Segment m holds the N samples ending B positions
// after block m starts; block b's outputs are the last B points of
// IFFT(sum_p S_{b-p} H_p), where S_m is segment m's spectrum. Three kernels per
// group of blocks: the spectra (a sample is transformed once however long the
// filter), their sums per bin along the blocks (a P-tap filter on each bin: the
// frequency-domain delay line), and the inverse of each block's sum.
//
// Positions count from the call's first output's newest sample, v[first + H]
// (names as in fft_fir_kernels.cuh): output k is at position k*D. Block b covers
// positions [b*B, (b+1)*B); segment m covers v[first + H - (B-1) + m*B + i],
// i in [0, N), so position b*B + t is point B - 1 + t of segment b: partition p's
// taps j < B reach back to point B - 1 + t - j >= 0 of segment b - p, with no wrap.
//
// Real input with real taps packs block b + K into the imaginary part of block b
// (K = half the group's blocks), as the fused kernel packs segment pairs.

#include "../common/block_fft.cuh"
#include "../common/cuda_check.h"
#include "../common/device_math.cuh"
#include "../common/kernel_attributes.h"
#include "fft_fir_fused_kernels.cuh"
#include "fft_fir_kernels.cuh"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fft_fir_partitioned {

struct geometry {
    long long origin;    // virtual index of the group's segment 0's first point
    long long position0; // position of the group's block 0
    int partitions;      // P
    long long blocks;    // blocks of the group
    long long pairs;     // K: block b + K rides with b (Pack), else blocks
    int decimation;
    long long noutputs; // outputs of the call
};

//! Spectra of segments m in [-(P-1), K): spectra[(m + P - 1) * N + f].
template <int N, bool Pack, class In>
__global__ void __launch_bounds__(fft_fir_fused::threads_for(N),
                                  fft_fir_fused::min_blocks_for(N))
    spectra(history_then_input<In> src,
            geometry g,
            const float2* __restrict__ twiddles,
            float2* __restrict__ spectra)
{
    namespace bf = block_fft;
    constexpr int T = fft_fir_fused::threads_for(N);
    constexpr int B = N / 2;
    extern __shared__ float2 buf[];
    const long long m = static_cast<long long>(blockIdx.x) - (g.partitions - 1);
    const long long start = g.origin + m * B;
    // Block-uniform: the segment (and its pair) lies in the caller's input, so its
    // loads need no range tests (as the fused kernel's).
    const long long pair = Pack ? g.pairs * B : 0;
    const bool inside = src.in_input(start, pair + N);
    const In* x = inside ? src.from(start) : src.input;
    using last = bf::forward_last<N, T>;
    typename last::values v;
    bf::forward_to_registers<N, T>(
        buf,
        [&](int i) {
            if constexpr (Pack) {
                if (inside)
                    return make_float2(x[i], x[pair + i]);
                return make_float2(src[start + i], src[start + pair + i]);
            } else {
                return fft_fir_kernels::to_complex(inside ? x[i] : src[start + i]);
            }
        },
        v,
        twiddles);
    float2* out = spectra + static_cast<long long>(blockIdx.x) * N;
    last::store(v, [&](int f, float2 y) { out[f] = y; });
}

//! Blocks per thread of sum_partitions (M below), and its threads per block.
constexpr int sums_per_thread = 8;
constexpr int sum_threads = 128;

//! The frequency-domain delay line: sums[b * N + f] = sum_p S_{b-p}[f] H_p[f] for the
//! group's blocks b < K. A thread keeps one bin's M sums and the window of spectra
//! they take at partition p, S_{b0+i-p}, in registers: each step to p + 1 shifts the
//! window by one block and loads one spectrum value, so a spectrum is read about
//! (P + M - 1) / M times rather than P, and the taps' spectra once per M blocks.
__global__ void __launch_bounds__(sum_threads)
    sum_partitions(geometry g,
                   int n,
                   const float2* __restrict__ spectra,
                   const float2* __restrict__ taps_spectra,
                   float2* __restrict__ sums)
{
    constexpr int M = sums_per_thread;
    const int f = blockIdx.x * sum_threads + threadIdx.x; // n is a multiple of it
    const long long b0 = static_cast<long long>(blockIdx.y) * M;
    const int P = g.partitions;
    const long long rows = g.pairs + P - 1; // segment m at row m + P - 1
    auto spectrum = [&](long long row) {
        return row < rows ? spectra[row * n + f] : make_float2(0.0f, 0.0f);
    };
    float2 window[M], acc[M];
#pragma unroll
    for (int i = 0; i < M; ++i) {
        window[i] = spectrum(b0 + i + P - 1);
        acc[i] = make_float2(0.0f, 0.0f);
    }
    for (int p = 0;;) {
        const float2 w = __ldg(taps_spectra + static_cast<long long>(p) * n + f);
#pragma unroll
        for (int i = 0; i < M; ++i) {
            const float2 a = window[i];
            acc[i].x = fmaf(a.x, w.x, fmaf(-a.y, w.y, acc[i].x));
            acc[i].y = fmaf(a.x, w.y, fmaf(a.y, w.x, acc[i].y));
        }
        if (++p == P)
            break;
#pragma unroll
        for (int i = M - 1; i > 0; --i)
            window[i] = window[i - 1];
        window[0] = spectrum(b0 - p + P - 1);
    }
#pragma unroll
    for (int i = 0; i < M; ++i)
        if (b0 + i < g.pairs)
            sums[(b0 + i) * n + f] = acc[i];
}

//! Block b of the group (b < K): the inverse of its summed spectrum sums[b]
//! (sum_partitions), the kept positions.
template <int N, bool Pack, class Out, class Epilogue>
__global__ void __launch_bounds__(fft_fir_fused::threads_for(N),
                                  fft_fir_fused::min_blocks_for(N))
    inverse(geometry g,
            const float2* __restrict__ sums,
            const float2* __restrict__ twiddles,
            Out* __restrict__ out,
            Epilogue epilogue)
{
    namespace bf = block_fft;
    constexpr int T = fft_fir_fused::threads_for(N);
    constexpr int B = N / 2;
    constexpr block_fft_plan fwd{ N, true };
    const float2* tw_inv = twiddles + fwd.twiddle_count();
    extern __shared__ float2 buf[];
    const long long b = blockIdx.x;

    using first = bf::inverse_first<N, T>;
    typename first::values v;
    const float2* s = sums + b * N;
#pragma unroll
    for (int p = 0; p < first::P; ++p)
#pragma unroll
        for (int r = 0; r < 16; ++r)
            v[p][r] = bf::conj(s[first::butterfly(p) + r * (N / 16)]);
    // Output k sits at position k*D. The block's first position and its remainder
    // are divided once (64-bit); a point t in [0, B) then needs 32-bit arithmetic
    // (remainder < D <= INT_MAX, t < B <= 4096), and none at D = 1.
    const unsigned D = static_cast<unsigned>(g.decimation);
    const long long base = g.position0 + b * B;
    const long long base1 = base + g.pairs * B; // Pack: the block riding in y.y
    const unsigned rem = static_cast<unsigned>(base % D),
                   rem1 = static_cast<unsigned>(base1 % D);
    const long long quot = base / D, quot1 = base1 / D;
    const bool second = Pack && b + g.pairs < g.blocks;
    // buf is untouched so far: no barrier before the inverse's first store.
    bf::inverse_from_registers<N, T, 1, false>(
        buf,
        v,
        [&](int i, float2 y) {
            const int t = i - (B - 1);
            if (t < 0 || t >= B)
                return;
            y = bf::conj(y);
            long long k = quot + t, k1 = quot1 + t;
            bool kept = true, kept1 = second;
            if (D != 1) {
                const unsigned r = rem + static_cast<unsigned>(t);
                const unsigned r1 = rem1 + static_cast<unsigned>(t);
                kept = r % D == 0;
                kept1 = kept1 && r1 % D == 0;
                k = quot + r / D;
                k1 = quot1 + r1 / D;
            }
            if (kept && k < g.noutputs) {
                if constexpr (Pack)
                    out[k] = epilogue(y.x, k);
                else
                    out[k] = epilogue(fft_fir_kernels::from_complex<Out>(y), k);
            }
            if constexpr (Pack)
                if (kept1 && k1 < g.noutputs)
                    out[k1] = epilogue(y.y, k1);
        },
        tw_inv);
}

//! The group's three kernels (sizes: fir_partition_size_supported): spectra, their sums,
//! the inverse. `sums` holds K blocks.
template <int N, bool Pack, class In, class Out, class Epilogue>
void launch_size(history_then_input<In> src,
                 const geometry& g,
                 const float2* taps_spectra,
                 const float2* twiddles,
                 float2* spectra_buffer,
                 float2* sums,
                 Out* out,
                 Epilogue epilogue,
                 cudaStream_t stream)
{
    constexpr int bytes = block_fft::padded_size(N) * sizeof(float2);
    constexpr int T = fft_fir_fused::threads_for(N);
    constexpr int M = sums_per_thread;
    auto* forward = spectra<N, Pack, In>;
    auto* backward = inverse<N, Pack, Out, Epilogue>;
    allow_dynamic_shared_memory(forward, bytes);
    allow_dynamic_shared_memory(backward, bytes);
    const auto segments = static_cast<unsigned>(g.pairs + g.partitions - 1);
    forward<<<segments, T, bytes, stream>>>(src, g, twiddles, spectra_buffer);
    GPUFILTER_CHECK_LAUNCH();
    const dim3 grid(N / sum_threads, static_cast<unsigned>((g.pairs + M - 1) / M));
    sum_partitions<<<grid, sum_threads, 0, stream>>>(
        g, N, spectra_buffer, taps_spectra, sums);
    GPUFILTER_CHECK_LAUNCH();
    backward<<<static_cast<unsigned>(g.pairs), T, bytes, stream>>>(
        g, sums, twiddles, out, epilogue);
    GPUFILTER_CHECK_LAUNCH();
}

template <bool Pack, class In, class Out, class Epilogue>
void launch(int n,
            history_then_input<In> src,
            const geometry& g,
            const float2* taps_spectra,
            const float2* twiddles,
            float2* spectra_buffer,
            float2* sums,
            Out* out,
            Epilogue epilogue,
            cudaStream_t stream)
{
    if (n == 4096)
        return launch_size<4096, Pack>(
            src, g, taps_spectra, twiddles, spectra_buffer, sums, out, epilogue, stream);
    if (n == 8192)
        return launch_size<8192, Pack>(
            src, g, taps_spectra, twiddles, spectra_buffer, sums, out, epilogue, stream);
    throw std::logic_error("partitioned FFT FIR: no kernel for " + std::to_string(n) +
                           " points");
}

} // namespace fft_fir_partitioned
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
