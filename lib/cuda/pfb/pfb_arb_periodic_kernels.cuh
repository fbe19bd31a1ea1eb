/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_ARB_PERIODIC_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_ARB_PERIODIC_KERNELS_CUH

// The arbitrary resampler's kernel for rates with a short period
// (pfb_arb_resampler_engine): L outputs take P inputs and come back to (nearly) the
// same arms, as at rate 3/4 (L = 3, P = 4), 1/2 (L = 1, P = 2) or 2 (L = 2, P = 1).
// Each thread computes M outputs L apart, all through one arm: the arm's taps stay in
// registers and the inputs slide through registers, P new samples an output, so an
// output costs its multiply-adds and few loads (the window kernel loads a tap pair
// from shared memory for each multiply-add).

#include "../common/history_keep.cuh"
#include "pfb_arb_stationary_kernels.cuh"
#include <cuda_pipeline.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace arb_kernels {

//! Outputs a thread computes, L apart.
constexpr int periodic_outputs = arb_periodic_outputs;
//! The longest period, in outputs: a block has one warp for each class of outputs
//! (those of one index mod L), L warps in all.
constexpr int periodic_max_period = 8;
//! The most arms: an output's place X = arm * 2^23 + fraction stays below 2^31, and
//! the closed form's sums in 32 bits (arb_phase).
constexpr unsigned periodic_max_arms = 256;

//! Input samples in one class's tile: its 32 threads' windows, M*P apart, each W wide,
//! with one spare sample at each end for a window moved by one input (below).
__host__ __device__ constexpr int periodic_class_length(int MP, int W)
{
    return 32 * MP + W + 2;
}

//! A class tile's shared-memory slot of element e: one spare slot after every M*P
//! samples, so that the threads of a warp, M*P samples apart, read different banks.
template <int MP>
__host__ __device__ constexpr int periodic_slot(int e)
{
    return e + e / MP;
}

//! Slots of one class tile.
template <int MP>
__host__ __device__ constexpr int periodic_class_slots(int W)
{
    return periodic_slot<MP>(periodic_class_length(MP, W) - 1) + 1;
}

//! r + x * 0: r stays 0 while every x is finite, and is NaN from a NaN or an
//! infinity on (one fma a number, where isfinite takes a test and a branch).
__device__ __forceinline__ float finite_residue(float x, float r)
{
    return __fmaf_rn(x, 0.0f, r);
}
__device__ __forceinline__ float finite_residue(float2 x, float r)
{
    return __fmaf_rn(x.y, 0.0f, __fmaf_rn(x.x, 0.0f, r));
}

//! Slots of the staged outputs, after the L class tiles: L * M rows of 32 outputs,
//! 33 slots apart (see the kernel's end).
__host__ __device__ constexpr int periodic_output_slots(int L)
{
    return L * periodic_outputs * 33;
}

/*!
 * y_k as resample() computes it, for the launch's outputs k < count, at a rate whose
 * L outputs take P inputs and move an arm by at most a small drift (the host's rule
 * r: r.L = L, r.dY the drift, r.dP and the wrap as in advance()). Block b's outputs
 * are k = b * 32 * L * M + c + L * (M * i + m): warp c (the class), lane i, output
 * m < M.
 *
 * - Tiles: each class c (warp c) stages its own copy of the block's inputs, from W
 *   before its first output's input, with periodic_slot's spare slots. Lane i's
 *   outputs then sit at tile elements i*M*P + 1 + (W - 1) + m*P, and the window
 *   element r (input p_0 - (W - 1) + r) at a slot i*(M*P + 1) plus a compile-time
 *   offset: no address arithmetic in the unrolled walk. The copies go from device
 *   memory straight to shared memory (cp.async): a lane issues all of its loads at
 *   once, holding no registers for them, and a warp waits only for its own tile.
 * - Registers: the arm's W (h, dh) pairs (zero past T: the padding rows of the arm
 *   table), and the window, loaded as the walk reaches it; output m takes taps u < W
 *   on window elements W - 1 + m*P - u, each tap h + a dh formed with one fma (as in
 *   resample_window), in four chains.
 * - A thread whose outputs do not all keep its first output's arm and the P stride
 *   (the drift carried the fraction over an arm's edge: rare, the host bounds the
 *   drift so that it happens at most once a class a block), a thread with outputs past
 *   `count`, and a thread whose walk gave an output that is not finite sum each
 *   output over its own T taps instead, from the same tile. The last keeps gr-filter's
 *   outputs where a sample is not finite: the walk multiplies every window sample,
 *   those past T taps by zero taps (an infinity times zero is NaN), so one such
 *   sample anywhere in the window makes an output of the walk NaN or infinite.
 * - Outputs leave through shared memory, class-major there (no bank conflicts either
 *   way), as coalesced stores of the block's range: the one barrier of the block.
 * - The grid's threads also copy the next call's history (`keep`).
 */
