/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "host_registry.h"
#include "host_stream.h"
#include "port_slab.h"
#include "processor.h"
#include "stream_handoff.h"
#include "stream_observer.h"
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// Three slots keep the three stages (upload, compute, download) busy at once.
constexpr std::size_t slots = 3;
// A sub-chunk is a quarter of the largest call, so one call already pipelines, but
// not below 16384 items: each costs a few microseconds of API calls, which would
// then outweigh the copies they overlap.
constexpr std::size_t min_sub_chunk = 16384;

// Ports of a side move in one 2D copy through staging (port_slab) when each holds
// less than this in a sub-chunk: a copy's fixed cost (about 5 us) is then worth more
// than the host copy into or out of staging, at about 10 GB/s.
constexpr std::size_t bundle_below_bytes = 64 * 1024;

//! Whether a side's ports move in one copy: several of one item size, each small.
template <class Slab>
bool bundled(const Slab& slab, const std::vector<std::size_t>& item_bytes, std::size_t n)
{
    return item_bytes.size() > 1 && slab.pitch() != 0 &&
           n * item_bytes.front() < bundle_below_bytes;
}

} // namespace

std::size_t sub_chunk_for(std::size_t max_chunk)
{
    return std::min(max_chunk, std::max(min_sub_chunk, (max_chunk + 3) / 4));
}

bool is_out_of_memory(const std::exception& e)
{
    const auto* c = dynamic_cast<const cuda_error*>(&e);
    // CUFFT_ALLOC_FAILED has the same value; both mean "too little memory".
    return c && (c->code() == cudaErrorMemoryAllocation ||
                 c->code() == static_cast<int>(CUFFT_ALLOC_FAILED));
}

struct host_stream::impl {
    //! One sub-chunk's resources; busy until its download has been waited for.
    struct slot {
        slot(const port_layout& ports, std::size_t n_in, std::size_t n_out)
            : host_in(ports.in_item_bytes, n_in),
              dev_in(ports.in_item_bytes, n_in),
              host_out(ports.out_item_bytes, n_out),
              dev_out(ports.out_item_bytes, n_out),
              copy_to(ports.out_item_bytes.size(), nullptr)
        {
            for (char* p : dev_in.ports())
                dev_in_ptrs.push_back(p);
            dev_out_ptrs = { dev_out.ports().begin(), dev_out.ports().end() };
        }
        port_slab<pinned_buffer<char>> host_in;
        port_slab<device_buffer<char>> dev_in;
        port_slab<pinned_buffer<char>> host_out;
        port_slab<device_buffer<char>> dev_out;
        std::vector<const void*> dev_in_ptrs;
        std::vector<void*> dev_out_ptrs;
        event computed;
        event uploaded{ event_use::host_wait }, downloaded{ event_use::host_wait };
        bool busy = false;
        std::vector<char*> copy_to; // staged output still to be copied out, or null
        std::size_t nout = 0;
    };

    impl(int dev, std::unique_ptr<processor> p, std::size_t max_chunk)
        : device((use_device(dev), dev)),
          proc(std::move(p)),
          sub_chunk(sub_chunk_for(max_chunk)),
          in_place_in(proc->ports().in_item_bytes.size()),
          in_place_out(proc->ports().out_item_bytes.size())
    {
        allocate_slots();
    }

    void allocate_slots()
    {
        const port_layout& ports = proc->ports();
        const std::size_t n_out = proc->max_output_count(sub_chunk);
        for (auto& s : ring)
            s = std::make_unique<slot>(ports, sub_chunk, n_out);
        slot_outputs = n_out;
    }

    //! Waits for a slot's download and moves its staged output to the caller.
    void retire(slot& s)
    {
        if (!s.busy)
            return;
        s.busy = false;
        s.downloaded.synchronize();
        const auto& out_bytes = proc->ports().out_item_bytes;
        for (std::size_t q = 0; q < out_bytes.size(); ++q)
            if (s.copy_to[q])
                std::memcpy(s.copy_to[q], s.host_out[q], s.nout * out_bytes[q]);
    }

    int device;
    std::unique_ptr<processor> proc;
    std::size_t sub_chunk;
    std::size_t slot_outputs = 0;
    int last_call_device = -1;
    stream_observer* observer = current_stream_observer(); // told of its making and end
    std::vector<char> in_place_in, in_place_out; // per port: registered, so no staging
    std::array<std::unique_ptr<slot>, slots> ring;
    stream upload, compute, download;
    host_registration host;
    std::atomic<std::uint64_t> to_device{ 0 }, from_device{ 0 };
    // process_resident's per-port pointers and set_history_resident's host copies.
    std::vector<const void*> resident_in;
    std::vector<void*> resident_out;
    std::vector<std::vector<char>> history_copy;
    std::vector<const void*> history_ptrs;
};

