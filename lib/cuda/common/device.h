/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEVICE_H
#define INCLUDED_GPUFILTER_CUDA_DEVICE_H

#include <cstddef>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Number of usable CUDA devices; 0 when there is no driver or no device, with the
//! reason in `why_none` (CUDA's message) when it is given.
int device_count(std::string* why_none = nullptr);

//! "NVIDIA H100 80GB HBM3 (sm_90)" for a device index that exists.
std::string device_name(int device);

//! Free device memory in bytes (cudaMemGetInfo) on a device index that exists.
std::size_t device_free_memory(int device);

/*!
 * The current device's compute capability as 10 * major + minor (90 for an H100), the
 * key of the engines' tuning tables; 0 where no device is usable. Never throws: the
 * engines' default tuning asks for it before they check their parameters.
 */
int current_device_arch();

//! The most shared memory one block of the current device may opt in to, in bytes
//! (227 KB on sm_90, 99 KB on sm_86 and sm_89, 64 KB on sm_75): what decides which
//! block FFT sizes a kernel can run there.
std::size_t current_device_shared_memory_per_block();
//! Shared memory one multiprocessor of the current device holds for all its blocks,
//! and what the device keeps of it for each block (cudaDevAttrReservedSharedMemory-
//! PerBlock).
std::size_t current_device_shared_memory_per_multiprocessor();
std::size_t current_device_reserved_shared_memory_per_block();
//! The current device's multiprocessors (132 on an H100 SXM).
int current_device_multiprocessors();

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
