/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_NLMS_KERNELS_CUH

// Device code of the NLMS engine (nlms_engine.h has the algorithm). One thread block
// per filter; its taps live in registers for the whole launch.

#include "nlms_shape.h"
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace nlms_kernels {

//! One launch: n samples of each filter. Sample t of filter f of x, d and e is at
//! [f * filter_stride + t * sample_stride] (vector items: stride 1 and nfilters;
//! one row per filter: a row length and 1).
struct args {
    const float* x;
    const float* d;
    float* e;
    long long filter_stride;
    long long sample_stride;
    long long n;
    int ntaps;
    int tile;
    int history;     //!< H: x kept between tiles and calls (nlms_shape::history)
    float* taps;     //!< [nfilters][ntaps], w[j] multiplies x[t - j]
    float* past;     //!< [nfilters][H], the last H x, oldest first
    const float* mu; //!< [nfilters]
    float eps;
};

//! Copies count samples (stride `stride`) from src into shared dst; 16-byte loads when
//! the samples are contiguous and aligned.
//! dst[slot(i)] for sample i: slot keeps groups of four consecutive (i = 4q .. 4q+3
//! at slot(4q) .. slot(4q)+3, slot(4q) a multiple of 4).
template <class Slot>
__device__ inline void
load_tile(float* dst, const float* src, long long stride, int count, Slot slot)
{
    const int t = threadIdx.x, T = blockDim.x;
    if (stride == 1 && (reinterpret_cast<std::uintptr_t>(src) & 15) == 0) {
        const int quads = count / 4;
        const float4* src4 = reinterpret_cast<const float4*>(src);
        for (int q = t; q < quads; q += T)
            *reinterpret_cast<float4*>(dst + slot(4 * q)) = src4[q];
        for (int i = 4 * quads + t; i < count; i += T)
            dst[slot(i)] = src[i];
    } else {
        for (int i = t; i < count; i += T)
            dst[slot(i)] = src[i * stride];
    }
}

//! One stage of warp_transpose_sum: lanes with bit OFF keep the upper OFF values,
//! the others the lower, and each adds its partner's.
template <int OFF>
__device__ inline void transpose_stage(float (&v)[nlms_block], bool upper)
{
#pragma unroll
    for (int q = 0; q < OFF; ++q) {
        const float lo = v[q], hi = v[q + OFF];
        const float send = upper ? lo : hi;
        const float keep = upper ? hi : lo;
        v[q] = keep + __shfl_xor_sync(0xffffffffu, send, OFF);
    }
}

//! Sums v[i] over the warp's lanes for all 32 i at once and returns sum i = lane: a
//! butterfly that halves the values at each stage (31 shuffles, not 32 * 5).
__device__ inline float warp_transpose_sum(float (&v)[nlms_block])
{
    const int lane = threadIdx.x & 31;
    transpose_stage<16>(v, lane & 16);
    transpose_stage<8>(v, lane & 8);
    transpose_stage<4>(v, lane & 4);
    transpose_stage<2>(v, lane & 2);
    transpose_stage<1>(v, lane & 1);
    return v[0];
}

//! V window samples from window sample `first` on (a multiple of K) into registers.
template <int K, bool Padded, int V>
__device__ inline void load_window(float (&v)[V], const float* sx, int first)
{
    const auto at = [](int m) { return Padded ? nlms_padded_slot(m, K) : m; };
    const float* src = sx + at(first);
#pragma unroll
    for (int q = 0; q < V / 4; ++q) {
        // first is a multiple of K: sample first + 4q is at(4q) past it.
        const float4 u = reinterpret_cast<const float4*>(src + at(4 * q))[0];
        v[4 * q] = u.x;
        v[4 * q + 1] = u.y;
        v[4 * q + 2] = u.z;
        v[4 * q + 3] = u.w;
    }
}

//! This warp's part of a step's Gram row x_0 . x_i (taps < N only), src the thread's
//! window as in nlms_kernel; written to dst[warp * nlms_block + lane].
template <int K, bool Padded>
__device__ inline void gram_row(const float* sx, int first, int j0, int N, float* dst)
{
    constexpr int B = nlms_block;
    float v[B + K];
    load_window<K, Padded>(v, sx, first);
    float acc[B];
#pragma unroll
    for (int i = 0; i < B; ++i)
        acc[i] = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const float x0 = j0 + k < N ? v[K - k] : 0.0f; // x[nb - j]
#pragma unroll
        for (int i = 0; i < B; ++i)
            acc[i] = fmaf(x0, v[i - k + K], acc[i]);
    }
    dst[(threadIdx.x >> 5) * B + (threadIdx.x & 31)] = warp_transpose_sum(acc);
}

