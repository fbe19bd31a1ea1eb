/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_SYNTHESIZER_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_SYNTHESIZER_KERNELS_CUH

// Device code of pfb_synthesizer_engine: the channel gather (a transpose into FFT
// rows) and the branch filters down the columns of the transformed rows.

#include "../common/device_math.cuh"
#include "polyphase_fused_kernels.cuh"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_kernels {

constexpr int gather_tile = 32;

/*!
 * rows[r*P + b] = ports[inv[b]][first + r] (0 where inv[b] < 0), r < count: the FFT
 * input of each step. A 32 x 32 tile of (bin, step) goes through shared memory, so
 * both the per-port reads (along steps) and the row writes (along bins) coalesce.
 * Block (32, 8).
 */
__global__ void synth_gather(const float2* const* __restrict__ ports,
                             const int* __restrict__ inv,
                             int P,
                             long long first,
                             long long count,
                             float2* __restrict__ rows)
{
    __shared__ float2 tile[gather_tile][gather_tile + 1];
    const long long r0 = static_cast<long long>(blockIdx.x) * gather_tile;
    const int b0 = blockIdx.y * gather_tile;
    for (int yy = threadIdx.y; yy < gather_tile; yy += blockDim.y) {
        const int b = b0 + yy;
        const long long r = r0 + threadIdx.x;
        float2 v = make_float2(0.0f, 0.0f);
        if (b < P && r < count) {
            const int port = inv[b];
            if (port >= 0)
                v = ports[port][first + r];
        }
        tile[yy][threadIdx.x] = v;
    }
    __syncthreads();
    for (int yy = threadIdx.y; yy < gather_tile; yy += blockDim.y) {
        const long long r = r0 + yy;
        const int b = b0 + threadIdx.x;
        if (r < count && b < P)
            rows[r * P + b] = tile[threadIdx.x][yy];
    }
}

/*!
 * synth_gather and the inverse FFT in one kernel, for P a power of two in [2, 1024]:
 * block b gathers steps [b*rows, b*rows + rows), rows = fused_elems / P, from the
 * ports into shared memory (consecutive threads read consecutive steps of one port),
 * transforms every row in place with the channelizer's Stockham passes (fft_pass:
 * unscaled, exp(+j)), and writes the valid rows out coalesced. One read of the inputs
 * and one write of the rows instead of the gather's write and cuFFT's read and write.
 */
__global__ void __launch_bounds__(fused_threads)
    synth_gather_fft(const float2* const* __restrict__ ports,
                     const int* __restrict__ inv,
                     int log2P,
                     const float2* __restrict__ twiddle,
                     long long first,
                     long long count,
                     float2* __restrict__ rows_out)
{
    extern __shared__ float4 storage[];
    float2* buf = reinterpret_cast<float2*>(storage);
    const int tid = threadIdx.x;
    const int log2rows = 12 - log2P; // fused_elems = 4096
    const int rows = 1 << log2rows;
    const long long step0 = static_cast<long long>(blockIdx.x) * rows;
    const int nb = static_cast<int>(min(static_cast<long long>(rows), count - step0));
    for (int e = tid; e < fused_elems; e += fused_threads) {
        const int bin = e >> log2rows;
        const int r = e & (rows - 1);
        float2 v = make_float2(0.0f, 0.0f);
        if (r < nb) {
            const int port = inv[bin];
            if (port >= 0)
                v = ports[port][first + step0 + r];
        }
        buf[fused_pad((r << log2P) + bin)] = v;
    }
    __syncthreads();
    fft_rows(buf, log2P, twiddle);
    const int total = nb << log2P;
    float2* dst = rows_out + (step0 << log2P);
    for (int e = tid; e < total; e += fused_threads)
        dst[e] = buf[fused_pad(e)];
}

constexpr int synth_threads = 256;
constexpr int synth_steps = 8; // steps per thread

/*!
 * The branch filter of both synthesizer filter kernels, on one column of transformed
 * rows: acc[q] = sum_{j<T} tap(j) * Y[H + t + TW*q - j] for a work item's steps
 * t + TW*q, q < Q (all of one parity, so all in one half of the rows). For each
 * residue of j mod TW a register window slides down the column: one load and one tap
 * load per tap serve Q multiply-adds. first(d) and next(d) read the column at row
 * H + t + d: first() fills the windows (d up to TW*(Q-1), which may pass the last
 * row), next() refills them (d = -j - TW < 0, always a row of the step's window).
 */
