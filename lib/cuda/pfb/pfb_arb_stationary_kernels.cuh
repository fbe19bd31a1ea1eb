/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_ARB_STATIONARY_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_ARB_STATIONARY_KERNELS_CUH

// The arbitrary resampler's stationary-arm kernel (pfb_arb_resampler_engine): each
// thread keeps one output's arm in registers and reuses it for the outputs L, 2L, ...
// further on, L chosen so that they use (nearly) the same arm.

#include "pfb_arb_kernels.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace arb_kernels {

/*!
 * A stationary launch, made by the host from the closed form (arb_schedule::exact()):
 * a block computes R rounds of L consecutive outputs; one round on moves an output's
 * X = arm * 2^23 + fraction (units of 2^-23 arm) on by dY mod NU and its input by dP
 * (plus one when X wraps), NU = N * 2^23.
 */
struct stationary_rule {
    unsigned N;
    unsigned long long dec;
    unsigned long long F; // flt * 2^23
    unsigned long long NU;
    unsigned long long dY;
    int dP;
    int L; // outputs a round (a multiple of K): threads below L / K store
    int R; // rounds a block (the stationary kernel; the periodic one leaves it 0)
    int T; // taps per arm
};

//! An output's input position and X = arm * 2^23 + fraction, in 32 bits: the host
//! bounds the arms and the offsets from a checkpoint so that phase_from's arm count
//! stays below 2^32 (the periodic kernel: periodic_max_arms and rates of at least 1/4;
//! the stationary one: stationary_phase_fits_32_bits).
struct arb_phase {
    int p;
    unsigned x;
};

__device__ __forceinline__ void advance(arb_phase& s, const stationary_rule& r)
{
    s.x += static_cast<unsigned>(r.dY);
    s.p += r.dP;
    if (s.x >= static_cast<unsigned>(r.NU)) {
        s.x -= static_cast<unsigned>(r.NU);
        ++s.p;
    }
}

//! Output c's index + d, from checkpoint c: closed_form() for any d below 2^20. The
//! arm index J in 32 bits (x, the fraction's sum, in 64).
__device__ __forceinline__ arb_phase phase_from(const arb_checkpoint& c,
                                                unsigned d,
                                                const stationary_rule& r)
{
    constexpr float unit = 1.0f / (1u << arb_fraction_bits);
    constexpr unsigned mask = (1u << arb_fraction_bits) - 1;
    const unsigned long long x =
        __float2ull_rn(c.acc / unit) + static_cast<unsigned long long>(d) * r.F;
    const unsigned J = c.filter + d * static_cast<unsigned>(r.dec) +
                       static_cast<unsigned>(x >> arb_fraction_bits);
    const unsigned N = r.N;
    return { c.pos + static_cast<int>(J / N),
             ((J % N) << arb_fraction_bits) | (static_cast<unsigned>(x) & mask) };
}

//! Samples a stationary block stages for `span` inputs: 16/sizeof(S) copies, each
//! shifted by one more sample and rounded up to whole 16-byte loads (the kernel's
//! note). In 64 bits for the host, whose spans may not fit a block.
template <class S>
__host__ __device__ constexpr long long stationary_copy_length(long long span)
{
    return (span + per16<S>() - 1) / per16<S>() * per16<S>();
}

/*!
 * Two rounds of one thread's output with the same taps (h, dh): round p reads the
 * samples before q[p] from base[p], as the one-round walk does, with its own
 * fraction a[p]. The taps are loaded once for both and the rounds' loads and fma are
 * independent, so a warp has twice the work in flight between waits; two chains of
 * fma a round keep the accumulators at the one-round walk's eight registers.
 */