//! Lane l's sum of parts[q * B + l] over q < count, in q order (the Gram row's partial
//! sums, one per warp, or one finished row).
__device__ inline float sum_parts(const float* parts, int count)
{
    constexpr int B = nlms_block;
    float g = 0.0f;
#pragma unroll
    for (int q = 0; q < nlms_max_threads / 32; ++q)
        if (q < count)
            g += parts[q * B + (threadIdx.x & 31)];
    return g;
}

/*!
 * Half of the slide of a step's Gram row to the next step's, one warp, lane l:
 * G[0][l] slides by B samples, x_{nb+B} . x_{nb+B+l} = x_nb . x_{nb+l} +
 * sum_{m=1..B} (x[nb+m] x[nb+m+l] - x[nb+m-N] x[nb+m+l-N]): 2B FMAs instead of the N
 * of a sum afresh. The sum goes in two partial sums, over odd m (First = 1) and even
 * m (First = 2), each in m order; the row adds them as (odd + even). In double, where
 * a product of two floats is exact, so the row carried through a tile's steps is off
 * by a few roundings of 2^-53 of its largest values, not of 2^-24: a window gone quiet
 * after a loud one keeps its small norm. xs[m] = x[nb + m].
 */
template <int First>
__device__ inline double gram_row_slide(const float* xs, int N)
{
    constexpr int B = nlms_block;
    const int l = threadIdx.x & 31;
    const float* xo = xs - N;
    double sum = 0.0;
#pragma unroll 4
    for (int m = First; m <= B; m += 2) {
        sum = fma(double(xs[m]), double(xs[m + l]), sum);
        sum = fma(-double(xo[m]), double(xo[m + l]), sum);
    }
    return sum;
}

/*!
 * A step's Gram matrix from its first row, one warp, lane l (nb the step's first
 * sample, xs[m] = x[nb + m], g0 = G[0][l] = x_nb . x_{nb+l}): down its diagonals,
 * G[a+1][b+1] = G[a][b] + x[nb+a+1] x[nb+b+1] - x[nb+a+1-N] x[nb+b+1-N] (at most
 * B-1 FMA pairs from a sum afresh, so a norm is off by a few roundings of the
 * largest norm in the step, and cannot drift beyond it). Writes G[a][b], a <= b, to
 * gram[a * (B + 1) + b]. For filters of more than B taps (direct_gram_matrix sums
 * shorter filters' entries afresh).
 */
__device__ inline void gram_matrix(float g0, const float* xs, int N, float* gram)
{
    constexpr int B = nlms_block;
    const int l = threadIdx.x & 31;
    const float* xo = xs - N; // xo[m] = x[nb + m - N]
    float gd = g0;
    gram[l] = g0;
    // Diagonal l runs through B-1-l entries; its chain goes on past them, reading up
    // to xs[2B-2] (past a tile's last step: what follows the window in shared
    // memory, written before) into values that are never stored. Unclamped, every address
    // is a constant offset of one pointer and the loop has no index arithmetic left.
#pragma unroll
    for (int a = 0; a + 1 < B; ++a) {
        gd = fmaf(xs[a + 1], xs[a + l + 1], gd);
        gd = fmaf(-xo[a + 1], xo[a + l + 1], gd);
        if (a + l + 1 < B)
            gram[(a + 1) * (B + 1) + a + l + 1] = gd;
    }
}

/*!
 * A step's Gram matrix summed afresh, for filters of N <= nlms_block taps, one warp,
 * lane l its column: G[j][l] = x_{nb+j} . x_{nb+l} = sum_k x[nb+j-k] x[nb+l-k]
 * (k = 0 .. N-1, in that order), j <= l, to gram[j * (B + 1) + l] as gram_matrix
 * writes it (xs[m] = x[nb + m], 16-byte aligned, with 4 + B samples before it).
 * Shorter filters' windows share too few samples for the diagonal recurrence's bound
 * to mean anything: a norm x_n^2 of 1e-6 beside a 1 in the step would come out of it
 * with no correct digit.
 *
 * Four taps k at a time, with the B + 3 samples x[nb+j-k] they meet in float4 loads
 * that the whole warp shares: one load a sample and tap made this loop half of the
 * serial part's instructions for a single short filter.
 */
