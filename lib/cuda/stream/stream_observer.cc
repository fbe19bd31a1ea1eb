/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stream_observer.h"
#include <atomic>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
// Read on every GPU call: an atomic load is all a call pays when none is installed.
std::atomic<stream_observer*> s_observer{ nullptr };
} // namespace

stream_observer* set_stream_observer(stream_observer* observer)
{
    return s_observer.exchange(observer);
}

stream_observer* current_stream_observer() { return s_observer.load(); }

void observe_gpu_call(const gpu_call& call)
{
    if (stream_observer* observer = s_observer.load())
        observer->before_call(call);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
