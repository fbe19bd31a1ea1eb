/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_BLOCKED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR_BLOCKED_KERNELS_CUH

// Register-blocked direct-form FIR (device code). Same contract as fir_tiled: output k
// of a launch is sum_j taps_reversed[j] * v[first + k*D + j] over the virtual input v.
//
// Why: fir_tiled does R shared loads of x per tap for 2R FMAs, so it is bound by
// shared-memory bandwidth. Here a thread owns R consecutive outputs and slides a
// register window over its input: per R taps it loads R new samples and R taps (the
// taps with broadcast float4 loads) and does R*R multiply-accumulates from registers.
//
// Decimation, polyphase: write tap j = q*D + p (phase p = j mod D). Output k then is
//   sum_p sum_q taps_reversed[q*D + p] * s_p[k + q],   s_p[m] = v[first + m*D + p],
// i.e. for each phase a D = 1 filter with sub-taps h_p[q] = taps_reversed[q*D + p]
// over the sub-sampled stream s_p. The block stages one phase's stream at a time, so
// only kept outputs are computed and the D = 1 core runs unchanged for any D.

#include "../common/device_math.cuh"
#include "../common/history_keep.cuh"
#include <type_traits>
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir_kernels {
namespace blocked {

constexpr int max_threads = 256;
constexpr int sub_tap_chunk = 256; // sub-taps of one phase staged per pass

/*!
 * Loads a thread issues in a round of staging before its first store to shared
 * memory (stage_span here, stage_group in the deinterleaved kernel), so that several
 * device-memory latencies overlap. A block stages R samples a thread of its tile plus
 * a few of one chunk of sub-taps: 9 loads a round give those few the spare loads of
 * the last round, where 8 gave them a round trip of their own (16 taps at R = 8 and
 * 128 threads: 1040 samples, 16 of them in a second round; ccc 16 taps 144-148 ->
 * 158-160 GS/s on an H100). R + 1 would make real samples through real taps (R = 16)
 * one round too, but 17 loads cost registers and a block a multiprocessor (fff, 256
 * taps: 77 -> 74 GS/s).
 */
constexpr int loads_per_round = 9;

/*!
 * Outputs per thread. With one new sample and R/4..R/2 broadcast tap loads per R*R
 * (complex: 2R*R) FMAs, R = 8 makes the FMA pipe, not shared memory, the limit:
 * complex x, real taps: per 8 taps a warp issues 8 LDS.64 (2 shared cycles each) + 2
 * LDS.128 broadcasts (1 cycle each) = 18 shared cycles against 128 FMA instructions
 * (32 issue cycles on an SM's 4 schedulers). Real x, real taps does half the FMAs per
 * load, so it takes R = 16. R stays a power of two so that m / R is a shift.
 */
template <class In, class Tap>
constexpr int outputs_per_thread()
{
    return std::is_same_v<compute_t<In>, float> && std::is_same_v<Tap, float> ? 16 : 8;
}

/*!
 * Shared layout of staged samples: logical index m lives at m + m/R, one pad slot after
 * every group of R samples. Thread t's window starts at group t, so in any one load
 * instruction thread t reads physical (t + g)*(R+1) + i (g, i the same for the warp):
 * a word stride of (R+1) for 4-byte samples, 2(R+1) for 8-byte samples. R is even,
 * so R+1 is odd:
 *  - float: 32 threads at stride 9 or 17 words hit 32 distinct banks (gcd(R+1,32)=1).
 *  - float2: an LDS.64 is served per half-warp; 16 threads at stride 2(R+1) words
 *    (gcd = 2) start on 16 distinct even banks and each covers banks b, b+1: all 32
 *    banks once. E.g. R = 8: 18t mod 32 = 0,18,4,22,8,26,12,30,16,2,20,6,24,10,28,14.
 * Without the pad (stride R) 8 or 16 threads would share a bank.
 */
template <int R>
__host__ __device__ constexpr int padded(int m)
{
    return m + static_cast<int>(static_cast<unsigned>(m) / R); // m >= 0: a shift
}

template <class In, class Tap, class Out, int R>
constexpr std::size_t smem_bytes(int threads)
{
    const int tile = threads * R;
    const std::size_t x = padded<R>(tile + sub_tap_chunk) * sizeof(compute_t<In>);
    const std::size_t out = padded<R>(tile) * sizeof(Out); // reuses the same space
    return sub_tap_chunk * sizeof(Tap) + (x > out ? x : out);
}

template <int R, class X>
__device__ __forceinline__ void load_group(X (&w)[R], const X* p)
{
#pragma unroll
    for (int i = 0; i < R; ++i)
        w[i] = p[i];
}

/*!
 * acc[r] += sum_{jj < count} h[jj] * window[jj + r], window = lo then hi: the R taps
 * of one block against the 2R-1 samples R outputs need. Fully unrolled, so window
 * indices are registers. Guarded is for the last, partial block of a chunk (count < R):
 * the samples past the chunk are loaded but never multiplied, so an Inf or NaN there
 * cannot leak into an output whose window does not hold it.
 */
template <bool Guarded, int R, class Out, class X, class Tap>
__device__ __forceinline__ void
mac_block(Out (&acc)[R], const X (&lo)[R], const X (&hi)[R], const Tap (&h)[R], int count)
{
#pragma unroll
    for (int jj = 0; jj < R; ++jj) {
        if (!Guarded || jj < count) {
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const int i = jj + r;
                mac(acc[r], i < R ? lo[i] : hi[i - R], h[jj]);
            }
        }
    }
}

/*!
 * acc[r] += sum_{q < chunk} s_taps[q] * x[t*R + r + q] for this thread t, with xs the
 * physical address of group t (logical t*R). Block b (taps bR..bR+R-1) needs logical
 * samples t*R + bR .. t*R + bR + 2R - 2, i.e. groups t+b (lo) and t+b+1 (hi); the
 * next block's lo is this block's hi. The loop alternates the two arrays so no
 * register is copied. The last group read is t + ceil(chunk/R), logical index
 * < tile + round_up(chunk, R): the span the caller staged.
 */
template <int R, class Out, class X, class Tap>
__device__ __forceinline__ void
accumulate_chunk(Out (&acc)[R], const X* xs, const Tap* s_taps, int chunk)
{
    X lo[R], hi[R];
    // Taps: R from shared memory as float4s (device_math's load_aligned), every thread
    // at the same address (a broadcast). hp starts the 16-byte aligned tap array or a
    // multiple of R taps after it.
    alignas(16) Tap h[R];
    const int full = chunk / R;
    load_group(lo, xs);
    const X* g = xs + (R + 1);
    const Tap* hp = s_taps;
    int b = 0;
    for (; b + 2 <= full; b += 2) {
        load_group(hi, g);
        load_aligned(h, hp);
        mac_block<false>(acc, lo, hi, h, R);
        load_group(lo, g + (R + 1));
        load_aligned(h, hp + R);
        mac_block<false>(acc, hi, lo, h, R);
        g += 2 * (R + 1);
        hp += 2 * R;
    }
    if (b < full) {
        load_group(hi, g);
        load_aligned(h, hp);
        mac_block<false>(acc, lo, hi, h, R);
#pragma unroll
        for (int i = 0; i < R; ++i)
            lo[i] = hi[i];
        g += R + 1;
        hp += R;
    }
    if (chunk % R) {
        load_group(hi, g);
        load_aligned(h, hp);
        mac_block<true>(acc, lo, hi, h, chunk % R);
    }
}

/*!
 * s_x[padded(m)] = v[v0 + m*D] for m < span: one phase's sub-sampled stream, in
 * rounds of loads_per_round loads a thread. A span is the tile plus up to one chunk
 * of sub-taps, so at R = 8 it takes one round trip wherever the chunk has no more
 * sub-taps than the block has threads. When the whole span lies in
 * the caller's input (the usual case) it is read straight from that buffer, without
 * history_then_input's bounds tests. Samples are read 4 or 8 bytes per thread (a
 * warp's reads are coalesced for D = 1); float4 reads of two samples would not help:
 * the pad slots leave every other group's sample pairs only 8-byte aligned.
 */
template <int R, class In, class X, class Read>
__device__ __forceinline__ void stage_span(Read read, int span, X* s_x)
{
    constexpr int batch = loads_per_round;
    const int n = blockDim.x;
    for (int m0 = threadIdx.x; m0 < span; m0 += batch * n) {
        X v[batch];
#pragma unroll
        for (int b = 0; b < batch; ++b)
            v[b] = m0 + b * n < span ? read(m0 + b * n) : zero<X>();
#pragma unroll
        for (int b = 0; b < batch; ++b)
            if (m0 + b * n < span)
                s_x[padded<R>(m0 + b * n)] = v[b];
    }
}

template <int R, class In, class X>
__device__ __forceinline__ void
stage_inputs(const history_then_input<In>& src, long long v0, int D, int span, X* s_x)
{
    if (src.in_input(v0, static_cast<long long>(span - 1) * D + 1)) {
        const In* in = src.from(v0);
        stage_span<R, In>(
            [=](int m) { return to_compute(__ldg(in + static_cast<long long>(m) * D)); },
            span,
            s_x);
    } else {
        stage_span<R, In>(
            [=](int m) { return to_compute(src[v0 + static_cast<long long>(m) * D]); },
            span,
            s_x);
    }
}

/*!
 * A block of blockDim.x threads computes tile = blockDim.x*R consecutive kept outputs
 * k0 .. k0+tile-1; thread t owns k0 + t*R .. k0 + t*R + R-1. For each phase p and
 * each chunk of its sub-taps q in [qc, qc+chunk) it stages
 *   s_taps[i] = taps_reversed[(qc+i)*D + p]          (i < chunk, zeros up to R)
 *   s_x[m]    = v[first + (k0 + qc + m)*D + p]       (m < tile + round_up(chunk, R))
 * so that output k0 + t*R + r gets sum_i s_taps[i] * s_x[t*R + r + i]. Every output
 * adds its taps in the same order (phase, then sub-tap), wherever it falls in a tile,
 * so splitting the input into calls does not change a bit of the result. Outputs are
 * passed through shared memory so that the stores to device memory are coalesced.
 */
template <class In, class Tap, class Out, int R, class Epilogue>
__global__ void __launch_bounds__(max_threads)
    fir_blocked(history_then_input<In> src,
                long long first,
                int decimation,
                const Tap* __restrict__ taps_reversed,
                int ntaps,
                long long noutputs,
                Out* __restrict__ out,
                Epilogue epilogue,
                history_keep<In> keep)
{
    keep.copy();
    using X = compute_t<In>;
    extern __shared__ __align__(16) unsigned char smem[];
    Tap* s_taps = reinterpret_cast<Tap*>(smem);
    X* s_x = reinterpret_cast<X*>(smem + sub_tap_chunk * sizeof(Tap));

    const int D = decimation;
    const int t = threadIdx.x;
    const int tile = blockDim.x * R;
    const long long k0 = static_cast<long long>(blockIdx.x) * tile;

    using Acc = accumulator_t<In, Out>;
    Acc acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        acc[r] = zero<Acc>();

    const int phases = min(D, ntaps);
    for (int p = 0; p < phases; ++p) {
        const int sub_taps = (ntaps - p + D - 1) / D; // q with q*D + p < ntaps
        for (int qc = 0; qc < sub_taps; qc += sub_tap_chunk) {
            const int chunk = min(sub_tap_chunk, sub_taps - qc);
            const int rounded = (chunk + R - 1) / R * R;
            __syncthreads(); // the previous chunk is no longer being read
            for (int i = t; i < rounded; i += blockDim.x)
                s_taps[i] = i < chunk ? taps_reversed[(qc + i) * D + p] : zero<Tap>();
            stage_inputs<R>(src, first + (k0 + qc) * D + p, D, tile + rounded, s_x);
            __syncthreads();
            accumulate_chunk(acc, s_x + t * (R + 1), s_taps, chunk);
        }
    }

    // Through shared memory (same padded layout: conflict-free writes) to coalesce.
    Out* s_out = reinterpret_cast<Out*>(s_x);
    __syncthreads();
#pragma unroll
    for (int r = 0; r < R; ++r)
        s_out[t * (R + 1) + r] = epilogue(to_output<Out>(acc[r]), k0 + t * R + r);
    __syncthreads();
    const int valid = static_cast<int>(min(static_cast<long long>(tile), noutputs - k0));
    for (int i = t; i < valid; i += blockDim.x)
        out[k0 + i] = s_out[padded<R>(i)];
}

} // namespace blocked
} // namespace fir_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
