/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda/stream/host_registry.h"
#include "cuda/stream/host_stream.h"
#include "device_buffer.h"
#include "testing_hooks.h"

namespace gr {
namespace gpufilter {
namespace testing {

void fail_gpu_after(long calls) { cuda::testing::fail_after(calls); }

std::size_t page_locked_ranges() { return cuda::host_registration::process_ranges(); }

void emulate_device_buffers(bool on) { device_buffer::set_emulation_for_tests(on); }

std::size_t device_buffer_bytes() { return cuda::mirrored_memory::live_device_bytes(); }

} // namespace testing
} // namespace gpufilter
} // namespace gr