__device__ inline void direct_gram_matrix(const float* xs, int N, float* gram)
{
    constexpr int B = nlms_block;
    const int l = threadIdx.x & 31;
    float col[B];
#pragma unroll
    for (int j = 0; j < B; ++j)
        col[j] = 0.0f;
    for (int k0 = 0; k0 < N; k0 += 4) {
        float r[B + 4]; // r[i] = xs[i - k0 - 4]
        const float4* from = reinterpret_cast<const float4*>(xs - k0 - 4);
#pragma unroll
        for (int q = 0; q < (B + 4) / 4; ++q) {
            const float4 v = from[q];
            r[4 * q] = v.x;
            r[4 * q + 1] = v.y;
            r[4 * q + 2] = v.z;
            r[4 * q + 3] = v.w;
        }
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            if (k0 + kk < N) {
                const float xl = xs[l - k0 - kk];
#pragma unroll
                for (int j = 0; j < B; ++j)
                    col[j] = fmaf(r[j - kk + 4], xl, col[j]);
            }
        }
    }
#pragma unroll
    for (int j = 0; j < B; ++j)
        if (j <= l)
            gram[j * (B + 1) + l] = col[j];
}

/*!
 * The serial part of a step, one warp, lane i for sample nb + i (nb the step's first
 * sample): the warps' partial sums into p_i = w0 . x_{nb+i}, then
 * the error recurrence e_i = d_i - p_i - sum_{j<i} g_j G[j][i],
 * g_i = mu e_i / (eps + G[i][i]), one shuffle per sample. G comes from gram,
 * formed during the step before (gram_matrix, or direct_gram_matrix for filters of
 * at most B taps). Writes e of the step's cb samples and g (0 past cb) to sg.
 */
__device__ inline void error_chain(const float* part_p,
                                   int nwarps,
                                   const float* gram,
                                   const float* sd,
                                   int cb,
                                   float mu,
                                   float eps,
                                   float* sg,
                                   float* e,
                                   long long stride)
{
    constexpr int B = nlms_block;
    const int l = threadIdx.x & 31;
    float p = 0.0f;
#pragma unroll
    for (int q = 0; q < nlms_max_threads / 32; ++q) // warp order, as the emulation
        if (q < nwarps)
            p += part_p[q * B + l];
    const float* col = gram + l;         // column l: G[j][l] at col[j * (B + 1)]
    const float norm = col[l * (B + 1)]; // G[l][l]
    // A norm is >= 0; its roundings must not take eps + norm to 0.
    const float r = mu / (eps + fmaxf(norm, 0.0f));
    // Lane l's acc is final once the loop reaches j = l. Lanes past cb (past the
    // call's samples) send their g too, but only to lanes past cb; their g is 0 in sg.
    float acc = sd[l] - p;
#pragma unroll
    for (int j = 0; j < B; ++j) {
        const float gj = __shfl_sync(0xffffffffu, acc * r, j);
        if (l > j)
            acc = fmaf(-gj, col[j * (B + 1)], acc);
    }
    sg[l] = l < cb ? acc * r : 0.0f;
    if (l < cb)
        e[l * stride] = acc;
}

/*!
 * The rank-B update of a thread's K taps, w[k] += sum_i g_i x[nb + i - j0 - k] in
 * sample order, g four at a time from sg (v the thread's window as in nlms_kernel).
 * Only taps k < valid change: taps past the filter's end stay zero.
 */
template <int K>
__device__ inline void
update_taps(float (&w)[K], const float (&v)[nlms_block + K], const float* sg, int valid)
{
    constexpr int B = nlms_block;
#pragma unroll
    for (int q = 0; q < B / 4; ++q) {
        const float4 u = reinterpret_cast<const float4*>(sg)[q];
        const float g[4] = { u.x, u.y, u.z, u.w };
#pragma unroll
        for (int k = 0; k < K; ++k)
            if (k < valid) {
#pragma unroll
                for (int i = 0; i < 4; ++i)
                    w[k] = fmaf(g[i], v[4 * q + i - k + K], w[k]);
            }
    }
}

