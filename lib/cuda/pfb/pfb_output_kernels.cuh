/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_OUTPUT_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_OUTPUT_KERNELS_CUH

// Device code of the PFB engines' output stages, after the inverse FFT (channelizer,
// decimator with the FFT rotator) or straight after the branch FIR (decimator with
// the exp rotator). Templates on the complex type (float2) only so that the header
// defines no kernel twice.

#include "../common/device_math.cuh"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_kernels {

constexpr int transpose_tile = 32;
constexpr int transpose_rows = 8; // blockDim = (transpose_tile, transpose_rows)

/*!
 * ports[k][offset + t] = rows[t*N + map[k]] for t < nsteps, k < nports: the rows of
 * channels (one per step) out to one stream per mapped channel. A 32 x 32 tile goes
 * through shared memory so that reads run along a row (consecutive map entries) and
 * writes along a port. Grid: (ceil(nsteps / 32), ceil(nports / 32)).
 */
template <class C>
__global__ void __launch_bounds__(transpose_tile* transpose_rows)
    rows_to_ports(const C* __restrict__ rows,
                  int N,
                  long long nsteps,
                  const int* __restrict__ map,
                  int nports,
                  C* const* __restrict__ ports,
                  long long offset)
{
    __shared__ C tile[transpose_tile][transpose_tile + 1];
    const long long t0 = static_cast<long long>(blockIdx.x) * transpose_tile;
    const int k0 = blockIdx.y * transpose_tile;
    const int tx = threadIdx.x;
    for (int i = threadIdx.y; i < transpose_tile; i += transpose_rows) {
        const long long t = t0 + i;
        const int k = k0 + tx;
        if (t < nsteps && k < nports)
            tile[i][tx] = rows[t * N + map[k]];
    }
    __syncthreads();
    for (int i = threadIdx.y; i < transpose_tile; i += transpose_rows) {
        const int k = k0 + i;
        const long long t = t0 + tx;
        if (k < nports && t < nsteps)
            ports[k][offset + t] = tile[tx][i];
    }
}

//! out[t] = rows[t*N + c], t < nsteps: one channel of the rows.
template <class C>
__global__ void pick_column(
    const C* __restrict__ rows, int N, long long nsteps, int c, C* __restrict__ out)
{
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < nsteps)
        out[t] = rows[t * N + c];
}

/*!
 * out[t] = sum_f rows[t*N + f] * rot[f], t < nsteps: pfb_decimator_ccf's rotate and
 * add (work_fir_exp), one warp per step. Launch with a multiple of 32 threads per
 * block; a warp whose step is past the end leaves as a whole.
 */
template <class C>
__global__ void rotate_sum(const C* __restrict__ rows,
                           int N,
                           long long nsteps,
                           const C* __restrict__ rot,
                           C* __restrict__ out)
{
    const long long gid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long t = gid / 32;
    const int lane = threadIdx.x % 32;
    if (t >= nsteps)
        return;
    const C* row = rows + t * N;
    float re = 0.0f, im = 0.0f;
    for (int f = lane; f < N; f += 32) {
        const C x = row[f], r = rot[f];
        re = fmaf(x.x, r.x, fmaf(-x.y, r.y, re));
        im = fmaf(x.x, r.y, fmaf(x.y, r.x, im));
    }
    for (int d = 16; d > 0; d /= 2) {
        re += __shfl_down_sync(0xffffffffu, re, d);
        im += __shfl_down_sync(0xffffffffu, im, d);
    }
    if (lane == 0)
        out[t] = make_float2(re, im);
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