template <class S, int W>
__device__ __forceinline__ void walk_two_rounds(const float (&h)[W],
                                                const float (&dh)[W],
                                                const S* const (&base)[2],
                                                const int (&q)[2],
                                                const float (&a)[2],
                                                S (&y)[2])
{
    constexpr int C = per16<S>();
    S part[2][2];
#pragma unroll
    for (int p = 0; p < 2; ++p)
        part[p][0] = part[p][1] = zero<S>();
#pragma unroll
    for (int u0 = 0; u0 < W; u0 += C) {
        S v[2][C];
#pragma unroll
        for (int p = 0; p < 2; ++p)
            load_aligned<C>(v[p], base[p] + (q[p] - u0 - C + 1));
#pragma unroll
        for (int s = 0; s < C; ++s) {
            const int u = u0 + C - 1 - s;
#pragma unroll
            for (int p = 0; p < 2; ++p)
                mac(part[p][u & 1], v[p][s], fmaf(a[p], dh[u], h[u]));
        }
    }
#pragma unroll
    for (int p = 0; p < 2; ++p)
        y[p] = add(part[p][0], part[p][1]);
}

/*!
 * y_k as resample() computes it, for the launch's outputs k < count; the block's
 * outputs are k = k_b + r*L + K*t + i for round r < R, i < K and K*t + i < L (the
 * threads past L compute the next round's first outputs, and do not store them).
 * K = 2 consecutive outputs a thread add each loaded sample into both (their taps
 * shifted as a group's, below): half the sample loads, twice the tap registers.
 *
 * - Taps in registers: L*D is (nearly) a whole number of inputs, so thread t's output
 *   keeps its arm from round to round; its (h, dh) pairs stay in registers and are
 *   reloaded only when the arm (or the group's spread, below) changes. The per-tap
 *   loads are then the samples only, where the other kernels load a tap pair too.
 * - Groups of GS consecutive threads read the same sample each step (a broadcast):
 *   each thread's taps are shifted by o = (the group's newest input) - (its own), so
 *   that step u reads input (newest - u) for all of them, with tap u - o (zero outside
 *   [0, T)). With GS = 1 a warp's 32 outputs read 32 samples a step, 32 / rate inputs
 *   apart at most; groups trade that for the longer walk.
 * - W steps, a compile-time count >= T + omax, omax the most a group's newest input
 *   is ahead of one of its outputs (the host rounds up; the steps past T + omax have
 *   zero taps): the walk is unrolled with no per-step test, a step being one
 *   shared-memory load and, per output, the tap (one fma) and the product.
 *   Each output's sum runs in four parts (steps u mod 4): four chains of dependent
 *   fma instead of one, so that a thread's steps rarely wait for the one before
 *   (real samples ran 3-6% faster than with two chains on an H100, complex ones the
 *   same; docs/benchmarks.md).
 * - Inputs: the block's span for all its rounds is staged once (from W - 1 before its
 *   first output's input), then the rounds run with no barrier (a round's work is
 *   short: a barrier a round waited on device memory every round). The host picks R
 *   so that the span fits.
 * - 16-byte loads: the walk reads C = 16 / sizeof(S) consecutive samples at once (C
 *   steps, one load instead of C). A thread's samples start anywhere, so the span is
 *   staged C times, copy c shifted by c samples: whatever the start, one copy has the
 *   C samples on a 16-byte boundary. Copy 0 is the span as it is.
 * - A block whose tile holds a sample that is not finite sums each output over its
 *   own T taps (the zero taps would turn others' outputs into NaN).
 */
