/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTING_HOOKS_H
#define INCLUDED_GPUFILTER_TESTING_HOOKS_H

// Seams for the test suite's fault injection (python/gpufilter/bindings/
// test_hooks_python.cc, built for tests and never installed). Not public API.

#include <gnuradio/gpufilter/api.h>
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace testing {

//! GPU blocks made afterwards fail with a real CUDA error on their GPU call
//! calls+1; negative: off.
GPUFILTER_API void fail_gpu_after(long calls);

//! Host memory ranges GPU blocks keep page-locked now (leak checks).
GPUFILTER_API std::size_t page_locked_ranges();

//! Blocks on the CPU fallback made afterwards declare device buffers too, emulated in
//! host memory (device_buffer::set_emulation_for_tests).
GPUFILTER_API void emulate_device_buffers(bool on);

//! Bytes of device memory that device buffers hold now (emulated ones included).
GPUFILTER_API std::size_t device_buffer_bytes();

} // namespace testing
} // namespace gpufilter
} // namespace gr

#endif
