/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/block_observer.h"
#include "cuda/stream/host_stream.h"
#include <gnuradio/gpufilter/device.h>
#include <atomic>

namespace gr {
namespace gpufilter {

namespace {
std::atomic<block_observer*> s_observer{ nullptr };
} // namespace

block_observer* set_block_observer(block_observer* observer)
{
    // The engine tells it the rest: one object for both layers.
    cuda::set_stream_observer(observer);
    return s_observer.exchange(observer);
}

bool emulate_device_buffers_on_cpu()
{
    block_observer* observer = s_observer.load();
    return observer && observer->emulate_device_buffers();
}

observed_core::observed_core(long unique_id, const cuda::host_stream* gpu)
    : d_unique_id(unique_id), d_gpu(gpu), d_told(s_observer.load())
{
    if (d_told)
        d_told->block_made(*this);
}

observed_core::~observed_core()
{
    if (d_told)
        d_told->block_destroyed(*this);
}

int observed_core::memory_device() const
{
    return d_gpu ? d_gpu->memory_device() : device_cpu;
}

int observed_core::last_call_device() const
{
    return d_gpu ? d_gpu->last_call_device() : device_cpu;
}

} // namespace gpufilter
} // namespace gr
