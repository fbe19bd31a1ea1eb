/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda_check.h"
#include "device.h"
#include "resources.h"
#include <cuda_runtime_api.h>
#include <mutex>
#include <utility>
#include <vector>

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

namespace testing {

namespace {
std::mutex s_held_mutex;
std::vector<std::pair<int, void*>> s_held; // (device, allocation)
} // namespace

std::size_t hold_device_memory(int device, std::size_t leave_free)
{
    std::lock_guard<std::mutex> lock(s_held_mutex);
    GPUFILTER_CHECK(cudaSetDevice(device));
    std::size_t held = 0;
    for (std::size_t chunk = std::size_t(1) << 30; chunk >= (std::size_t(1) << 20);) {
        std::size_t free_bytes = 0, total = 0;
        GPUFILTER_CHECK(cudaMemGetInfo(&free_bytes, &total));
        if (free_bytes <= leave_free)
            break;
        if (free_bytes - leave_free < chunk) {
            chunk /= 2;
            continue;
        }
        void* p = nullptr;
        if (cudaMalloc(&p, chunk) != cudaSuccess) {
            cudaGetLastError(); // clear it: the failure is expected near the limit
            chunk /= 2;
            continue;
        }
        s_held.emplace_back(device, p);
        held += chunk;
    }
    return held;
}

void release_held_memory()
{
    std::lock_guard<std::mutex> lock(s_held_mutex);
    for (const auto& [device, p] : s_held) {
        cudaSetDevice(device);
        cudaFree(p);
    }
    s_held.clear();
}

} // namespace testing
} // namespace cuda
} // namespace gpufilter
} // namespace gr
