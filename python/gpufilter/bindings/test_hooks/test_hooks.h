/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TEST_HOOKS_H
#define INCLUDED_GPUFILTER_TEST_HOOKS_H

// The test suite's fault injection and probes (the gpufilter_test_hooks module, built
// for tests only and never installed). Built on the library's block_observer, which
// this module installs, and on CUDA calls of the module's own.

#include <cstddef>

struct CUstream_st;

namespace gr {
namespace gpufilter {
namespace test_hooks {

//! Installs the module's observer in the library; once, when the module is imported,
//! so it sees every block, stream and buffer the tests make.
void install_observer();

//! GPU blocks made afterwards fail with a real CUDA error on their GPU call calls+1;
//! negative: off.
void fail_gpu_after(long calls);

//! Host memory ranges GPU blocks keep page-locked now (leak checks).
std::size_t page_locked_ranges();

//! For the block with this unique_id(): the CUDA device that holds its GPU buffers,
//! and the device current in its work thread during its last GPU call (-1 before one).
//! device_cpu for a block on the CPU fallback; std::out_of_range when no live GPU block
//! has this id.
int block_memory_device(long unique_id);
int block_work_device(long unique_id);

//! Blocks on the CPU fallback made afterwards declare device buffers too, emulated in
//! host memory.
void emulate_device_buffers(bool on);

//! Bytes of device memory that device buffers hold now (emulated ones included).
std::size_t device_buffer_bytes();

//! While on, the device memory of device buffers cannot be made (emulated included),
//! as when none is left.
void fail_device_buffer_memory(bool on);

//! The granularity of emulated device buffers' rings in bytes (0: a host page); a
//! GPU's is 2 MiB.
void emulated_ring_granularity(std::size_t bytes);

// cuda_faults.cc: through the module's own CUDA runtime, which shares the library's
// CUDA contexts (each device's primary context), so its memory and errors are real.

//! Fills device `device` until at most leave_free bytes are free; returns the bytes
//! held. release_device_memory() gives them back.
std::size_t hold_device_memory(int device, std::size_t leave_free);
void release_device_memory();

//! Queues an invalid copy on `stream` and throws CUDA's error for it, as the library's
//! own check of a failed CUDA call would.
[[noreturn]] void fail_with_invalid_copy(CUstream_st* stream);

} // namespace test_hooks
} // namespace gpufilter
} // namespace gr

#endif
