/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/block_core.h"
#include "core/device_buffer.h"
#include "core/testing_hooks.h"
#include "cuda/common/device.h"
#include "cuda/stream/host_registry.h"
#include "cuda/stream/host_stream.h"
#include <gnuradio/gpufilter/device.h>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace testing {

namespace {
std::mutex s_cores_mutex;
std::map<long, const block_core*> s_cores; // live blocks by unique_id

template <class F>
int with_core(long unique_id, F&& f)
{
    std::lock_guard<std::mutex> lock(s_cores_mutex);
    const auto it = s_cores.find(unique_id);
    if (it == s_cores.end())
        throw std::out_of_range("unique_id: no GPU block " + std::to_string(unique_id));
    const cuda::host_stream* gpu = it->second->gpu_stream();
    return gpu ? f(*gpu) : device_cpu;
}
} // namespace

void fail_gpu_after(long calls) { cuda::testing::fail_after(calls); }

std::size_t page_locked_ranges() { return cuda::host_registration::process_ranges(); }

std::size_t hold_device_memory(int device, std::size_t leave_free)
{
    return cuda::testing::hold_device_memory(device, leave_free);
}

void release_device_memory() { cuda::testing::release_held_memory(); }

int block_memory_device(long unique_id)
{
    return with_core(unique_id,
                     [](const cuda::host_stream& s) { return s.memory_device(); });
}

int block_work_device(long unique_id)
{
    return with_core(unique_id,
                     [](const cuda::host_stream& s) { return s.last_call_device(); });
}

void register_core(long unique_id, const block_core* core)
{
    std::lock_guard<std::mutex> lock(s_cores_mutex);
    s_cores[unique_id] = core;
}

void unregister_core(long unique_id)
{
    std::lock_guard<std::mutex> lock(s_cores_mutex);
    s_cores.erase(unique_id);
}
void emulate_device_buffers(bool on) { device_buffer::set_emulation_for_tests(on); }

std::size_t device_buffer_bytes() { return cuda::ring_memory::live_device_bytes(); }

void fail_device_buffer_memory(bool on)
{
    cuda::ring_memory::fail_device_side_for_tests(on);
}

void emulated_ring_granularity(std::size_t bytes)
{
    cuda::ring_memory::set_emulated_granularity_for_tests(bytes);
}

} // namespace testing
} // namespace gpufilter
} // namespace gr
