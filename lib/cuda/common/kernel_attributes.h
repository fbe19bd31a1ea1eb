/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_KERNEL_ATTRIBUTES_H
#define INCLUDED_GPUFILTER_CUDA_KERNEL_ATTRIBUTES_H

#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * Lets `kernel` launch on the current device with `bytes` of dynamic shared memory:
 * past 48 KB a kernel must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize).
 * The attribute belongs to the kernel on one device, not to a launch, so it is set
 * once per (device, kernel) and only ever raised: launch code may call this before
 * every launch at the cost of a lock and a lookup, where the CUDA call costs about a
 * microsecond, and an engine that needs less never lowers what another engine of the
 * same kernel set. Thread-safe. Throws cuda_error as GPUFILTER_CHECK does.
 *
 * The record assumes the device's context lives as long as the process (nothing in
 * the library resets a device).
 */
void allow_dynamic_shared_memory(const void* kernel, std::size_t bytes);

template <class Kernel>
void allow_dynamic_shared_memory(Kernel* kernel, std::size_t bytes)
{
    allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), bytes);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
