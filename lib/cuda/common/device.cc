/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda_check.h"
#include "device.h"
#include <cuda_runtime_api.h>

namespace gr {
namespace gpufilter {
namespace cuda {

int device_count(std::string* why_none)
{
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        cudaGetLastError(); // clear it: no driver is a normal answer here
        if (why_none)
            *why_none =
                std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
        return 0;
    }
    if (n == 0 && why_none)
        *why_none = "the CUDA driver reports no device";
    return n;
}

std::string device_name(int device)
{
    cudaDeviceProp prop;
    GPUFILTER_CHECK(cudaGetDeviceProperties(&prop, device));
    return std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
           std::to_string(prop.minor) + ")";
}

std::size_t device_free_memory(int device)
{
    GPUFILTER_CHECK(cudaSetDevice(device));
    std::size_t free_bytes = 0, total_bytes = 0;
    GPUFILTER_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
