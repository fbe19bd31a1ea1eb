/* SPDX-License-Identifier: GPL-3.0-or-later */
// The hooks that need CUDA itself. This module links a CUDA runtime of its own; both
// runtimes work in each device's primary context, so memory held here is missing to
// the library, and a stream of the library's is a stream here too.

#include "test_hooks.h"
#include <cuda_runtime_api.h>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test_hooks {

namespace {

std::mutex s_held_mutex;
std::vector<std::pair<int, void*>> s_held; // (device, allocation)

//! CUDA's name and message for `err`, in the words of the library's own check.
std::string cuda_message(cudaError_t err, const char* call)
{
    return std::string("CUDA error: ") + cudaGetErrorName(err) + ": " +
           cudaGetErrorString(err) + " (code " + std::to_string(err) + ") in " + call;
}

void check(cudaError_t err, const char* call)
{
    if (err != cudaSuccess) {
        cudaGetLastError(); // out of the last-error slot, as the library does
        throw std::runtime_error(cuda_message(err, call));
    }
}

} // namespace

std::size_t hold_device_memory(int device, std::size_t leave_free)
{
    std::lock_guard<std::mutex> lock(s_held_mutex);
    check(cudaSetDevice(device), "cudaSetDevice");
    std::size_t held = 0;
    for (std::size_t chunk = std::size_t(1) << 30; chunk >= (std::size_t(1) << 20);) {
        std::size_t free_bytes = 0, total = 0;
        check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
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

void release_device_memory()
{
    std::lock_guard<std::mutex> lock(s_held_mutex);
    for (const auto& [device, p] : s_held) {
        cudaSetDevice(device);
        cudaFree(p);
    }
    s_held.clear();
}

void fail_with_invalid_copy(CUstream_st* stream)
{
    static char byte = 0;
    // A null destination: CUDA refuses the copy (cudaErrorInvalidValue) and the stream
    // and its context stay usable, like a bad call of the library's own.
    check(cudaMemcpyAsync(nullptr, &byte, 1, cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync to a null device pointer (fail_gpu_after)");
    throw std::logic_error("fail_gpu_after: CUDA accepted a copy to a null pointer");
}

} // namespace test_hooks
} // namespace gpufilter
} // namespace gr