host_stream::host_stream(int device, std::unique_ptr<processor> p, std::size_t max_chunk)
{
    if (max_chunk == 0)
        throw std::invalid_argument("max_chunk: must be > 0");
    if (!p)
        throw std::invalid_argument("processor: must not be null");
    d_impl = std::make_unique<impl>(device, std::move(p), max_chunk);
    if (d_impl->observer)
        d_impl->observer->stream_made(this, device);
}

host_stream::~host_stream()
{
    if (d_impl->observer)
        d_impl->observer->stream_destroyed(this);
}

std::size_t host_stream::output_count(std::size_t n) const
{
    return d_impl->proc->output_count(n);
}

std::size_t host_stream::process(const void* const* in, std::size_t n, void* const* out)
{
    impl& s = *d_impl;
    use_device(s.device);
    GPUFILTER_CHECK(cudaGetDevice(&s.last_call_device));
    observe_gpu_call({ this, s.device, s.compute });
    for (auto& slot : s.ring) // a call that threw may have left slots behind
        slot->busy = false;

    const port_layout& ports = s.proc->ports();
    const std::size_t nin_ports = ports.in_item_bytes.size();
    const std::size_t nout_ports = ports.out_item_bytes.size();
    const std::size_t total_out = output_count(n);
    auto& in_place_in = s.in_place_in; // sized when made: no allocation per call
    auto& in_place_out = s.in_place_out;
    for (std::size_t p = 0; p < nin_ports; ++p)
        in_place_in[p] = s.host.contains(in[p], n * ports.in_item_bytes[p]);
    for (std::size_t q = 0; q < nout_ports; ++q)
        in_place_out[q] = s.host.contains(out[q], total_out * ports.out_item_bytes[q]);

    std::size_t written = 0;
    std::size_t next = 0;
    for (std::size_t done = 0; done < n; next = (next + 1) % slots) {
        auto& slot = *s.ring[next];
        s.retire(slot); // the slot's previous sub-chunk is out of all its buffers
        const std::size_t count = std::min(s.sub_chunk, n - done);

        const bool bundle_in = bundled(slot.host_in, ports.in_item_bytes, count);
        for (std::size_t p = 0; p < nin_ports; ++p) {
            const std::size_t bytes = count * ports.in_item_bytes[p];
            const char* src =
                static_cast<const char*>(in[p]) + done * ports.in_item_bytes[p];
            if (bundle_in || !in_place_in[p]) {
                std::memcpy(slot.host_in[p], src, bytes);
                src = slot.host_in[p];
            }
            if (!bundle_in)
                GPUFILTER_CHECK(cudaMemcpyAsync(
                    slot.dev_in[p], src, bytes, cudaMemcpyHostToDevice, s.upload));
            s.to_device += bytes;
        }
        if (bundle_in)
            GPUFILTER_CHECK(cudaMemcpy2DAsync(slot.dev_in[0],
                                              slot.dev_in.pitch(),
                                              slot.host_in[0],
                                              slot.host_in.pitch(),
                                              count * ports.in_item_bytes[0],
                                              nin_ports,
                                              cudaMemcpyHostToDevice,
                                              s.upload));
        slot.uploaded.record(s.upload);

        // Computations run in order on one stream: each call's state feeds the next.
        GPUFILTER_CHECK(cudaStreamWaitEvent(s.compute, slot.uploaded, 0));
        slot.nout = s.proc->process(
            slot.dev_in_ptrs.data(), count, slot.dev_out_ptrs.data(), s.compute);
        if (slot.nout > s.slot_outputs)
            throw std::logic_error("processor wrote more than max_output_count()");
        slot.computed.record(s.compute);

        GPUFILTER_CHECK(cudaStreamWaitEvent(s.download, slot.computed, 0));
        const bool bundle_out = bundled(slot.host_out, ports.out_item_bytes, slot.nout);
        if (bundle_out && slot.nout > 0)
            GPUFILTER_CHECK(cudaMemcpy2DAsync(slot.host_out[0],
                                              slot.host_out.pitch(),
                                              slot.dev_out[0],
                                              slot.dev_out.pitch(),
                                              slot.nout * ports.out_item_bytes[0],
                                              nout_ports,
                                              cudaMemcpyDeviceToHost,
                                              s.download));
        for (std::size_t q = 0; q < nout_ports; ++q) {
            const std::size_t item = ports.out_item_bytes[q];
            char* dst = static_cast<char*>(out[q]) + written * item;
            const bool direct = in_place_out[q] && !bundle_out;
            if (!bundle_out)
                GPUFILTER_CHECK(cudaMemcpyAsync(direct ? dst : slot.host_out[q],
                                                slot.dev_out[q],
                                                slot.nout * item,
                                                cudaMemcpyDeviceToHost,
                                                s.download));
            slot.copy_to[q] = direct ? nullptr : dst;
            s.from_device += slot.nout * item;
        }
        slot.downloaded.record(s.download);
        slot.busy = true;

        written += slot.nout;
        done += count;
    }
    for (std::size_t i = 0; i < slots; ++i) // oldest first
        s.retire(*s.ring[(next + i) % slots]);
    return written;
}

