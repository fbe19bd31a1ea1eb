/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_COMPLEX_TO_REAL_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_COMPLEX_TO_REAL_KERNELS_CUH

// Device code of complex_to_real_engine: a copy of the real parts (memory-bound).

#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace complex_to_real_kernels {

//! out[i] = in[i].x for i < total.
__global__ void real_part(const float2* in, float* out, long long total)
{
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         i < total;
         i += stride)
        out[i] = in[i].x;
}

} // namespace complex_to_real_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