template <int TW, int Q, class First, class Next, class Tap>
__device__ __forceinline__ void
column_fir(First first, Next next, Tap tap, int T, float2 (&acc)[Q])
{
#pragma unroll
    for (int q = 0; q < Q; ++q)
        acc[q] = make_float2(0.0f, 0.0f);
    float2 w[TW][Q];
#pragma unroll
    for (int jr = 0; jr < TW; ++jr)
#pragma unroll
        for (int q = 0; q < Q; ++q)
            w[jr][q] = jr < T ? first(TW * q - jr) : make_float2(0.0f, 0.0f);

    for (int j0 = 0; j0 < T; j0 += TW) {
#pragma unroll
        for (int jr = 0; jr < TW; ++jr) {
            const int j = j0 + jr;
            if (j < T) {
                const float h = tap(j);
#pragma unroll
                for (int q = 0; q < Q; ++q) {
                    acc[q].x = fmaf(h, w[jr][q].x, acc[q].x);
                    acc[q].y = fmaf(h, w[jr][q].y, acc[q].y);
                }
#pragma unroll
                for (int q = Q - 1; q > 0; --q)
                    w[jr][q] = w[jr][q - 1];
                if (j + TW < T)
                    w[jr][0] = next(-j - TW);
            }
        }
    }
}

/*!
 * out[r*M + i] = sum_{j<T} h[i + j*M] * Y[H + r - j][c(r)*M + i], r < count, where Y
 * holds H = T - 1 rows of history then the call's transformed rows (P = TW*M wide),
 * and c(r) = 0 (TW = 1) or the half gr-filter's 2x mode reads at that step,
 * ((parity + r) & 1) ^ 1 (TW = 2). taps[j*M + i] = h[i + j*M].
 *
 * Thread t: column i = t mod M and steps s0 + p + TW*q, q < synth_steps (the steps
 * of one parity p of a group of TW*synth_steps steps), which all read the same half.
 * For each residue of j mod TW a register window slides down the column: one load
 * and one tap load per tap serve synth_steps multiply-adds.
 */
template <int TW>
__global__ void __launch_bounds__(synth_threads) synth_fir(const float2* __restrict__ Y,
                                                           int M,
                                                           int T,
                                                           const float* __restrict__ taps,
                                                           int parity,
                                                           long long count,
                                                           float2* __restrict__ out)
{
    constexpr int S = synth_steps;
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int i = static_cast<int>(t % M);
    const long long grp = t / M;
    const int p = static_cast<int>(grp % TW);
    const long long s0 = (grp / TW) * (TW * S) + p;
    if (s0 >= count)
        return;
    const int P = TW * M;
    const int c = TW == 1 ? 0 : (((parity + static_cast<int>(s0 & 1)) & 1) ^ 1);
    // Row of step s, tap j: H + s - j, H = T - 1.
    const float2* col = Y + static_cast<long long>(c) * M + i;
    const long long last_row = static_cast<long long>(T) - 1 + count - 1;
    auto load = [&](long long row) {
        return row <= last_row ? col[row * P] : make_float2(0.0f, 0.0f);
    };

    const long long row0 = T - 1 + s0;
    const auto at = [&](int d) { return load(row0 + d); };
    float2 acc[S];
    column_fir<TW>(
        at,
        at,
        [&](int j) { return __ldg(taps + static_cast<long long>(j) * M + i); },
        T,
        acc);
#pragma unroll
    for (int q = 0; q < S; ++q) {
        const long long s = s0 + TW * q;
        if (s < count)
            out[s * M + i] = acc[q];
    }
}

// The one-pass kernel's shape: a block transforms G = 2^log2G regions of fused_elems
// samples (G * 4096 / P rows), G at most one_pass_max_regions; a work item of its
// filter stage is one branch and one_pass_steps steps of one parity.
constexpr int one_pass_max_regions = 2;
constexpr int one_pass_max_fft = 1024;
constexpr int one_pass_steps = 8;
constexpr int one_pass_min_blocks = 3; // at most 80 registers
//! Shared memory of a block with `regions` regions (34 KB each) for FFT size P: the
//! regions, then each bin's port pointer.
constexpr int one_pass_smem_bytes(int regions, int P)
{
    return regions * fused_smem_bytes + P * static_cast<int>(sizeof(float2*));
}

/*!
 * The whole synthesizer in one kernel, for P = 2^log2P <= one_pass_max_fft and H = T - 1
 * rows of history at most half a block's rows: no transformed row goes through device
 * memory. Block b holds rows = G * fused_elems / P rows, row r being step b*S - H + r of
 * the call, S = rows - H: the H steps before its own S steps (the "halo", whose
 * transforms its neighbour computes too) and then its own.
 *
 * 1. Gather, as synth_gather_fft: consecutive threads read consecutive steps of one
 *    port (bins no port feeds are 0, steps outside [0, count) are 0) into
 *    buf[fused_pad(r*P + bin)].
 * 2. fft_rows on each region (rows never straddle a region: P divides 4096).
 *    Block 0's halo is the steps before the call: it takes the H kept rows state_in
 *    (its own transforms of zeros are overwritten). The last block writes the newest H
 *    rows (rows nb .. nb + H - 1, nb its own valid steps; with nb < H some come from
 *    its halo, i.e. from state_in) to state_out, the next call's state_in.
 * 3. Branch filters as synth_fir, out of shared memory: a work item is branch
 *    i < M = P / TW and the steps t0 + TW*q, q < one_pass_steps, of one parity (one
 *    half c of the rows); for each tap residue mod TW a register window slides up the
 *    column, one load and one tap load per one_pass_steps multiply-adds. Consecutive
 *    items take consecutive branches, so each store of a warp fills whole 32-byte
 *    sectors for M >= 4: out[(b*S + t)*M + i].
 *
 * state_in and state_out are different buffers (block 0 may still read state_in
 * while the last block writes).
 */