void host_stream::set_history(const void* const* host)
{
    use_device(d_impl->device);
    d_impl->proc->set_history(host, d_impl->compute);
}

std::size_t host_stream::history_items() const { return d_impl->proc->history_items(); }

std::size_t host_stream::process_resident(const void* const* in,
                                          stream_handoff* const* device_in,
                                          std::size_t n,
                                          void* const* out,
                                          stream_handoff* const* device_out)
{
    impl& s = *d_impl;
    use_device(s.device);
    observe_gpu_call({ this, s.device, s.compute });
    const port_layout& ports = s.proc->ports();
    const std::size_t nin_ports = ports.in_item_bytes.size();
    const std::size_t nout_ports = ports.out_item_bytes.size();
    s.resident_in.resize(nin_ports); // allocates on the first call only
    s.resident_out.resize(nout_ports);
    bool host_in = false, host_out = false;
    for (std::size_t p = 0; p < nin_ports; ++p)
        if (device_in[p])
            device_in[p]->before_read(s.compute);
        else
            host_in = true;
    for (std::size_t q = 0; q < nout_ports; ++q)
        if (device_out[q])
            device_out[q]->before_write(s.compute);
        else
            host_out = true;

    // The host path's sub-chunks, so an engine sees the calls it always sees. Host
    // ports go round the slots as in process(), the upload of one sub-chunk and the
    // download of another overlapping a computation; every wait between the streams
    // is queued on the GPU, none made on the host inside the loop.
    std::size_t written = 0;
    std::size_t next = 0;
    impl::slot* last = nullptr;
    for (std::size_t done = 0; done < n; next = (next + 1) % slots) {
        auto& slot = *s.ring[next];
        last = &slot;
        const std::size_t count = std::min(s.sub_chunk, n - done);
        if (host_in) // the slot's input buffers: read by its last computation first
            GPUFILTER_CHECK(cudaStreamWaitEvent(s.upload, slot.computed, 0));
        for (std::size_t p = 0; p < nin_ports; ++p) {
            const std::size_t item = ports.in_item_bytes[p];
            const char* src = static_cast<const char*>(in[p]) + done * item;
            s.resident_in[p] = device_in[p] ? src : slot.dev_in[p];
            if (device_in[p])
                continue;
            GPUFILTER_CHECK(cudaMemcpyAsync(
                slot.dev_in[p], src, count * item, cudaMemcpyHostToDevice, s.upload));
            s.to_device += count * item;
        }
        if (host_in) {
            slot.uploaded.record(s.upload);
            GPUFILTER_CHECK(cudaStreamWaitEvent(s.compute, slot.uploaded, 0));
        }
        if (host_out) // the slot's output buffers: copied out by its last download first
            GPUFILTER_CHECK(cudaStreamWaitEvent(s.compute, slot.downloaded, 0));
        for (std::size_t q = 0; q < nout_ports; ++q)
            s.resident_out[q] = device_out[q] ? static_cast<char*>(out[q]) +
                                                    written * ports.out_item_bytes[q]
                                              : slot.dev_out[q];
        const std::size_t nout = s.proc->process(
            s.resident_in.data(), count, s.resident_out.data(), s.compute);
        if (nout > s.slot_outputs)
            throw std::logic_error("processor wrote more than max_output_count()");
        slot.computed.record(s.compute);
        if (host_out) {
            GPUFILTER_CHECK(cudaStreamWaitEvent(s.download, slot.computed, 0));
            for (std::size_t q = 0; q < nout_ports; ++q) {
                if (device_out[q])
                    continue;
                const std::size_t item = ports.out_item_bytes[q];
                GPUFILTER_CHECK(
                    cudaMemcpyAsync(static_cast<char*>(out[q]) + written * item,
                                    slot.dev_out[q],
                                    nout * item,
                                    cudaMemcpyDeviceToHost,
                                    s.download));
                s.from_device += nout * item;
            }
            slot.downloaded.record(s.download);
        }
        written += nout;
        done += count;
    }
    for (std::size_t p = 0; p < nin_ports; ++p)
        if (device_in[p])
            device_in[p]->after_read(d_impl.get(), s.compute);
    for (std::size_t q = 0; q < nout_ports; ++q)
        if (device_out[q])
            device_out[q]->after_write(s.compute);
    // GNU Radio reuses a host input's space, and a host block reads a host output, as
    // soon as work() returns. The last download follows every computation and upload.
    if (last && host_out)
        last->downloaded.synchronize();
    else if (last && host_in)
        last->uploaded.synchronize();
    return written;
}

