/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "host_registry.h"
#include "stream_observer.h"
#include <cuda_runtime.h>
#include <map>
#include <mutex>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
//! A page-locked range of the process.
struct locked_range {
    const char* end;
    int users;
    stream_observer* told; // of its locking, so of its unlocking too
};
struct registry {
    std::mutex lock;
    std::map<const char*, locked_range> ranges; // by begin
};
registry& process_registry()
{
    static registry r;
    return r;
}
} // namespace

host_registration::~host_registration()
{
    try {
        clear();
    } catch (...) { // nothing can act on a teardown error
    }
}

bool host_registration::contains(const void* p, std::size_t bytes) const
{
    const auto b = static_cast<const char*>(p);
    for (const auto& r : d_ranges)
        if (b >= r.begin && b + bytes <= r.end)
            return true;
    return false;
}

bool host_registration::add(const void* base, std::size_t bytes)
{
    if (!base || bytes == 0)
        return false;
    if (contains(base, bytes))
        return true;
    const auto b = static_cast<const char*>(base);
    registry& reg = process_registry();
    std::lock_guard<std::mutex> guard(reg.lock);
    const auto known = reg.ranges.find(b);
    if (known != reg.ranges.end() && known->second.end == b + bytes) {
        ++known->second.users; // another block's registration of this buffer: share it
        d_ranges.push_back({ b, b + bytes, true });
        d_note = "registered (shared)";
        return true;
    }
    // Portable: page-locked for every device's context, as blocks may differ in GPU.
    const cudaError_t e =
        cudaHostRegister(const_cast<char*>(b), bytes, cudaHostRegisterPortable);
    if (e == cudaSuccess) {
        stream_observer* observer = current_stream_observer();
        reg.ranges[b] = { b + bytes, 1, observer };
        if (observer)
            observer->host_memory_locked(b, bytes);
        d_ranges.push_back({ b, b + bytes, true });
        d_note = "registered";
        return true;
    }
    if (e == cudaErrorHostMemoryAlreadyRegistered) { // overlaps a range in use
        cudaGetLastError(); // not an error here; the owner keeps it locked
        d_ranges.push_back({ b, b + bytes, false });
        d_note = "inside memory registered elsewhere";
        return true;
    }
    cudaGetLastError(); // not sticky: the context stays usable, staging takes over
    d_note = std::string("cudaHostRegister failed (") + cudaGetErrorName(e) + ": " +
             cudaGetErrorString(e) + "), using pinned staging";
    return false;
}

void host_registration::clear()
{
    if (d_ranges.empty())
        return;
    registry& reg = process_registry();
    std::lock_guard<std::mutex> guard(reg.lock);
    for (const auto& r : d_ranges) {
        const auto it = reg.ranges.find(r.begin);
        if (!r.counted || it == reg.ranges.end() || --it->second.users > 0)
            continue;
        cudaHostUnregister(const_cast<char*>(r.begin)); // the last user unlocks
        if (it->second.told)
            it->second.told->host_memory_unlocked(r.begin, r.end - r.begin);
        reg.ranges.erase(it);
    }
    d_ranges.clear();
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
