/* SPDX-License-Identifier: GPL-3.0-or-later */
// host_stream's path for ports whose items are already in device memory (GNU Radio
// buffers in device memory between GPU blocks).
#include "host_stream_impl.h"
#include "stream_handoff.h"
#include "stream_observer.h"
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

std::size_t host_stream::process_resident(const void* const* in,
                                          stream_handoff* const* device_in,
                                          std::size_t n,
                                          void* const* out,
                                          stream_handoff* const* device_out)
{
    impl& s = *d_impl;
    use_device(s.device);
    s.fit_processor();
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
    s.fit_processor();
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

} // namespace cuda
} // namespace gpufilter
} // namespace gr