void host_stream::set_history_resident(const void* const* items,
                                       stream_handoff* const* device_in)
{
    impl& s = *d_impl;
    use_device(s.device);
    const auto& in_bytes = s.proc->ports().in_item_bytes;
    const std::size_t len = s.proc->history_items();
    s.history_copy.resize(in_bytes.size());
    s.history_ptrs.resize(in_bytes.size());
    for (std::size_t p = 0; p < in_bytes.size(); ++p) {
        if (!device_in[p] || len == 0) {
            s.history_ptrs[p] = items[p];
            continue;
        }
        auto& copy = s.history_copy[p];
        copy.resize(len * in_bytes[p]);
        device_in[p]->before_read(s.compute); // the writer's GPU may still be writing
        GPUFILTER_CHECK(cudaMemcpyAsync(
            copy.data(), items[p], copy.size(), cudaMemcpyDeviceToHost, s.compute));
        s.compute.synchronize();
        s.history_ptrs[p] = copy.data();
    }
    s.proc->set_history(s.history_ptrs.data(), s.compute);
}

std::uint64_t host_stream::bytes_to_device() const { return d_impl->to_device; }

std::uint64_t host_stream::bytes_from_device() const { return d_impl->from_device; }

bool host_stream::register_host_memory(const void* base, std::size_t bytes)
{
    use_device(d_impl->device);
    return d_impl->host.add(base, bytes);
}

void host_stream::unregister_host_memory()
{
    use_device(d_impl->device);
    d_impl->host.clear();
}

void host_stream::wait_for_queued_work()
{
    use_device(d_impl->device);
    cudaStreamSynchronize(d_impl->upload.get());
    cudaStreamSynchronize(d_impl->compute.get());
    cudaStreamSynchronize(d_impl->download.get());
}

const std::string& host_stream::registration_note() const { return d_impl->host.note(); }

int host_stream::device() const { return d_impl->device; }

int host_stream::memory_device() const
{
    cudaPointerAttributes attributes{};
    GPUFILTER_CHECK(
        cudaPointerGetAttributes(&attributes, d_impl->ring[0]->dev_in_ptrs.at(0)));
    return attributes.device;
}

int host_stream::last_call_device() const { return d_impl->last_call_device; }

const char* host_stream::method() const { return d_impl->proc->method(); }

processor& host_stream::current() { return *d_impl->proc; }

const processor& host_stream::current() const { return *d_impl->proc; }

void host_stream::replace(std::unique_ptr<processor> p)
{
    impl& s = *d_impl;
    use_device(s.device);
    s.compute.synchronize(); // nothing queued may still use the old one
    const bool bigger = p->max_output_count(s.sub_chunk) > s.slot_outputs;
    // Other ports (a channelizer with another number of outputs): new slots.
    const bool reshaped = p->ports().in_item_bytes != s.proc->ports().in_item_bytes ||
                          p->ports().out_item_bytes != s.proc->ports().out_item_bytes;
    for (auto& slot : s.ring)
        s.retire(*slot);
    s.proc = std::move(p);
    if (reshaped) {
        s.in_place_in.assign(s.proc->ports().in_item_bytes.size(), 0);
        s.in_place_out.assign(s.proc->ports().out_item_bytes.size(), 0);
    }
    if (bigger || reshaped)
        s.allocate_slots();
}

void host_stream::fit_outputs()
{
    impl& s = *d_impl;
    if (s.proc->max_output_count(s.sub_chunk) <= s.slot_outputs)
        return;
    use_device(s.device);
    s.compute.synchronize();
    for (auto& slot : s.ring)
        s.retire(*slot);
    s.allocate_slots();
}

void host_stream::set_max_chunk(std::size_t max_chunk)
{
    if (max_chunk == 0)
        throw std::invalid_argument("max_chunk: must be > 0");
    impl& s = *d_impl;
    use_device(s.device);
    s.compute.synchronize();
    for (auto& slot : s.ring)
        s.retire(*slot);
    s.sub_chunk = sub_chunk_for(max_chunk);
    s.allocate_slots();
}

CUstream_st* host_stream::compute_stream()
{
    use_device(d_impl->device);
    return d_impl->compute;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