template <class S, int W, int GS, int K>
__device__ __forceinline__ void stationary_walk(history_then_input<S> src,
                                                const float2* __restrict__ arms,
                                                const arb_checkpoint* __restrict__ cps,
                                                stationary_rule r,
                                                long long count,
                                                S* __restrict__ out)
{
    static_assert(GS == 1 || GS == 4 || GS == 8, "groups of 1, 4 or 8");
    static_assert(K == 1 || K == 2, "1 or 2 outputs a thread a round");
    constexpr int C = per16<S>();
    static_assert(W % C == 0 && W % 4 == 0,
                  "whole 16-byte loads of samples, four chains");
    constexpr float unit = 1.0f / (1u << arb_fraction_bits);
    constexpr unsigned mask = (1u << arb_fraction_bits) - 1;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    S* tile = reinterpret_cast<S*>(smem_raw);

    const int t = threadIdx.x;
    const long long kb = static_cast<long long>(blockIdx.x) * r.L * r.R;
    // Every phase from the block's checkpoint: it is written (kb < count).
    const long long ci = kb / arb_exact_stride;
    const arb_checkpoint c = cps[ci];
    const auto d0 = static_cast<unsigned>(kb - ci * arb_exact_stride);
    arb_phase own[K];
#pragma unroll
    for (int i = 0; i < K; ++i)
        own[i] = phase_from(c, d0 + K * t + i, r);
    // The block's outputs, k = kb + e for e < n_out: at most R * L, within an int.
    const int n_out =
        static_cast<int>(min(static_cast<long long>(r.R) * r.L, count - kb));
    const int rounds = (n_out + r.L - 1) / r.L;
    S* const block_out = out + kb;
    // The block's first input and its last round's last: the tile's span.
    const int lo = phase_from(c, d0, r).p - (W - 1);
    const int hi =
        phase_from(
            c, d0 + static_cast<unsigned>(rounds - 1) * r.L + K * blockDim.x - 1, r)
            .p;
    // Copy c holds input lo + e + c at e: tile[c * copy_len + e].
    const int span = hi - lo + 1;
    const int copy_len = static_cast<int>(stationary_copy_length<S>(span));
    // Eight loads in flight a thread: a block stages its span at the start, with
    // nothing else to hide device memory's latency behind.
    constexpr int in_flight = 8;
    bool not_finite = false;
    for (int e0 = t; e0 < span; e0 += in_flight * blockDim.x) {
        S v[in_flight];
#pragma unroll
        for (int f = 0; f < in_flight; ++f) {
            const int e = e0 + f * blockDim.x;
            v[f] = e < span ? src[src.history_len + lo + e] : zero<S>();
        }
#pragma unroll
        for (int f = 0; f < in_flight; ++f) {
            const int e = e0 + f * blockDim.x;
            if (e < span) {
#pragma unroll
                for (int c = 0; c < C; ++c)
                    if (e >= c)
                        tile[c * copy_len + e - c] = v[f];
                not_finite |= !is_finite(v[f]);
            }
        }
    }
    const bool exact_windows = __syncthreads_or(not_finite);

    float h[K][W], dh[K][W];
    unsigned jc[K];
    int oc[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
        jc[i] = ~0u;
        oc[i] = -1;
    }
    // Output e = round * L + K * t + i goes to o[i], while e_left[i] = n_out - e > 0.
    S* o[K];
    int e_left[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
        o[i] = block_out + (K * t + i);
        e_left[i] = n_out - (K * t + i);
    }
    // Output e: stored where it belongs to the launch, then the thread's next round.
    const auto finish = [&](int i, const S& value) {
        if (K * t + i < r.L && e_left[i] > 0)
            *o[i] = value;
        o[i] += r.L;
        e_left[i] -= r.L;
        advance(own[i], r);
    };
    // The group's newest input, from each thread's last output's input p: its last
    // thread's.
    const auto group_newest = [&](int p) {
        return GS > 1 ? __shfl_sync(0xffffffffu, p, (t & 31) | (GS - 1)) : p;
    };
    // Steps u0 .. u0 + C - 1 read inputs q - u0 - C + 1 .. q - u0 of the span, from
    // copy (q + 1) mod C, where they start on a 16-byte boundary.
    const auto copy_base = [&](int q) {
        const int copy = (q + 1) & (C - 1);
        return tile + copy * copy_len - copy;
    };
    const auto fraction = [](unsigned x) {
        return static_cast<float>(static_cast<unsigned>(x & mask)) * unit;
    };
    for (int round = 0; round < rounds; ++round) {
        const int newest = group_newest(own[K - 1].p);
        const int q = newest - lo;
        const S* base = copy_base(q);
        unsigned j[K];
        float a[K];
        S y[K];
#pragma unroll
        for (int i = 0; i < K; ++i) {
            j[i] = static_cast<unsigned>(own[i].x >> arb_fraction_bits);
            a[i] = fraction(own[i].x);
        }
        if (!exact_windows) {
#pragma unroll
            for (int i = 0; i < K; ++i) {
                const int o = newest - own[i].p;
                if (j[i] != jc[i] || o != oc[i]) {
                    jc[i] = j[i];
                    oc[i] = o;
                    // Tap u - o, zero outside [0, T): the rows of zeros around
                    // the arms (at least W before and after) make it a plain load.
                    const int N = static_cast<int>(r.N);
                    const float2* arm = arms + (static_cast<int>(j[i]) - o * N);
#pragma unroll
                    for (int u = 0; u < W; ++u) {
                        const float2 hd = __ldg(arm + u * N);
                        h[i][u] = hd.x;
                        dh[i][u] = hd.y;
                    }
                }
            }
            if constexpr (K == 1 && sizeof(S) == sizeof(float)) {
                // Real samples: the next round too, where every thread of the warp
                // keeps its taps for it (the usual case: the arms drift slowly from
                // round to round). Complex samples stay one round at a time: in their
                // 96 registers two rounds left no room to load samples ahead of their
                // use, and ran 6-8% slower (docs/kernels.md).
                if (round + 1 < rounds) {
                    arb_phase next = own[0];
                    advance(next, r);
                    const int newest2 = group_newest(next.p);
                    const unsigned j2 =
                        static_cast<unsigned>(next.x >> arb_fraction_bits);
                    if (__all_sync(0xffffffffu,
                                   j2 == jc[0] && newest2 - next.p == oc[0])) {
                        const int q2 = newest2 - lo;
                        const S* const bases[2] = { base, copy_base(q2) };
                        const int qs[2] = { q, q2 };
                        const float as[2] = { a[0], fraction(next.x) };
                        S ys[2];
                        walk_two_rounds<S, W>(h[0], dh[0], bases, qs, as, ys);
                        finish(0, ys[0]);
                        finish(0, ys[1]);
                        ++round;
                        continue;
                    }
                }
            }
            S part[K][4];
#pragma unroll
            for (int i = 0; i < K; ++i)
                part[i][0] = part[i][1] = part[i][2] = part[i][3] = zero<S>();
#pragma unroll
            for (int u0 = 0; u0 < W; u0 += C) {
                S v[C];
                load_aligned<C>(v, base + (q - u0 - C + 1));
#pragma unroll
                for (int s = 0; s < C; ++s) {
                    const int u = u0 + C - 1 - s;
#pragma unroll
                    for (int i = 0; i < K; ++i)
                        mac(part[i][u & 3], v[s], fmaf(a[i], dh[i][u], h[i][u]));
                }
            }
#pragma unroll
            for (int i = 0; i < K; ++i)
                y[i] = add(add(part[i][0], part[i][1]), add(part[i][2], part[i][3]));
        } else {
#pragma unroll
            for (int i = 0; i < K; ++i) {
                const float2* arm = arms + j[i];
                const S* x = tile + (own[i].p - lo);
                y[i] = own_taps_sum<S>(
                    r.T,
                    a[i],
                    [&](int m) { return __ldg(arm + m * static_cast<int>(r.N)); },
                    [&](int m) { return x[-m]; });
            }
        }
#pragma unroll
        for (int i = 0; i < K; ++i)
            finish(i, y[i]);
    }
}

