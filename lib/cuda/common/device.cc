/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda_check.h"
#include "device.h"
#include "device_diagnosis.h"
#include "resources.h"
#include <cuda_runtime_api.h>
#include <dlfcn.h>

namespace gr {
namespace gpufilter {
namespace cuda {

static_assert(cuda_error_insufficient_driver == cudaErrorInsufficientDriver);
static_assert(cuda_error_no_device == cudaErrorNoDevice);

namespace {
bool driver_loadable()
{
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib) // not loaded yet by the runtime: can it be?
        lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return false;
    dlclose(lib);
    return true;
}

//! An attribute of the current device (cudaDeviceGetAttribute), throwing with CUDA's
//! message where the runtime fails.
int current_device_attribute(cudaDeviceAttr attribute)
{
    int device = 0, value = 0;
    GPUFILTER_CHECK(cudaGetDevice(&device));
    GPUFILTER_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
}
} // namespace

int device_count(std::string* why_none)
{
    device_probe probe;
    const cudaError_t err = cudaGetDeviceCount(&probe.device_count);
    if (err == cudaSuccess && probe.device_count > 0)
        return probe.device_count;
    cudaGetLastError(); // clear it: no driver is a normal answer here
    if (why_none) {
        probe.error = err;
        probe.error_name = cudaGetErrorName(err);
        probe.error_text = cudaGetErrorString(err);
        probe.driver_loadable = driver_loadable();
        cudaDriverGetVersion(&probe.driver_version);
        cudaRuntimeGetVersion(&probe.runtime_version);
        *why_none = why_no_device(probe);
    }
    return err == cudaSuccess ? probe.device_count : 0;
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

std::size_t current_device_shared_memory_per_block()
{
    return static_cast<std::size_t>(
        current_device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
}

std::size_t current_device_shared_memory_per_multiprocessor()
{
    return static_cast<std::size_t>(
        current_device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
}

std::size_t current_device_reserved_shared_memory_per_block()
{
    return static_cast<std::size_t>(
        current_device_attribute(cudaDevAttrReservedSharedMemoryPerBlock));
}

int current_device_multiprocessors()
{
    return current_device_attribute(cudaDevAttrMultiProcessorCount);
}

int current_device_arch()
{
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) !=
            cudaSuccess) {
        cudaGetLastError(); // clear it: no device is a normal answer here
        return 0;
    }
    return 10 * major + minor;
}
} // namespace cuda
} // namespace gpufilter
} // namespace gr
