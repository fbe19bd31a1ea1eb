/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/block_core.h"
#include "core/block_observer.h"
#include "core/device_selection.h"
#include "core/parameter_checks.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_double_mapped.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufilter {

namespace {

//! The whole mapping of a double-mapped buffer: two copies of bufsize items, back to
//! back, since a window may run on into the second copy; a device_buffer's host side
//! when its items live there. Other buffer kinds: none.
std::pair<const void*, std::size_t> mapping_of(const gr::buffer_sptr& buf)
{
    if (std::dynamic_pointer_cast<device_buffer>(buf)) // its host side, when in use
        return device_buffer::on_device(buf) ? std::pair<const void*, std::size_t>{}
                                             : device_buffer::host_side(buf);
    if (!buf || !std::dynamic_pointer_cast<gr::buffer_double_mapped>(buf))
        return { nullptr, 0 };
    return { buf->base(), 2 * std::size_t(buf->bufsize()) * buf->get_sizeof_item() };
}

} // namespace

block_core::block_core(gr::block& block,
                       gr::logger_ptr logger,
                       int device,
                       block_rate rate,
                       int batch_size,
                       double max_latency,
                       const backends& make)
    : d_block(block),
      d_logger(std::move(logger)),
      d_device(select_device(device, d_logger)),
      d_gate(block, batch_size, checked_max_latency(max_latency), rate),
      d_account(std::make_shared<transfer_account>())
{
    if (d_device == device_cpu)
        d_cpu = make.cpu();
    else
        d_gpu = make_gpu(make, batch_size);
    d_observed = std::make_unique<observed_core>(d_block.unique_id(), d_gpu.get());
    // Read once, when the block is made: its ports' buffer types are fixed from here.
    // Never on the CPU fallback, unless the block_observer has them emulated there.
    d_device_buffers = get_device_buffers() &&
                       (d_gpu || emulate_device_buffers_on_cpu()) &&
                       runtime_supports_device_buffers(d_logger);
    d_account->device = d_gpu ? d_device : cuda::ring_memory::emulated;
    d_account->device_buffers = d_device_buffers;
}

block_core::~block_core() = default;

std::unique_ptr<cuda::host_stream> block_core::make_gpu(const backends& make,
                                                        int batch_size)
{
    try {
        return make.gpu(d_device, static_cast<std::size_t>(batch_size));
    } catch (const std::exception& e) {
        if (!cuda::is_out_of_memory(e))
            throw;
        // CUDA's "out of memory" alone does not say which block or what to change.
        std::string free_now = "unknown";
        try {
            free_now = std::to_string(cuda_device_free_memory(d_device) >> 20) + " MiB";
        } catch (const std::exception&) {
        }
        throw std::runtime_error(d_block.name() + ": cannot allocate its GPU buffers " +
                                 "for batch_size " + std::to_string(batch_size) +
                                 " on CUDA device " + std::to_string(d_device) + " (" +
                                 free_now + " free); give a smaller batch_size or " +
                                 "free GPU memory (" + e.what() + ")");
    }
}

void block_core::set_max_chunk(std::size_t items)
{
    if (d_gpu)
        d_gpu->set_max_chunk(items);
}

uint64_t block_core::bytes_to_device() const
{
    return d_gpu ? d_gpu->bytes_to_device() : 0;
}

uint64_t block_core::bytes_from_device() const
{
    return d_gpu ? d_gpu->bytes_from_device() : 0;
}

std::string block_core::method() const { return d_gpu ? d_gpu->method() : "cpu"; }

void block_core::start()
{
    d_gate.start();
    // A (re)started flowgraph has fresh, zero-filled buffers: take the history from
    // GNU Radio's window again, as gr-filter does by reading it.
    d_history_stale = true;
    if (d_cpu)
        d_cpu->restart();
    find_resident_ports();
    if (d_gpu && get_host_transfer() == host_transfer::dma_in_place)
        register_buffers();
}