template <class S, int W, int P>
__global__ void __launch_bounds__(32 * periodic_max_period)
    resample_periodic(history_then_input<S> src,
                      const float2* __restrict__ arms,
                      const arb_checkpoint* __restrict__ cps,
                      stationary_rule r,
                      long long count,
                      S* __restrict__ out,
                      history_keep<S> keep)
{
    keep.copy(); // the next call's history (history_keep.cuh): no launch of its own
    constexpr int M = periodic_outputs;
    constexpr int MP = M * P;
    constexpr int len = periodic_class_length(MP, W);
    constexpr int slots = periodic_class_slots<MP>(W);
    static_assert(W % 4 == 0, "four chains");
    static_assert(sizeof(S) == 4 || sizeof(S) == 8, "cp.async copies of one sample");
    constexpr float unit = 1.0f / (1u << arb_fraction_bits);
    constexpr unsigned mask = (1u << arb_fraction_bits) - 1;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    S* tile = reinterpret_cast<S*>(smem_raw);

    const int L = r.L;
    const int t = threadIdx.x;
    const int c = t / 32, i = t % 32;
    const int per_block = 32 * L * M;
    const long long kb = static_cast<long long>(blockIdx.x) * per_block;
    const int n_out =
        static_cast<int>(min(static_cast<long long>(per_block), count - kb));
    const long long ci = kb / arb_exact_stride;
    const arb_checkpoint cp = cps[ci];
    const auto d0 = static_cast<unsigned>(kb - ci * arb_exact_stride);
    const int own_first = c + L * M * i; // the block's output of (m = 0)
    arb_phase own[M];
    own[0] = phase_from(cp, d0 + own_first, r);

    // Warp c stages its class's tile, from W before its lane 0's first output (the
    // class's first): a compile-time number of copies a lane; past the call's inputs
    // (and before the history) the samples are zeros. The copies are issued first,
    // and the other outputs' phases and the arm's taps loaded while they land.
    const int start = __shfl_sync(0xffffffffu, own[0].p, 0) - W;
    S* own_tile = tile + c * slots;
    const long long v0 = src.history_len + start;
    constexpr int per_lane = (len + 31) / 32;
    if (src.in_input(v0, len)) {
        // Lane i's k-th sample: element i + 32k, at a compile-time offset from the
        // lane's first where M*P divides 32 (P = 1, 2 or 4).
        const S* in = src.from(v0) + i;
        constexpr bool whole = 32 % MP == 0;
        S* lane_tile = own_tile + (whole ? i + i / MP : 0);
#pragma unroll
        for (int k = 0; k < per_lane; ++k)
            if (k < per_lane - 1 || i + 32 * k < len) {
                S* slot = whole ? lane_tile + k * (32 + 32 / MP)
                                : own_tile + periodic_slot<MP>(i + 32 * k);
                __pipeline_memcpy_async(slot, in + 32 * k, sizeof(S));
            }
        __pipeline_commit();
    } else { // the first or the last blocks of a call
        for (int e = i; e < len; e += 32)
            own_tile[periodic_slot<MP>(e)] = src[v0 + e];
    }

#pragma unroll
    for (int m = 1; m < M; ++m) {
        own[m] = own[m - 1];
        advance(own[m], r);
    }
    const int p0 = start + W + i * MP; // output 0's input, were it aligned
    const unsigned j0 = own[0].x >> arb_fraction_bits;
    bool aligned = own_first + L * (M - 1) < n_out;
#pragma unroll
    for (int m = 0; m < M; ++m)
        aligned =
            aligned && own[m].p == p0 + m * P && (own[m].x >> arb_fraction_bits) == j0;
    // Arm j0's taps, for every lane (the padding rows keep any j0 < N in the table).
    float h[W], dh[W];
    {
        const int N = static_cast<int>(r.N);
#pragma unroll
        for (int u = 0; u < W; ++u) {
            const float2 hd = __ldg(arms + u * N + static_cast<int>(j0));
            h[u] = hd.x;
            dh[u] = hd.y;
        }
    }
    __pipeline_wait_prior(0);
    __syncwarp(); // the warp's tile is in place

    // Output k = (c + L*m) + L*M*i is staged at (c + L*m) * 33 + i, past the tiles: a
    // warp's lanes write consecutive slots, and read back 32 consecutive outputs from
    // 32 slots 33 apart.
    S* staged = tile + L * slots;
    // Stays 0 while the walk's outputs are finite (finite_residue).
    float residue = 0.0f;
    if (aligned) {
        // Window element e is at base[e + 1 + (e + 1) / MP].
        const S* base = own_tile + i * (MP + 1);
        S x[W + (M - 1) * P];
#pragma unroll
        for (int m = 0; m < M; ++m) {
            // Output m's window ends at element W - 1 + m*P: load what it adds.
            if (m == 0) {
#pragma unroll
                for (int e = 0; e < W; ++e)
                    x[e] = base[periodic_slot<MP>(e + 1)];
            } else {
#pragma unroll
                for (int q = 0; q < P; ++q) {
                    constexpr int first = W - P; // + m*P: the elements output m adds
                    x[first + m * P + q] = base[periodic_slot<MP>(first + m * P + q + 1)];
                }
            }
            const float a = static_cast<float>(own[m].x & mask) * unit;
            S part[4];
#pragma unroll
            for (int q = 0; q < 4; ++q)
                part[q] = zero<S>();
#pragma unroll
            for (int u = 0; u < W; ++u)
                mac(part[u & 3], x[W - 1 + m * P - u], fmaf(a, dh[u], h[u]));
            const S y = add(add(part[0], part[1]), add(part[2], part[3]));
            residue = finite_residue(y, residue);
            staged[(c + L * m) * 33 + i] = y;
        }
    }
    if (!aligned || residue != 0.0f) {
        // The phases again, from the checkpoint: own[] need not outlive the walk.
        const int N = static_cast<int>(r.N);
        arb_phase ph = phase_from(cp, d0 + own_first, r);
        for (int m = 0; m < M && own_first + L * m < n_out; ++m, advance(ph, r)) {
            const unsigned j = ph.x >> arb_fraction_bits;
            const float a = static_cast<float>(ph.x & mask) * unit;
            const int e = ph.p - start;
            const float2* arm = arms + j;
            staged[(c + L * m) * 33 + i] = own_taps_sum<S>(
                r.T,
                a,
                [&](int u) { return __ldg(arm + u * N); },
                [&](int u) { return own_tile[periodic_slot<MP>(e - u)]; });
        }
    }
    __syncthreads();
    // Output e = t + 32*L*j: row t % (L*M), lane t / (L*M) + (32 / M) * j.
    static_assert(32 % M == 0, "a block's 32 * L threads cover whole rows");
    const int row = t % (L * M), lane = t / (L * M);
    for (int e = t, j = 0; e < n_out; e += 32 * L, ++j)
        out[kb + e] = staged[row * 33 + lane + (32 / M) * j];
}

} // namespace arb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