template <int TW>
__global__ void __launch_bounds__(fused_threads, one_pass_min_blocks)
    synth_one_pass(const float2* const* __restrict__ ports,
                   const int* __restrict__ inv,
                   int log2P,
                   int log2G,
                   const float2* __restrict__ twiddle,
                   int T,
                   const float* __restrict__ taps,
                   int parity,
                   long long count,
                   const float2* __restrict__ state_in,
                   float2* __restrict__ state_out,
                   float2* __restrict__ out)
{
    constexpr int Q = one_pass_steps;
    extern __shared__ float4 storage[];
    float2* buf = reinterpret_cast<float2*>(storage);
    const int tid = threadIdx.x;
    const int H = T - 1;
    const int log2rows = 12 + log2G - log2P; // fused_elems = 4096
    const int rows = 1 << log2rows;
    const int S = rows - H;
    const long long step0 = static_cast<long long>(blockIdx.x) * S;
    const int nb = static_cast<int>(min(static_cast<long long>(S), count - step0));
    const long long lo = step0 - H; // the step of row 0

    // Each bin's port (null: none), after the regions, then batches of gather_batch
    // samples a thread whose loads are all issued before the stores.
    const float2** bin_port = reinterpret_cast<const float2**>(
        reinterpret_cast<char*>(storage) + (fused_smem_bytes << log2G));
    for (int b = tid; b < (1 << log2P); b += fused_threads) {
        const int port = inv[b];
        bin_port[b] = port >= 0 ? ports[port] : nullptr;
    }
    __syncthreads();
    constexpr int gather_batch = 8;
    const int elems = fused_elems << log2G; // a multiple of gather_batch * threads
    for (int e0 = tid; e0 < elems; e0 += gather_batch * fused_threads) {
        float2 v[gather_batch];
#pragma unroll
        for (int k = 0; k < gather_batch; ++k) {
            const int e = e0 + k * fused_threads;
            const float2* src = bin_port[e >> log2rows];
            const long long s = lo + (e & (rows - 1));
            v[k] = src && s >= 0 && s < count ? src[s] : make_float2(0.0f, 0.0f);
        }
#pragma unroll
        for (int k = 0; k < gather_batch; ++k) {
            const int e = e0 + k * fused_threads;
            buf[fused_pad(((e & (rows - 1)) << log2P) + (e >> log2rows))] = v[k];
        }
    }
    __syncthreads();
    for (int g = 0; g < (1 << log2G); ++g)
        fft_rows(buf + g * fused_pad(fused_elems), log2P, twiddle);

    const int hist = H << log2P; // samples of H rows
    if (blockIdx.x == 0 && hist > 0) {
        for (int e = tid; e < hist; e += fused_threads)
            buf[fused_pad(e)] = state_in[e];
        __syncthreads();
    }
    if (blockIdx.x == gridDim.x - 1)
        for (int e = tid; e < hist; e += fused_threads)
            state_out[e] = buf[fused_pad((nb << log2P) + e)];

    const int log2M = log2P - (TW - 1);
    const int M = 1 << log2M;
    const int groups = (nb + TW * Q - 1) / (TW * Q);
    const int items = groups << log2P; // groups * TW * M
    for (int w = tid; w < items; w += fused_threads) {
        const int i = w & (M - 1);
        const int g = w >> log2M;
        const int t0 = (g / TW) * (TW * Q) + g % TW;
        if (t0 >= nb)
            continue;
        const int c =
            TW == 1 ? 0 : (((parity + static_cast<int>((step0 + t0) & 1)) & 1) ^ 1);
        const int col = c * M + i;
        // Step t, tap j: row H + t - j.
        auto load = [&](int row) {
            return row < rows ? buf[fused_pad((row << log2P) + col)]
                              : make_float2(0.0f, 0.0f);
        };
        const int row0 = H + t0;
        float2 acc[Q];
        column_fir<TW>([&](int d) { return load(row0 + d); },
                       [&](int d) { return buf[fused_pad(((row0 + d) << log2P) + col)]; },
                       [&](int j) { return __ldg(taps + (j << log2M) + i); },
                       T,
                       acc);
        float2* dst = out + (step0 + t0) * M + i;
#pragma unroll
        for (int q = 0; q < Q; ++q)
            if (t0 + TW * q < nb)
                dst[static_cast<long long>(TW * q) * M] = acc[q];
    }
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
