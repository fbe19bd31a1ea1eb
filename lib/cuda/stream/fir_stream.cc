/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "../fir/fir_processor.h"
#include "fir_stream.h"
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// Three slots keep the three stages (upload, filter, download) busy at once.
constexpr std::size_t slots = 3;
// A sub-chunk is a quarter of the largest call, so one call already pipelines, but
// not below 16384 samples: each costs a few microseconds of API calls, which would
// then outweigh the copies they overlap.
constexpr std::size_t min_sub_chunk = 16384;

std::size_t sub_chunk_for(std::size_t max_chunk)
{
    return std::min(max_chunk, std::max(min_sub_chunk, (max_chunk + 3) / 4));
}

struct host_range {
    const char* begin;
    const char* end;
    bool counted; // holds a reference in the registry below
};

/*!
 * Page-locked ranges of this process, with how many fir_streams use each. GNU Radio
 * buffers are shared: a buffer feeding several GPU blocks, or between two GPU blocks,
 * is used by each. Blocks stop one by one, so the first to stop must not unlock memory
 * that another is still copying from: the last user unlocks it.
 */
struct registry {
    std::mutex lock;
    std::map<const char*, std::pair<const char*, int>> ranges; // begin -> (end, users)
};
registry& host_registry()
{
    static registry r;
    return r;
}

} // namespace

template <class In, class Tap>
struct fir_stream<In, Tap>::impl {
    //! One sub-chunk's resources; busy until its download has been waited for.
    struct slot {
        explicit slot(std::size_t n) : host_in(n), host_out(n), dev_in(n), dev_out(n) {}
        pinned_buffer<In> host_in;
        pinned_buffer<out_type> host_out; // decimation only shrinks: n outputs at most
        device_buffer<In> dev_in;
        device_buffer<out_type> dev_out;
        event uploaded, filtered, downloaded;
        bool busy = false;
        out_type* copy_to = nullptr; // staged output still to be copied out, or null
        std::size_t nout = 0;
    };

    impl(int dev,
         const std::vector<Tap>& taps,
         int decimation,
         std::size_t max_chunk,
         fir_method requested)
        : device((use_device(dev), dev)),
          decimation(decimation),
          requested(requested),
          processor(make_fir_processor<In, Tap>(taps, decimation, requested)),
          sub_chunk(sub_chunk_for(max_chunk))
    {
        for (auto& s : ring)
            s = std::make_unique<slot>(sub_chunk);
    }

    //! Waits for a slot's download and moves its staged output to the caller.
    void retire(slot& s)
    {
        if (!s.busy)
            return;
        s.busy = false;
        s.downloaded.synchronize();
        if (s.copy_to)
            std::memcpy(s.copy_to, s.host_out.get(), s.nout * sizeof(out_type));
    }

    bool registered(const void* p, std::size_t bytes) const
    {
        const auto b = static_cast<const char*>(p);
        for (const auto& r : host)
            if (b >= r.begin && b + bytes <= r.end)
                return true;
        return false;
    }

    int device;
    int decimation;
    fir_method requested;
    bool rotating = false;
    // Test hook: GPUFILTER_TEST_FAIL_AFTER=N makes call N+1 of process() issue an
    // invalid copy, a real CUDA error, so tests can check that a failing GPU stops a
    // flowgraph with CUDA's message instead of hanging it. Read once, here.
    long fail_after = std::getenv("GPUFILTER_TEST_FAIL_AFTER")
                          ? std::atol(std::getenv("GPUFILTER_TEST_FAIL_AFTER"))
                          : -1;
    long calls = 0;
    std::unique_ptr<fir_processor<In, Tap>> processor;
    std::size_t sub_chunk;
    std::array<std::unique_ptr<slot>, slots> ring;
    stream upload, compute, download;
    std::vector<host_range> host;
    std::string note = "no host memory registered";
};

template <class In, class Tap>
fir_stream<In, Tap>::fir_stream(int device,
                                const std::vector<Tap>& taps,
                                int decimation,
                                std::size_t max_chunk,
                                const std::string& method)
{
    if (max_chunk == 0)
        throw std::invalid_argument("max_chunk: must be > 0");
    d_impl = std::make_unique<impl>(
        device, taps, decimation, max_chunk, parse_fir_method(method));
}

template <class In, class Tap>
fir_stream<In, Tap>::~fir_stream()
{
    if (d_impl) {
        try {
            unregister_host_memory();
        } catch (...) { // nothing can act on a teardown error
        }
    }
}
template <class In, class Tap>
fir_stream<In, Tap>::fir_stream(fir_stream&&) noexcept = default;
template <class In, class Tap>
fir_stream<In, Tap>& fir_stream<In, Tap>::operator=(fir_stream&&) noexcept = default;

