/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_QUADRATURE_DEMOD_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_QUADRATURE_DEMOD_KERNELS_CUH

// Device code of the quadrature demodulator (both layouts). Memory-bound: one pass over
// the input, one over the output; the previous sample of a thread's output is its
// neighbour's input (a cache hit), except at the start of a call, where it comes from the
// kept history.

#include "quadrature_math.h"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace demod_kernels {

constexpr int table_size = 257;
constexpr int block_threads = 256;

struct demod_args {
    const float2* in;
    float* out;
    const float2* prev; // channels samples: each channel's sample before this call
    float2* next_prev;  // the other history row: each channel's last sample
    const float* table; // fast_atan2f_table()
    long long n;        // items (samples per channel) in this call
    long long channels;
    float gain;
};

__device__ __forceinline__ void load_table(float* shared, const float* table)
{
    for (int i = threadIdx.x; i < table_size; i += blockDim.x)
        shared[i] = table[i];
    __syncthreads();
}

__device__ __forceinline__ float
demod_one(float2 x, float2 p, float gain, const float* table)
{
    return quadrature::demod_sample(x.x, x.y, p.x, p.y, gain, table);
}

//! Interleaved: element e = t*channels + c; its previous sample is e - channels.
__global__ void __launch_bounds__(block_threads) demod_interleaved(demod_args a)
{
    __shared__ float table[table_size];
    load_table(table, a.table);
    const long long total = a.n * a.channels;
    const long long last_row = total - a.channels;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         e < total;
         e += stride) {
        const float2 x = a.in[e];
        const float2 p = e >= a.channels ? a.in[e - a.channels] : a.prev[e];
        a.out[e] = demod_one(x, p, a.gain, table);
        if (e >= last_row)
            a.next_prev[e - last_row] = x;
    }
}

//! Channel-major: row c (blockIdx.y) holds channel c's n samples.
__global__ void __launch_bounds__(block_threads) demod_channel_major(demod_args a)
{
    __shared__ float table[table_size];
    load_table(table, a.table);
    const long long c = blockIdx.y;
    const float2* in = a.in + c * a.n;
    float* out = a.out + c * a.n;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         t < a.n;
         t += stride) {
        const float2 x = in[t];
        const float2 p = t > 0 ? in[t - 1] : a.prev[c];
        out[t] = demod_one(x, p, a.gain, table);
        if (t == a.n - 1)
            a.next_prev[c] = x;
    }
}

} // namespace demod_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
