/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda_check.h"
#include "kernel_attributes.h"
#include <cuda_runtime_api.h>
#include <map>
#include <mutex>
#include <utility>

namespace gr {
namespace gpufilter {
namespace cuda {

void allow_dynamic_shared_memory(const void* kernel, std::size_t bytes)
{
    int device = 0;
    GPUFILTER_CHECK(cudaGetDevice(&device));
    // The largest size set so far per (device, kernel): engines on several host
    // threads launch the same kernels.
    static std::mutex s_mutex;
    static std::map<std::pair<int, const void*>, std::size_t> s_allowed;
    const std::lock_guard<std::mutex> lock(s_mutex);
    const std::pair<int, const void*> key{ device, kernel };
    const auto it = s_allowed.find(key);
    if (it != s_allowed.end() && it->second >= bytes)
        return;
    // Set under the lock, so that a smaller size set on another thread cannot land
    // after a larger one.
    GPUFILTER_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    s_allowed[key] = bytes;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
