/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_NLMS_KERNELS_CUH

// Device code of the NLMS engine (nlms_engine.h has the algorithm). One thread block
// per filter; its taps live in registers for the whole launch.

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
    float* taps;     //!< [nfilters][ntaps], w[j] multiplies x[t - j]
    float* history;  //!< [nfilters][max(ntaps - 1, 1)], the last ntaps-1 x, oldest first
    const float* mu; //!< [nfilters]
    float eps;
};

//! Copies count samples (stride `stride`) from src into shared dst; 16-byte loads when
//! the samples are contiguous and aligned.
__device__ inline void
load_tile(float* dst, const float* src, long long stride, int count)
{
    const int t = threadIdx.x, T = blockDim.x;
    if (stride == 1 && (reinterpret_cast<std::uintptr_t>(src) & 15) == 0) {
        const int quads = count / 4;
        const float4* src4 = reinterpret_cast<const float4*>(src);
        for (int q = t; q < quads; q += T) {
            const float4 v = src4[q];
            dst[4 * q] = v.x;
            dst[4 * q + 1] = v.y;
            dst[4 * q + 2] = v.z;
            dst[4 * q + 3] = v.w;
        }
        for (int i = 4 * quads + t; i < count; i += T)
            dst[i] = src[i];
    } else {
        for (int i = t; i < count; i += T)
            dst[i] = src[i * stride];
    }
}

/*!
 * NLMS over a.n samples, one block per filter (blockIdx.x), blockDim.x threads, K taps
 * per thread: thread t holds w[t + k*T]. Per sample, each thread folds the previous
 * sample's update into the taps it holds and at once forms its part of the next dot
 * product and of the norm (the tap update is fused with the next sample's dot
 * product, so w is touched once per sample, in registers); a butterfly of warp
 * shuffles and one barrier over 32 warp sums give every thread the same y and
 * x.x, hence the same step. Shared memory (nlms_shape.h): the window
 * [N-1 history | tile of x], the tile of d, two ping-pong buffers of warp sums.
 */
template <int K>
__global__ void __launch_bounds__(1024) nlms_kernel(args a)
{
    extern __shared__ float smem[];
    const int N = a.ntaps;
    const int C = a.tile;
    float* sx = smem;           // N - 1 + C: sample n0 - (N-1) + m at sx[m]
    float* sd = sx + N - 1 + C; // C
    float* red = sd + C;        // 2 x (32 dot sums, 32 norm sums)

    const int f = blockIdx.x;
    const int t = threadIdx.x, T = blockDim.x;
    const int lane = t & 31, warp = t >> 5, nwarps = T >> 5;
    float* w_state = a.taps + static_cast<long long>(f) * N;
    float* h_state = a.history + static_cast<long long>(f) * (N > 1 ? N - 1 : 1);
    const float* x = a.x + f * a.filter_stride;
    const float* d = a.d + f * a.filter_stride;
    float* e = a.e + f * a.filter_stride;
    const float mu = a.mu[f];
    const float eps = a.eps;

    float w[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int j = t + k * T;
        w[k] = j < N ? w_state[j] : 0.0f;
    }

    int parity = 0;
    for (long long n0 = 0; n0 < a.n; n0 += C) {
        const int c = static_cast<int>(a.n - n0 < C ? a.n - n0 : C);
        for (int i = t; i < N - 1; i += T)
            sx[i] = h_state[i];
        load_tile(sx + N - 1, x + n0 * a.sample_stride, a.sample_stride, c);
        load_tile(sd, d + n0 * a.sample_stride, a.sample_stride, c);
        __syncthreads();

        float g = 0.0f; // step of the previous sample, not yet in w
        float xp[K];    // x_{n-1} at this thread's taps
#pragma unroll
        for (int k = 0; k < K; ++k)
            xp[k] = 0.0f;
        for (int i = 0; i < c; ++i) {
            float acc = 0.0f, sq = 0.0f;
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const int j = t + k * T;
                const float xv = j < N ? sx[N - 1 + i - j] : 0.0f; // x[n0 + i - j]
                w[k] = fmaf(g, xp[k], w[k]);
                acc = fmaf(w[k], xv, acc);
                sq = fmaf(xv, xv, sq);
                xp[k] = xv;
            }
            // xor butterfly: every lane ends with the same bits (a + b == b + a).
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) {
                acc += __shfl_xor_sync(0xffffffffu, acc, o);
                sq += __shfl_xor_sync(0xffffffffu, sq, o);
            }
            if (nwarps > 1) { // block-uniform
                float* r = red + parity * 64;
                if (lane == 0) {
                    r[warp] = acc;
                    r[32 + warp] = sq;
                }
                // One barrier per sample: the other buffer is written next sample,
                // and every thread has read it before reaching this barrier.
                __syncthreads();
                acc = 0.0f;
                sq = 0.0f;
                for (int q = 0; q < nwarps; ++q) { // same order in every thread
                    acc += r[q];
                    sq += r[32 + q];
                }
                parity ^= 1;
            }
            const float err = sd[i] - acc;
            g = mu * err / (eps + sq);
            if (t == 0)
                e[(n0 + i) * a.sample_stride] = err;
        }
#pragma unroll
        for (int k = 0; k < K; ++k)
            w[k] = fmaf(g, xp[k], w[k]); // the tile's last update
        __syncthreads();                 // every read of sx (and of red) is done
        for (int i = t; i < N - 1; i += T)
            h_state[i] = sx[c + i]; // the newest N-1 of [history | tile]
        __syncthreads();            // visible to the next tile's loads
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int j = t + k * T;
        if (j < N)
            w_state[j] = w[k];
    }
}

} // namespace nlms_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