//! The stationary kernel (stationary_walk), in the registers ptxas picks.
template <class S, int W, int GS, int K>
__global__ void __launch_bounds__(threads)
    resample_stationary(history_then_input<S> src,
                        const float2* __restrict__ arms,
                        const arb_checkpoint* __restrict__ cps,
                        stationary_rule r,
                        long long count,
                        S* __restrict__ out)
{
    stationary_walk<S, W, GS, K>(src, arms, cps, r, count, out);
}

/*!
 * resample_stationary in at most 96 registers a thread, where ptxas would take 98-102
 * (complex samples, one output a thread, 28 or 32 steps): an H100 scheduler then holds
 * five warps instead of four, so the registers allow six blocks of 96 threads a
 * multiprocessor instead of five. Complex samples at rate 2.3421 ran about 6% faster.
 * Real samples keep ptxas's choice: with the same limit they ran 2-3% slower
 * (docs/benchmarks.md).
 */
template <class S, int W, int GS>
__global__ void __maxnreg__(96)
    resample_stationary_96(history_then_input<S> src,
                           const float2* __restrict__ arms,
                           const arb_checkpoint* __restrict__ cps,
                           stationary_rule r,
                           long long count,
                           S* __restrict__ out)
{
    stationary_walk<S, W, GS, 1>(src, arms, cps, r, count, out);
}

} // namespace arb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