void block_core::find_resident_ports()
{
    d_in_handoff.clear();
    d_out_handoff.clear();
    d_resident = false;
    d_orphaned = false;
    const auto detail = d_block.detail();
    if (!detail)
        return;
    for (int p = 0; p < detail->ninputs(); ++p) {
        const auto buf = detail->input(p)->buffer();
        d_in_handoff.push_back(device_buffer::handoff(buf));
        // GNU Radio 3.10.5 can leave a reader on a buffer its writer no longer writes
        // (an output replaced twice, see device_buffer.cc); it would wait for ever.
        gr::block_sptr writer;
        try {
            writer = buf->link();
        } catch (const std::bad_weak_ptr&) {
        }
        if (writer && writer->detail()) {
            bool written = false;
            for (int q = 0; q < writer->detail()->noutputs(); ++q)
                written = written || writer->detail()->output(q) == buf;
            if (!written) {
                d_orphaned = true;
                d_logger->error(
                    "input {} reads a buffer that {} no longer writes (GNU Radio 3.10 "
                    "replaced that output for another reader's custom buffer type): "
                    "stopping instead of waiting for ever. Put a blocks.copy after {} "
                    "for each block with a custom buffer type that it feeds",
                    p,
                    writer->alias(),
                    writer->alias());
            }
        }
    }
    for (int q = 0; q < detail->noutputs(); ++q)
        d_out_handoff.push_back(device_buffer::handoff(detail->output(q)));
    const auto on_device = [](const std::vector<cuda::stream_handoff*>& ports) {
        return std::count_if(
            ports.begin(), ports.end(), [](const auto* h) { return h != nullptr; });
    };
    const auto in_on_device = on_device(d_in_handoff);
    const auto out_on_device = on_device(d_out_handoff);
    d_resident = d_gpu && in_on_device + out_on_device > 0;
    if (d_device_buffers || d_resident) // else it would say "0 of n" on every start
        d_logger->debug("ports in device memory: {} of {} inputs, {} of {} outputs",
                        in_on_device,
                        d_in_handoff.size(),
                        out_on_device,
                        d_out_handoff.size());
}

void block_core::stop()
{
    d_gate.stop();
    if (!d_gpu)
        return;
    // Before GNU Radio frees its buffers: nothing queued may still touch them.
    d_gpu->wait_for_queued_work();
    d_gpu->unregister_host_memory();
}

void block_core::register_buffers()
{
    const auto detail = d_block.detail();
    if (!detail)
        return;
    std::vector<gr::buffer_sptr> buffers;
    for (int p = 0; p < detail->ninputs(); ++p)
        buffers.push_back(detail->input(p)->buffer());
    for (int q = 0; q < detail->noutputs(); ++q)
        buffers.push_back(detail->output(q));
    bool in_place = true;
    for (const auto& buf : buffers) {
        const auto [base, bytes] = mapping_of(buf);
        in_place = d_gpu->register_host_memory(base, bytes) && in_place;
    }
    d_logger->debug("host transfers: {} ({})",
                    in_place ? "DMA in place" : "pinned staging",
                    d_gpu->registration_note());
}

void block_core::set_max_latency(double seconds)
{
    d_gate.set_max_latency(checked_max_latency(seconds));
}

void block_core::set_input_streams(unsigned streams)
{
    d_streams = std::max(1u, streams);
    d_gate.set_input_streams(d_streams);
    const auto rate = d_gate.port_rate();
    d_block.set_relative_rate(rate.interpolation, rate.decimation);
    if (d_input_history > 0)
        set_history(d_input_history);
}

void block_core::set_history(unsigned items)
{
    d_input_history = std::max(1u, items);
    // Each stream's old items, interleaved, must cover the input's: the window starts
    // (old items of the streams) - (old items of the input) items early.
    d_block.set_history(d_streams == 1
                            ? d_input_history
                            : (d_input_history - 1 + d_streams - 1) / d_streams + 1);
}

