/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_INTERPOLATOR_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_INTERPOLATOR_KERNELS_CUH

// Device code of pfb_interpolator_engine: the polyphase interpolating FIR.

#include "../common/device_math.cuh"
#include "polyphase_kernels.cuh"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_kernels {

namespace interp_shape {
constexpr int threads = 256;
constexpr int outputs_per_thread = 8; // consecutive inputs, one phase
constexpr int max_phases = 64;        // phases per block (grid.y covers the rest)
constexpr int tap_chunk = 512;        // taps per branch staged at a time

__host__ __device__ inline int phases(int L) { return L < max_phases ? L : max_phases; }
inline int threads_per_phase(int L) { return threads / phases(L); }
inline int block_inputs(int L) { return threads_per_phase(L) * outputs_per_thread; }
inline std::size_t smem_bytes(int L)
{
    return static_cast<std::size_t>(block_inputs(L) + tap_chunk) * sizeof(float2);
}
} // namespace interp_shape

/*!
 * y[i*L + j] = sum_k h[j + k*L] * x[i - k] for the inputs [0, n) of this call:
 * x[i] = src[H + i] with H the history length (zeros before the stream), padded taps
 * taps[k*L + j] = h[j + k*L] (gr-filter's branch j, tap k).
 *
 * A block owns block_inputs(L) consecutive inputs and phases(L) consecutive phases.
 * Per chunk of taps it stages the inputs the chunk reads, once; a thread computes
 * outputs_per_thread consecutive inputs of one phase, sliding a register window down
 * the staged inputs (one shared-memory load and one tap load per tap serve
 * outputs_per_thread multiply-adds). Consecutive threads take consecutive phases, so
 * the outputs of one input go out together. The blocks of the first phases also copy
 * the next call's history (keep; n = 0: none), one launch a call fewer.
 */
__global__ void __launch_bounds__(interp_shape::threads)
    interp_fir(source<float2> src,
               int L,
               int T,
               const float* __restrict__ taps,
               long long n,
               float2* __restrict__ out,
               history_keep<float2> keep)
{
    if (blockIdx.y == 0)
        keep.copy();
    using namespace interp_shape;
    constexpr int Q = outputs_per_thread;
    extern __shared__ float2 xs[];
    const int P = phases(L);
    const int tpp = threads / P;
    const int I = tpp * Q;
    const long long i0 = static_cast<long long>(blockIdx.x) * I;
    const int jj = threadIdx.x % P;
    const int g = threadIdx.x / P;
    const int j = blockIdx.y * P + jj;
    const bool active = g < tpp && j < L;

    float2 acc[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q)
        acc[q] = make_float2(0.0f, 0.0f);

    for (int k0 = 0; k0 < T; k0 += tap_chunk) {
        const int TC = min(tap_chunk, T - k0);
        // xs[m] = x[i0 - k0 - TC + 1 + m], m < I + TC - 1
        const long long first = src.history_len + i0 - k0 - TC + 1;
        __syncthreads();
        for (int m = threadIdx.x; m < I + TC - 1; m += blockDim.x)
            xs[m] = src[first + m];
        __syncthreads();
        if (active) {
            // w[q] = x[i0 + g*Q + q - k] = xs[base + q - kk], k = k0 + kk
            const int base = g * Q + TC - 1;
            float2 w[Q];
#pragma unroll
            for (int q = 0; q < Q; ++q)
                w[q] = xs[base + q];
            const float* h = taps + static_cast<long long>(k0) * L + j;
            for (int kk = 0; kk < TC; ++kk) {
                const float t = __ldg(h + static_cast<long long>(kk) * L);
#pragma unroll
                for (int q = 0; q < Q; ++q) {
                    acc[q].x = fmaf(t, w[q].x, acc[q].x);
                    acc[q].y = fmaf(t, w[q].y, acc[q].y);
                }
#pragma unroll
                for (int q = Q - 1; q > 0; --q)
                    w[q] = w[q - 1];
                const int next = base - kk - 1;
                w[0] = next >= 0 ? xs[next] : make_float2(0.0f, 0.0f);
            }
        }
    }
    if (!active)
        return;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        const long long i = i0 + g * Q + q;
        if (i < n)
            out[i * L + j] = acc[q];
    }
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
