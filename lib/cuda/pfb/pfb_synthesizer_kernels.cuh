/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_SYNTHESIZER_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_SYNTHESIZER_KERNELS_CUH

// Device code of pfb_synthesizer_engine: the channel gather (a transpose into FFT
// rows) and the branch filters down the columns of the transformed rows.

#include "../common/device_math.cuh"
#include "polyphase_kernels.cuh"
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
    int log2Ns = 0;
    if (log2P & 1)
        log2Ns = fft_pass<2>(buf, log2P, log2Ns, twiddle);
    if ((log2P - log2Ns) & 2)
        log2Ns = fft_pass<4>(buf, log2P, log2Ns, twiddle);
    while (log2Ns < log2P)
        log2Ns = fft_pass<16>(buf, log2P, log2Ns, twiddle);
    const int total = nb << log2P;
    float2* dst = rows_out + (step0 << log2P);
    for (int e = tid; e < total; e += fused_threads)
        dst[e] = buf[fused_pad(e)];
}

constexpr int synth_threads = 256;
constexpr int synth_steps = 8; // steps per thread

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

    float2 acc[S];
#pragma unroll
    for (int q = 0; q < S; ++q)
        acc[q] = make_float2(0.0f, 0.0f);
    float2 w[TW][S];
#pragma unroll
    for (int jr = 0; jr < TW; ++jr)
#pragma unroll
        for (int q = 0; q < S; ++q)
            w[jr][q] = jr < T ? load(T - 1 + s0 + TW * q - jr) : make_float2(0.0f, 0.0f);

    for (int j0 = 0; j0 < T; j0 += TW) {
#pragma unroll
        for (int jr = 0; jr < TW; ++jr) {
            const int j = j0 + jr;
            if (j < T) {
                const float h = __ldg(taps + static_cast<long long>(j) * M + i);
#pragma unroll
                for (int q = 0; q < S; ++q) {
                    acc[q].x = fmaf(h, w[jr][q].x, acc[q].x);
                    acc[q].y = fmaf(h, w[jr][q].y, acc[q].y);
                }
#pragma unroll
                for (int q = S - 1; q > 0; --q)
                    w[jr][q] = w[jr][q - 1];
                // Step s0, tap j + TW: row H + s0 - j - TW >= 0 while j + TW < T.
                if (j + TW < T)
                    w[jr][0] = load(T - 1 + s0 - j - TW);
            }
        }
    }
#pragma unroll
    for (int q = 0; q < S; ++q) {
        const long long s = s0 + TW * q;
        if (s < count)
            out[s * M + i] = acc[q];
    }
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
