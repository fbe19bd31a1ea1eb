/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gnuradio/gpufilter/transfer.h>
#include <atomic>

namespace gr {
namespace gpufilter {

namespace {
std::atomic<host_transfer> s_host_transfer{ host_transfer::dma_in_place };
// On: chains of GPU blocks keep their samples in device memory (docs/architecture.md,
// "Device buffers"); off is for measurement, and the escape hatch.
std::atomic<bool> s_device_buffers{ true };
} // namespace

void set_host_transfer(host_transfer mode) { s_host_transfer = mode; }

host_transfer get_host_transfer() { return s_host_transfer; }

void set_device_buffers(bool on) { s_device_buffers = on; }

bool get_device_buffers() { return s_device_buffers; }

} // namespace gpufilter
} // namespace gr
