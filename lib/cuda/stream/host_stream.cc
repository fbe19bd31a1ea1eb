/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "host_stream_impl.h"
#include "stream_handoff.h"
#include "stream_observer.h"
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

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
    s.fit_processor();
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

    // A call of one sub-chunk has nothing to overlap: its copies go on the compute
    // stream, in order with the computation, which saves two waits between streams
    // on the small calls of a live stream.
    const bool one_slot = n <= s.sub_chunk;
    cudaStream_t upload = one_slot ? s.compute.get() : s.upload.get();
    cudaStream_t download = one_slot ? s.compute.get() : s.download.get();

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
                    slot.dev_in[p], src, bytes, cudaMemcpyHostToDevice, upload));
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
                                              upload));
        // Computations run in order on one stream: each call's state feeds the next.
        if (!one_slot) {
            slot.uploaded.record(upload);
            GPUFILTER_CHECK(cudaStreamWaitEvent(s.compute, slot.uploaded, 0));
        }
        slot.nout = s.proc->process(
            slot.dev_in_ptrs.data(), count, slot.dev_out_ptrs.data(), s.compute);
        if (slot.nout > s.slot_outputs)
            throw std::logic_error("processor wrote more than max_output_count()");
        if (!one_slot) {
            slot.computed.record(s.compute);
            GPUFILTER_CHECK(cudaStreamWaitEvent(download, slot.computed, 0));
        }
        const bool bundle_out = bundled(slot.host_out, ports.out_item_bytes, slot.nout);
        if (bundle_out && slot.nout > 0)
            GPUFILTER_CHECK(cudaMemcpy2DAsync(slot.host_out[0],
                                              slot.host_out.pitch(),
                                              slot.dev_out[0],
                                              slot.dev_out.pitch(),
                                              slot.nout * ports.out_item_bytes[0],
                                              nout_ports,
                                              cudaMemcpyDeviceToHost,
                                              download));
        for (std::size_t q = 0; q < nout_ports; ++q) {
            const std::size_t item = ports.out_item_bytes[q];
            char* dst = static_cast<char*>(out[q]) + written * item;
            const bool direct = in_place_out[q] && !bundle_out;
            if (!bundle_out)
                GPUFILTER_CHECK(cudaMemcpyAsync(direct ? dst : slot.host_out[q],
                                                slot.dev_out[q],
                                                slot.nout * item,
                                                cudaMemcpyDeviceToHost,
                                                download));
            slot.copy_to[q] = direct ? nullptr : dst;
            s.from_device += slot.nout * item;
        }
        slot.downloaded.record(download);
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
    d_impl->fit_processor();
    d_impl->proc->set_history(host, d_impl->compute);
}

std::size_t host_stream::history_items() const { return d_impl->proc->history_items(); }

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

void host_stream::set_max_chunk(std::size_t max_chunk)
{
    if (max_chunk == 0)
        throw std::invalid_argument("max_chunk: must be > 0");
    impl& s = *d_impl;
    use_device(s.device);
    s.sub_chunk = sub_chunk_for(max_chunk);
    s.refit();
}

cudaStream_t processor::control_stream() const
{
    if (!d_control_stream)
        throw std::logic_error("a processor's control needs the stream of its host path");
    use_device(d_device);
    return d_control_stream;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
