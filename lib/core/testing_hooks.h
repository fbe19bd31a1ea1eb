/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTING_HOOKS_H
#define INCLUDED_GPUFILTER_TESTING_HOOKS_H

// Seams for the test suite's fault injection (python/gpufilter/bindings/
// test_hooks_python.cc, built for tests and never installed). Not public API.

#include <gnuradio/gpufilter/api.h>
#include <cstddef>

namespace gr {
namespace gpufilter {

class block_core;

namespace testing {

//! GPU blocks made afterwards fail with a real CUDA error on their GPU call
//! calls+1; negative: off.
GPUFILTER_API void fail_gpu_after(long calls);

//! Host memory ranges GPU blocks keep page-locked now (leak checks).
GPUFILTER_API std::size_t page_locked_ranges();

//! Fills device `device` until at most leave_free bytes are free; returns the bytes
//! held. release_device_memory() gives them back.
GPUFILTER_API std::size_t hold_device_memory(int device, std::size_t leave_free);
GPUFILTER_API void release_device_memory();

//! For the block with this unique_id(): the CUDA device that holds its GPU buffers
//! (cudaPointerGetAttributes), and the device current in its work thread during its
//! last GPU call (-1 before one). device_cpu for a block on the CPU fallback;
//! std::out_of_range when no live GPU block has this id.
GPUFILTER_API int block_memory_device(long unique_id);
GPUFILTER_API int block_work_device(long unique_id);

//! block_core's registration, so that the two functions above find it.
void register_core(long unique_id, const block_core* core);
void unregister_core(long unique_id);
//! Blocks on the CPU fallback made afterwards declare device buffers too, emulated in
//! host memory (device_buffer::set_emulation_for_tests).
GPUFILTER_API void emulate_device_buffers(bool on);

//! Bytes of device memory that device buffers hold now (emulated ones included).
GPUFILTER_API std::size_t device_buffer_bytes();

//! While on, the device memory of device buffers cannot be made (emulated included),
//! as when none is left.
GPUFILTER_API void fail_device_buffer_memory(bool on);

//! The granularity of emulated device buffers' rings in bytes (0: a host page); a
//! GPU's is 2 MiB.
GPUFILTER_API void emulated_ring_granularity(std::size_t bytes);

} // namespace testing
} // namespace gpufilter
} // namespace gr

#endif