/*!
 * NLMS over a.n samples, one block per filter (blockIdx.x), blockDim.x threads, K
 * contiguous taps per thread: thread t holds w[t*K .. t*K + K-1]. The samples go in
 * steps of B = nlms_block, each an exact rewriting of B NLMS updates: with w0 the
 * taps at the step's start, y_i = w0 . x_i + sum_{j<i} g_j (x_j . x_i). Each thread
 * loads the B + K samples its taps meet in the step into registers once; from them
 * the B dot products w0 . x_i (B*K FMAs, reduced over the block: two barriers a
 * step, not one a sample), then after the serial part the rank-B update
 * w += sum_i g_i x_i, in sample order.
 *
 * The serial part is three chains of dependent operations, each on a warp of its own
 * where the block has four: the error recurrence of this step (error_chain, warp 0),
 * the next step's Gram matrix (gram_matrix, warp wa), and the two halves of the
 * slide of its first row to the step after (gram_row_slide, warps wo and we); for
 * filters of at most B taps two: the error recurrence, and the next step's Gram
 * matrix summed afresh (direct_gram_matrix, warp wa). Each works from what the
 * others formed during the step before, so a step waits for the longest chain, not
 * for their sum. A tile's first Gram row is summed afresh (B*K
 * FMAs a thread, the cost of a dot product, gram_row) and slid from step to step
 * after that: a sample costs 2N FMAs of the block, not 3N.
 *
 * Shared memory (nlms_shape.h): the window [H history | tile of x] (H = T*K >= N)
 * as it is, which the serial chains read at constant offsets, and for K >= 8 again
 * in padded slots (nlms_padded_slot), which the window loads read without bank
 * conflicts; the tile of d; the partial sums (dot products; a tile's first Gram
 * row); the Gram matrices of two steps; the steps g; the Gram row in double; the
 * halves of the slides of two steps.
 */
