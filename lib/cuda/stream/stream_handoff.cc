/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "stream_handoff.h"
#include <mutex>
#include <utility>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

struct stream_handoff::impl {
    explicit impl(int dev) : device(dev) {}

    int device;
    std::mutex lock; // the reader list, and each event between record and wait
    event written;   // after each of the writer's calls (waiting before any: no wait)
    std::vector<std::pair<const void*, event>> reads; // each reader's last call
};

stream_handoff::stream_handoff(int device)
{
    const device_scope on(device); // the event is made on the ring's device
    d_impl = std::make_unique<impl>(device);
}

stream_handoff::~stream_handoff() = default;

void stream_handoff::before_write(CUstream_st* s)
{
    std::lock_guard<std::mutex> hold(d_impl->lock);
    for (auto& [reader, read] : d_impl->reads)
        GPUFILTER_CHECK(cudaStreamWaitEvent(s, read.get(), 0));
}

void stream_handoff::after_write(CUstream_st* s)
{
    std::lock_guard<std::mutex> hold(d_impl->lock);
    d_impl->written.record(s);
}

void stream_handoff::before_read(CUstream_st* s)
{
    std::lock_guard<std::mutex> hold(d_impl->lock);
    GPUFILTER_CHECK(cudaStreamWaitEvent(s, d_impl->written.get(), 0));
}

void stream_handoff::after_read(const void* reader, CUstream_st* s)
{
    std::lock_guard<std::mutex> hold(d_impl->lock);
    for (auto& [who, read] : d_impl->reads)
        if (who == reader) {
            read.record(s);
            return;
        }
    const device_scope on(d_impl->device);
    d_impl->reads.emplace_back(reader, event());
    d_impl->reads.back().second.record(s);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
