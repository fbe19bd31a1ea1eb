/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_ARB_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_ARB_KERNELS_CUH

// Device code of the arbitrary resampler (pfb_arb_resampler_engine): each output's
// (input, arm, fraction) replayed from the host's checkpoints with gr-filter's float
// steps, then the filter and derivative arms on the input; one output per thread
// (resample) or K consecutive ones sharing their inputs (resample_window). The
// stationary-arm kernel is in pfb_arb_stationary_kernels.cuh.

#include "../common/device_math.cuh"
#include "arb_schedule.h"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace arb_kernels {

constexpr int threads = 256;
//! Staged input samples per block, at most: above it, a block reads device memory.
constexpr int max_staged = 4096;

//! The stride dec split as dq whole inputs and dr arms, with N and flt; dec and
//! F = flt * 2^23 for the closed form.
struct step_rule {
    unsigned N;
    unsigned dq;
    unsigned dr;
    float flt;
    unsigned long long dec;
    unsigned long long F;
};

/*!
 * One of gr-filter's steps, from an output to the next: acc += flt; a carry when acc
 * >= 1, then acc -= 1, which is fmodf(acc, 1) of acc in [0, 2) exactly; arm += dr +
 * carry; position += dq, and one more when the arm wraps. The same float operations
 * in the same order as the host (arb_schedule.cc), so the fraction is bit for bit
 * gr-filter's d_acc. On the 2^-23 grid (closed_form) no step rounds, so stepping on
 * from a closed-form output gives the closed form's next output.
 */
__device__ __forceinline__ void step(step_rule r, int& p, unsigned& j, float& a)
{
    a = __fadd_rn(a, r.flt); // never contracted
    const bool carry = a >= 1.0f;
    if (carry)
        a = __fadd_rn(a, -1.0f);
    j += r.dr + (carry ? 1u : 0u);
    p += static_cast<int>(r.dq);
    if (j >= r.N) {
        j -= r.N;
        ++p;
    }
}

//! Output k of the launch: checkpoint k / stride, then k % stride steps.
__device__ __forceinline__ void
replay(const arb_checkpoint* cps, long long k, step_rule r, int& p, unsigned& j, float& a)
{
    const arb_checkpoint c = cps[k / arb_checkpoint_stride];
    p = c.pos;
    j = c.filter;
    a = c.acc;
    const int steps = static_cast<int>(k % arb_checkpoint_stride);
    for (int s = 0; s < steps; ++s)
        step(r, p, j, a);
}

/*!
 * Output k of the launch when the accumulator is on the 2^-23 grid
 * (arb_schedule::exact()): from its block's checkpoint (output k - d, d < 256) in
 * closed form, integers only. The fraction is the same float gr-filter's steps give.
 */
__device__ __forceinline__ void closed_form(
    const arb_checkpoint* cps, long long k, step_rule r, int& p, unsigned& j, float& a)
{
    constexpr float unit = 1.0f / (1u << arb_fraction_bits);
    const arb_checkpoint c = cps[k / arb_exact_stride];
    const unsigned long long d = static_cast<unsigned long long>(k % arb_exact_stride);
    // c.acc * 2^23 is a whole number below 2^23: exact in float and as an integer.
    const unsigned long long x = __float2ull_rn(c.acc / unit) + d * r.F;
    const unsigned long long J = c.filter + d * r.dec + (x >> arb_fraction_bits);
    p = c.pos + static_cast<int>(J / r.N);
    j = static_cast<unsigned>(J % r.N);
    a = static_cast<float>(static_cast<unsigned>(x & ((1u << arb_fraction_bits) - 1))) *
        unit;
}

/*!
 * y_k = sum_m h_j[m] x[p - m] + a * sum_m dh_j[m] x[p - m], m < T, for the launch's
 * outputs k < count. x[p] is src[history_len + p] ([history | input], p counted from
 * the call's first new sample). arms[m*N + j] = (h_j[m], dh_j[m]). Staged: the block's
 * input span (at most max_staged samples, the host checks) is read once, coalesced,
 * into shared memory; otherwise each thread reads device memory (very low rates).
 */