//! Short: filters of at most B taps (K = 4, nlms_shape_for), whose Gram matrix is
//! summed afresh (direct_gram_matrix) rather than run down its diagonals; a kernel of
//! its own, so that the others carry none of its registers. At K = 4 left to its own
//! choice ptxas held the kernel to 64 registers and spilled, and the short filters'
//! Gram column then waited on each of its loads: one block a multiprocessor lets it
//! take up to 128 (a 16-tap filter's block went from 6.5 to 11.4 MS/s). K = 8 and 16
//! keep ptxas's choice (0: no minimum).
template <int K, bool Short = false>
__global__ void __launch_bounds__(nlms_max_threads, K == 4 ? 1 : 0) nlms_kernel(args a)
{
    constexpr int B = nlms_block;
    constexpr int V = B + K;                       // window registers: x[nb - tK - K + q]
    constexpr bool padded = nlms_window_padded(K); // a second copy, in padded slots
    extern __shared__ float4 smem4[];
    float* smem = reinterpret_cast<float*>(smem4);
    const int N = a.ntaps, C = a.tile, H = a.history;
    const int t = threadIdx.x, T = blockDim.x;
    const int lane = t & 31, warp = t >> 5, nwarps = T >> 5;
    // Every offset is a multiple of 4 floats: the window loads are float4.
    float* sx = smem;       // H + C: x[n0 - H + m] at sx[m]
    float* sw = sx + H + C; // padded: x[n0 - H + m] at sw[slot(m)]
    float* sd = sw + (padded ? nlms_padded_slot(H + C, K) : 0); // C
    float* part_p = sd + C;                                     // nwarps x B dot products
    float* part_g = part_p + nwarps * B; // nwarps x B: a tile's first Gram row
    float* gram = part_g + nwarps * B;   // 2 x B x (B + 1): this step's, the next's
    float* sg = gram + 2 * B * (B + 1);  // B
    // B: the Gram row G[0][l] of the step in double (in shared memory rather than a
    // register held through the whole step loop)
    double* row = reinterpret_cast<double*>(sg + B);
    double* slide = row + B; // 2 x 2 x B: a step's slide to the next, odd and even m
    const float* win = padded ? sw : sx; // what the window loads read
    // Window sample m into both copies.
    auto put = [&](int m, float v) {
        sx[m] = v;
        if (padded)
            sw[nlms_padded_slot(m, K)] = v;
    };
    const int wa = nwarps > 1 ? 1 : 0, wo = nwarps > 2 ? 2 : wa, we = nwarps > 3 ? 3 : wo;
    static_assert(!Short || K == 4, "nlms_kernel: short filters take 4 taps a thread");

    const int f = blockIdx.x;
    float* w_state = a.taps + static_cast<long long>(f) * N;
    float* h_state = a.past + static_cast<long long>(f) * H;
    const float* x = a.x + f * a.filter_stride;
    const float* d = a.d + f * a.filter_stride;
    float* e = a.e + f * a.filter_stride;
    const float mu = a.mu[f];
    const int j0 = t * K; // this thread's first tap

    float w[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
        w[k] = j0 + k < N ? w_state[j0 + k] : 0.0f;
    for (int i = t; i < H; i += T)
        put(i, h_state[i]);

    for (long long n0 = 0; n0 < a.n; n0 += C) {
        const int c = static_cast<int>(a.n - n0 < C ? a.n - n0 : C);
        const int cp = (c + B - 1) / B * B; // the last step reads zeros past c
        const float* xt = x + n0 * a.sample_stride;
        const auto same = [](int i) { return i; };
        load_tile(sx + H, xt, a.sample_stride, c, same);
        if (padded)
            load_tile(sw, xt, a.sample_stride, c, [H](int i) {
                return nlms_padded_slot(H + i, K);
            });
        load_tile(sd, d + n0 * a.sample_stride, a.sample_stride, c, same);
        for (int i = c + t; i < cp; i += T) {
            put(H + i, 0.0f);
            sd[i] = 0.0f;
        }
        __syncthreads();
        // The Gram matrix of a step needs x only: formed during the step before, and
        // the tile's first here, from its first row summed afresh (short filters':
        // every entry summed afresh).
        if constexpr (!Short) {
            gram_row<K, padded>(win, H - j0 - K, j0, N, part_g);
            __syncthreads();
            if (warp == wa) {
                const float g0 = sum_parts(part_g, nwarps);
                row[lane] = g0;
                gram_matrix(g0, sx + H, N, gram);
            }
            if (B < c) {
                if (warp == wo)
                    slide[lane] = gram_row_slide<1>(sx + H, N);
                if (warp == we)
                    slide[B + lane] = gram_row_slide<2>(sx + H, N);
            }
        } else if (warp == wa) {
            direct_gram_matrix(sx + H, N, gram);
        }
        for (int s = 0; s < c; s += B) {
            const int cur = (s / B) & 1, next = cur ^ 1; // buffers of steps s, s + B
            // x[nb + i - (j0 + k)] = v[i - k + K]; loaded again for the update rather
            // than held through the serial part (registers).
            const int first = H + s - j0 - K;
            {
                float v[V];
                load_window<K, padded>(v, win, first);
                float acc[B];
#pragma unroll
                for (int i = 0; i < B; ++i)
                    acc[i] = 0.0f;
#pragma unroll
                for (int k = 0; k < K; ++k)
#pragma unroll
                    for (int i = 0; i < B; ++i)
                        acc[i] = fmaf(w[k], v[i - k + K], acc[i]);
                part_p[warp * B + lane] = warp_transpose_sum(acc);
            }
            __syncthreads();
            if (warp == 0) {
                const int cb = c - s < B ? c - s : B;
                error_chain(part_p,
                            nwarps,
                            gram + cur * B * (B + 1),
                            sd + s,
                            cb,
                            mu,
                            a.eps,
                            sg,
                            e + (n0 + s) * a.sample_stride,
                            a.sample_stride);
            }
            if (s + B < c) {
                if constexpr (Short) {
                    if (warp == wa) // step s + B's matrix, afresh
                        direct_gram_matrix(sx + H + s + B, N, gram + next * B * (B + 1));
                } else {
                    if (warp == wa) { // step s + B's row and matrix
                        const double* half = slide + cur * 2 * B;
                        const double r = row[lane] + (half[lane] + half[B + lane]);
                        row[lane] = r;
                        gram_matrix(static_cast<float>(r),
                                    sx + H + s + B,
                                    N,
                                    gram + next * B * (B + 1));
                    }
                    if (s + 2 * B < c) { // the slide from step s + B to s + 2B
                        double* half = slide + next * 2 * B;
                        if (warp == wo)
                            half[lane] = gram_row_slide<1>(sx + H + s + B, N);
                        if (warp == we)
                            half[B + lane] = gram_row_slide<2>(sx + H + s + B, N);
                    }
                }
            }
            __syncthreads();
            float v[V];
            load_window<K, padded>(v, win, first);
            update_taps<K>(w, v, sg, N - j0);
        }
        // The newest H of [history | tile] become the history: through registers, as
        // source and destination overlap.
        float keep[K];
#pragma unroll
        for (int r = 0; r < K; ++r)
            keep[r] = sx[c + t + r * T];
        __syncthreads();
#pragma unroll
        for (int r = 0; r < K; ++r)
            put(t + r * T, keep[r]);
    }
#pragma unroll
    for (int r = 0; r < K; ++r)
        h_state[t + r * T] = sx[t + r * T]; // written by this thread
#pragma unroll
    for (int k = 0; k < K; ++k)
        if (j0 + k < N)
            w_state[j0 + k] = w[k];
}

} // namespace nlms_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