template <class In, class Tap>
void fir_stream<In, Tap>::set_taps(const std::vector<Tap>& taps)
{
    impl& s = *d_impl;
    use_device(s.device);
    const fir_method wanted =
        choose_fir_method<In, Tap>(taps.size(), s.decimation, s.requested);
    if (wanted == s.processor->method()) {
        s.processor->set_taps(taps, s.compute);
        s.compute.synchronize();
        return;
    }
    // Another algorithm is faster for the new length: a fresh engine (zero history),
    // which continues the rotation where the old one left it.
    const rotation r = s.processor->next_rotation();
    s.processor = make_fir_processor<In, Tap>(taps, s.decimation, wanted);
    if (s.rotating)
        s.processor->set_rotation(r);
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_history(const In* samples)
{
    use_device(d_impl->device);
    d_impl->processor->set_history(samples, d_impl->compute);
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_rotation(const rotation& r)
{
    d_impl->processor->set_rotation(r);
    d_impl->rotating = true;
}

template <class In, class Tap>
rotation fir_stream<In, Tap>::next_rotation() const
{
    return d_impl->processor->next_rotation();
}

template <class In, class Tap>
std::size_t fir_stream<In, Tap>::output_count(std::size_t n) const
{
    return d_impl->processor->output_count(n);
}

template <class In, class Tap>
std::size_t fir_stream<In, Tap>::process(const In* in, std::size_t n, out_type* out)
{
    impl& s = *d_impl;
    use_device(s.device);
    if (s.fail_after >= 0 && s.calls++ >= s.fail_after)
        GPUFILTER_CHECK(cudaMemcpyAsync(
            nullptr, s.ring[0]->host_in.get(), 1, cudaMemcpyHostToDevice, s.upload));
    for (auto& slot : s.ring) // a call that threw may have left slots behind
        slot->busy = false;

    const bool in_place_in = s.registered(in, n * sizeof(In));
    const bool in_place_out = s.registered(out, output_count(n) * sizeof(out_type));
    std::size_t written = 0;
    std::size_t next = 0;
    for (std::size_t done = 0; done < n; next = (next + 1) % slots) {
        auto& slot = *s.ring[next];
        s.retire(slot); // the slot's previous sub-chunk is out of all its buffers
        const std::size_t count = std::min(s.sub_chunk, n - done);

        const In* src = in + done;
        if (!in_place_in) {
            std::memcpy(slot.host_in.get(), src, count * sizeof(In));
            src = slot.host_in.get();
        }
        GPUFILTER_CHECK(cudaMemcpyAsync(slot.dev_in.get(),
                                        src,
                                        count * sizeof(In),
                                        cudaMemcpyHostToDevice,
                                        s.upload));
        slot.uploaded.record(s.upload);

        // Kernels run in order on one stream: each call's history feeds the next.
        GPUFILTER_CHECK(cudaStreamWaitEvent(s.compute, slot.uploaded, 0));
        slot.nout =
            s.processor->process(slot.dev_in.get(), count, slot.dev_out.get(), s.compute);
        slot.filtered.record(s.compute);

        GPUFILTER_CHECK(cudaStreamWaitEvent(s.download, slot.filtered, 0));
        out_type* dst = in_place_out ? out + written : slot.host_out.get();
        GPUFILTER_CHECK(cudaMemcpyAsync(dst,
                                        slot.dev_out.get(),
                                        slot.nout * sizeof(out_type),
                                        cudaMemcpyDeviceToHost,
                                        s.download));
        slot.downloaded.record(s.download);
        slot.copy_to = in_place_out ? nullptr : out + written;
        slot.busy = true;

        written += slot.nout;
        done += count;
    }
    for (std::size_t i = 0; i < slots; ++i) // oldest first
        s.retire(*s.ring[(next + i) % slots]);
    return written;
}

template <class In, class Tap>
bool fir_stream<In, Tap>::register_host_memory(const void* base, std::size_t bytes)
{
    impl& s = *d_impl;
    if (!base || bytes == 0)
        return false;
    if (s.registered(base, bytes))
        return true;
    use_device(s.device);
    const auto b = static_cast<const char*>(base);
    registry& reg = host_registry();
    std::lock_guard<std::mutex> guard(reg.lock);
    const auto known = reg.ranges.find(b);
    if (known != reg.ranges.end() && known->second.first == b + bytes) {
        ++known->second.second; // another block's buffer registration: share it
        s.host.push_back({ b, b + bytes, true });
        s.note = "registered (shared)";
        return true;
    }
    // Portable: page-locked for every device's context, as blocks may differ in GPU.
    const cudaError_t e =
        cudaHostRegister(const_cast<char*>(b), bytes, cudaHostRegisterPortable);
    if (e == cudaSuccess) {
        reg.ranges[b] = { b + bytes, 1 };
        s.host.push_back({ b, b + bytes, true });
        s.note = "registered";
        return true;
    }
    if (e == cudaErrorHostMemoryAlreadyRegistered) { // overlaps a range in use
        cudaGetLastError(); // not an error here; the owner keeps it locked
        s.host.push_back({ b, b + bytes, false });
        s.note = "inside memory registered elsewhere";
        return true;
    }
    cudaGetLastError(); // not sticky: the context stays usable, staging takes over
    s.note = std::string("cudaHostRegister failed (") + cudaGetErrorName(e) + ": " +
             cudaGetErrorString(e) + "), using pinned staging";
    return false;
}

template <class In, class Tap>
void fir_stream<In, Tap>::unregister_host_memory()
{
    impl& s = *d_impl;
    if (s.host.empty())
        return;
    use_device(s.device);
    registry& reg = host_registry();
    std::lock_guard<std::mutex> guard(reg.lock);
    for (const auto& r : s.host) {
        const auto it = reg.ranges.find(r.begin);
        if (!r.counted || it == reg.ranges.end() || --it->second.second > 0)
            continue;
        cudaHostUnregister(const_cast<char*>(r.begin)); // the last user unlocks
        reg.ranges.erase(it);
    }
    s.host.clear();
}

template <class In, class Tap>
const std::string& fir_stream<In, Tap>::registration_note() const
{
    return d_impl->note;
}

template <class In, class Tap>
int fir_stream<In, Tap>::ntaps() const
{
    return d_impl->processor->ntaps();
}

template <class In, class Tap>
int fir_stream<In, Tap>::device() const
{
    return d_impl->device;
}

template <class In, class Tap>
const char* fir_stream<In, Tap>::method() const
{
    return fir_method_name(d_impl->processor->method());
}

template class fir_stream<float, float>;
template class fir_stream<complex, float>;
template class fir_stream<complex, complex>;
template class fir_stream<float, complex>;
template class fir_stream<std::int16_t, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