template <class S, bool Staged, bool Exact>
__global__ void __launch_bounds__(threads)
    resample(history_then_input<S> src,
             int T,
             const float2* __restrict__ arms,
             const arb_checkpoint* __restrict__ cps,
             step_rule rule,
             long long count,
             S* __restrict__ out)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    S* tile = reinterpret_cast<S*>(smem_raw);
    __shared__ int s_first, s_last;

    const long long k0 = static_cast<long long>(blockIdx.x) * threads;
    const long long k = k0 + threadIdx.x;
    const bool valid = k < count;
    int p = 0;
    unsigned j = 0;
    float a = 0.0f;
    if (valid) {
        if (Exact)
            closed_form(cps, k, rule, p, j, a);
        else
            replay(cps, k, rule, p, j, a);
    }

    const long long h = src.history_len;
    if (Staged) {
        const long long last = min(count, k0 + threads) - 1;
        if (threadIdx.x == 0)
            s_first = p;
        if (k == last)
            s_last = p;
        __syncthreads();
        const long long lo = h + s_first - (T - 1);
        const int span = s_last - s_first + T;
        for (int e = threadIdx.x; e < span; e += threads)
            tile[e] = src[lo + e];
        __syncthreads();
    }
    if (!valid)
        return;

    S o0 = zero<S>();
    S o1 = zero<S>();
    const float2* arm = arms + j; // tap m at arm[m * N]
    const int N = static_cast<int>(rule.N);
    if (Staged) {
        const S* x = tile + (p - s_first) + (T - 1); // x[-m] is input p - m
        for (int m = 0; m < T; ++m) {
            const float2 hd = __ldg(arm + m * N);
            const S v = x[-m];
            mac(o0, v, hd.x);
            mac(o1, v, hd.y);
        }
    } else {
        const long long v0 = h + p;
        for (int m = 0; m < T; ++m) {
            const float2 hd = __ldg(arm + m * N);
            const S v = src[v0 - m];
            mac(o0, v, hd.x);
            mac(o1, v, hd.y);
        }
    }
    mac(o0, o1, a); // o0 + o1 * acc, gr-filter's linear interpolation
    out[k] = o0;
}

/*!
 * One output over its own T taps only, sum_m (h[m] + a dh[m]) x[-m], where a joint walk
 * cannot serve (samples that are not finite; see the window, stationary and periodic
 * kernels): tap(m) gives the arm's (h, dh) pair m, sample(m) input p - m.
 */
template <class S, class Tap, class Sample>
__device__ __forceinline__ S own_taps_sum(int T, float a, Tap tap, Sample sample)
{
    S y = zero<S>();
    for (int m = 0; m < T; ++m) {
        const float2 hd = tap(m);
        mac(y, sample(m), fmaf(a, hd.y, hd.x));
    }
    return y;
}

/*!
 * Index of tile element e with one spare slot after every 128 bytes of samples (16
 * complex or 32 real): the window kernel's threads read the tile at a stride of about
 * K/rate samples, which without the spare slots often falls on a few banks (rate 0.75,
 * K = 4: 16/3 complex samples, every third thread on one bank).
 */
template <class S>
__host__ __device__ constexpr int tile_slot(int e)
{
    return e + (e >> (sizeof(S) == 8 ? 4 : 5));
}

/*!
 * The window kernel: the same outputs as resample(), each thread K consecutive ones
 * (K = 2, 4 or 8), so that the loads per multiply-add fall from two to about 1 + 1/K:
 *
 * - Consecutive outputs' windows overlap almost entirely (their positions differ by dq
 *   or dq + 1 inputs), so the thread walks its K outputs' joint window once, newest
 *   input first, loads each input sample once and adds it into all K outputs.
 *   Output i (position p_i, e_i = p_{K-1} - p_i behind the thread's newest) takes
 *   input p_{K-1} - u with tap m = u - e_i. Taps outside [0, T) are zeros in the arm
 *   table, so the loop has no branch; its T + E steps (E >= every e_i: the host's
 *   bound, reach() in the engine) are the same for every thread of the launch.
 * - The arms are copied into shared memory once per block, tap-major as in device
 *   memory (arms[m*N + j]) with E rows of zero taps before and after: a tap is a
 *   shared-memory load, no L1 tag lookup, and the lanes of a warp that read one row
 *   (N = 32: 256 bytes) meet on a bank only for arms j and j + 16, whatever their
 *   rows. (Arm by arm, with a row stride of T + 2E, their rows would scatter them
 *   too: a bank model of the benchmark's rate 2.3421 counts 20% more conflicts.)
 *   NT = 32 makes the row stride a constant (the default filter_size): a thread's
 *   next taps are then at fixed offsets, no address arithmetic in the unrolled loop.
 * - Each output's two sums become one: sum_m (h_j[m] + a dh_j[m]) x[p - m], the tap
 *   formed with one fma per output and input: the same value as sum h x + a sum dh x
 *   up to float rounding, with 3 fma per complex tap instead of 4 and half the
 *   accumulators.
 *
 * Inputs: the block's span (the host bounds it) is read once, coalesced, into a tile
 * (tile_slot), E more samples at its old end for the threads whose outputs are closer
 * than E. Outputs: a thread's K outputs are consecutive, so warp stores straight from
 * registers would be K-way strided; they go through shared memory instead (after the
 * tile is no longer needed) and leave as coalesced stores of the block's 256*K
 * consecutive outputs. Interleaving (thread t takes outputs t, t + 256, ...) would
 * keep the stores coalesced but spread a thread's outputs 256/rate inputs apart, with
 * no input left to share.
 *
 * The host uses it where the tile, the arms and the outputs fit in shared memory;
 * elsewhere (very low rates, very long arms) it launches resample().
 *
 * Samples that are not finite: the joint walk would multiply them by the zero taps of
 * outputs whose windows do not hold them (0 * NaN = NaN), marking outputs gr-filter
 * leaves as numbers. A block whose tile holds such a sample (one vote while staging)
 * therefore sums each output over its own T taps only, from the same tile and arms.
 */