const void* block_core::interleave(const gr_vector_const_void_star& windows,
                                   std::size_t nnew)
{
    const std::size_t item = d_block.input_signature()->sizeof_stream_item(0);
    const std::size_t n = d_streams;
    const std::size_t per_port = d_block.history() - 1 + nnew / n;
    d_interleaved.resize(per_port * n * item); // grows on the first calls only
    char* dst = d_interleaved.data();
    if (item == sizeof(std::uint64_t)) { // a complex float: the channelizers' case
        auto* out = reinterpret_cast<std::uint64_t*>(dst);
        for (std::size_t p = 0; p < n; ++p) {
            const auto* in = static_cast<const std::uint64_t*>(windows[p]);
            for (std::size_t k = 0; k < per_port; ++k)
                out[k * n + p] = in[k];
        }
    } else {
        for (std::size_t p = 0; p < n; ++p)
            for (std::size_t k = 0; k < per_port; ++k)
                std::memcpy(dst + (k * n + p) * item,
                            static_cast<const char*>(windows[p]) + k * item,
                            item);
    }
    const std::size_t skip = (d_block.history() - 1) * n - (d_input_history - 1);
    return dst + skip * item;
}

void block_core::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    const auto needed =
        d_gate.port_rate().inputs_for(static_cast<std::uint64_t>(noutput_items)) +
        d_block.history() - 1;
    const int wanted = std::max(static_cast<int>(needed), d_gate.min_input_items());
    std::fill(ninput_items_required.begin(), ninput_items_required.end(), wanted);
}

int block_core::process(const gr_vector_const_void_star& windows,
                        std::size_t nnew,
                        gr_vector_void_star& out)
{
    if (d_orphaned)
        return gr::block::WORK_DONE; // logged in start()
    d_largest_batch = std::max<uint64_t>(d_largest_batch, nnew);
    d_gate.computed();
    std::size_t written = 0;
    const bool ok = guarded([&] {
        const gr_vector_const_void_star* input = &windows;
        std::size_t old_items = d_block.history() - 1;
        if (d_streams > 1) { // gr-filter's layout: the one input's window from them
            d_one_window.assign(1, interleave(windows, nnew));
            input = &d_one_window;
            old_items = d_input_history - 1;
        }
        written = d_gpu ? process_on_gpu(*input, old_items, nnew, out)
                        : d_cpu->process(input->data(), nnew, out.data());
    });
    return ok ? static_cast<int>(written) : gr::block::WORK_DONE;
}

std::size_t block_core::process_on_gpu(const gr_vector_const_void_star& windows,
                                       std::size_t old_items,
                                       std::size_t nnew,
                                       gr_vector_void_star& out)
{
    // windows[p] + old items: the new ones; the GPU keeps its own history, and takes
    // it from the window's newest old items when GNU Radio's rules say so.
    const std::size_t gpu_history = d_gpu->history_items();
    if (gpu_history > old_items)
        throw std::logic_error("the GPU's history is longer than the block's");
    const auto& item_bytes = d_block.input_signature()->sizeof_stream_items();
    auto& fresh = d_fresh_items;
    auto& history = d_history_items;
    fresh.resize(windows.size()); // allocates on the first call only
    history.resize(windows.size());
    for (std::size_t p = 0; p < windows.size(); ++p) {
        const auto base = static_cast<const char*>(windows[p]);
        const std::size_t item = item_bytes[std::min(p, item_bytes.size() - 1)];
        fresh[p] = base + old_items * item;
        history[p] = base + (old_items - gpu_history) * item;
    }
    if (d_resident) { // some ports in device memory: the engine reads them in place
        if (d_history_stale) {
            d_gpu->set_history_resident(history.data(), d_in_handoff.data());
            d_history_stale = false;
        }
        return d_gpu->process_resident(
            fresh.data(), d_in_handoff.data(), nnew, out.data(), d_out_handoff.data());
    }
    if (d_history_stale) { // first call, or new taps: GNU Radio's window rules
        d_gpu->set_history(history.data());
        d_history_stale = false;
    }
    return d_gpu->process(fresh.data(), nnew, out.data());
}

void block_core::log_failure(const std::exception& e) const
{
    // An exception leaving work() would end the block's thread silently and hang the
    // flowgraph; process() returns WORK_DONE instead, so the flowgraph stops.
    d_logger->error("GPU filtering failed, stopping this flowgraph: {}", e.what());
    // With GNU Radio's logger off (or above error) the flowgraph would just end:
    // say why on stderr then, once per block (a failed block is done).
    if (d_logger->get_level() > spdlog::level::err)
        std::cerr << d_block.alias()
                  << ": GPU filtering failed, stopping this flowgraph: " << e.what()
                  << std::endl;
}

} // namespace gpufilter
} // namespace gr