template <class S, int K, int NT, bool Exact>
__global__ void __launch_bounds__(threads)
    resample_window(history_then_input<S> src,
                    int T,
                    int E,
                    const float2* __restrict__ arms,
                    const arb_checkpoint* __restrict__ cps,
                    step_rule rule,
                    long long count,
                    S* __restrict__ out)
{
    static_assert(K == 2 || K == 4 || K == 8, "2, 4 or 8 outputs per thread");
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ int s_first, s_last;
    const int N = NT ? NT : static_cast<int>(rule.N);
    float2* s_arms = reinterpret_cast<float2*>(smem_raw); // [(m + E)*N + j]
    S* tile = reinterpret_cast<S*>(s_arms + (T + 2 * E) * N);

    for (int e = threadIdx.x; e < (T + 2 * E) * N; e += threads) {
        const int g = e - E * N; // arms[g], when its tap g / N is in [0, T)
        s_arms[e] = g >= 0 && g < T * N ? __ldg(arms + g) : make_float2(0.0f, 0.0f);
    }

    constexpr int per_block = threads * K;
    const long long k0 = static_cast<long long>(blockIdx.x) * per_block;
    const long long k = k0 + static_cast<long long>(threadIdx.x) * K;
    const int valid =
        k < count ? static_cast<int>(min(static_cast<long long>(K), count - k)) : 0;
    // Past the call's last output a thread repeats it: positions stay in the tile.
    int p[K];
    unsigned j[K];
    float a[K];
    if (valid) {
        if (Exact)
            closed_form(cps, k, rule, p[0], j[0], a[0]);
        else
            replay(cps, k, rule, p[0], j[0], a[0]);
#pragma unroll
        for (int i = 1; i < K; ++i) {
            p[i] = p[i - 1];
            j[i] = j[i - 1];
            a[i] = a[i - 1];
            if (i < valid)
                step(rule, p[i], j[i], a[i]);
        }
        if (threadIdx.x == 0)
            s_first = p[0];
        if (k + K >= min(count, k0 + per_block)) // the thread of the block's last output
            s_last = p[K - 1];
    }
    __syncthreads();
    const int first = s_first;
    const long long lo = src.history_len + first - (T - 1) - E;
    const int span = s_last - first + T + E;
    bool not_finite = false;
    for (int e = threadIdx.x; e < span; e += threads) {
        const S v = src[lo + e];
        tile[tile_slot<S>(e)] = v;
        not_finite |= !is_finite(v);
    }
    const bool exact_windows = __syncthreads_or(not_finite);

    S y[K];
    if (valid && exact_windows) {
        const int newest = p[K - 1] - first + (T - 1) + E;
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const int e_i = p[K - 1] - p[i]; // output i's taps are u = e_i + m, m < T
            const float2* arm = s_arms + E * N + static_cast<int>(j[i]);
            y[i] = own_taps_sum<S>(
                T,
                a[i],
                [&](int m) { return arm[m * N]; },
                [&](int m) { return tile[tile_slot<S>(newest - e_i - m)]; });
        }
    } else if (valid) {
        const int newest = p[K - 1] - first + (T - 1) + E; // tile index of p_{K-1}
        const float2* arm[K];                              // arm[i][u*N]: tap u - e_i
#pragma unroll
        for (int i = 0; i < K; ++i) {
            arm[i] = s_arms + (E - (p[K - 1] - p[i])) * N + static_cast<int>(j[i]);
            y[i] = zero<S>();
        }
#pragma unroll 4
        for (int u = 0; u < T + E; ++u) {
            const S v = tile[tile_slot<S>(newest - u)];
#pragma unroll
            for (int i = 0; i < K; ++i) {
                const float2 hd = arm[i][u * N];
                mac(y[i], v, fmaf(a[i], hd.y, hd.x)); // (h + a dh) x
            }
        }
    }
    __syncthreads(); // the tile and the arms are read: the outputs go where they were
    S* staged_out = reinterpret_cast<S*>(smem_raw);
    if (valid) {
#pragma unroll
        for (int i = 0; i < K; ++i)
            staged_out[threadIdx.x * K + i] = y[i];
    }
    __syncthreads();
    const int n_out =
        static_cast<int>(min(static_cast<long long>(per_block), count - k0));
    for (int e = threadIdx.x; e < n_out; e += threads)
        out[k0 + e] = staged_out[e];
}

} // namespace arb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
