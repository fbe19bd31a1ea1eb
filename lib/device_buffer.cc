/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "device_buffer.h"
#include <gnuradio/block.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/logger.h>
#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {

std::atomic<bool> s_emulation{ false };

std::shared_ptr<transfer_account> account_of(const gr::block_sptr& b)
{
    const auto client = dynamic_cast<const device_buffer_client*>(b.get());
    return client ? client->transfer_account_ptr() : nullptr;
}

gr::block_sptr alive(const gr::buffer_reader* r)
{
    try {
        return r->link();
    } catch (const std::bad_weak_ptr&) {
        return nullptr;
    }
}

} // namespace

void device_buffer::set_emulation_for_tests(bool on) { s_emulation = on; }

bool device_buffer::emulation_for_tests() { return s_emulation; }

gr::buffer_type device_buffer::type(gr::buftype<device_buffer, device_buffer>{});

gr::buffer_sptr device_buffer::make_buffer(int nitems,
                                           std::size_t sizeof_item,
                                           std::uint64_t downstream_lcm_nitems,
                                           std::uint32_t downstream_max_out_mult,
                                           gr::block_sptr link,
                                           gr::block_sptr buf_owner)
{
    auto account = account_of(buf_owner);
    // GPU blocks declare this type on their outputs only, so GNU Radio makes it for
    // its writer (block::allocate_buffer) and never to replace another block's.
    if (!account || !link || link != buf_owner)
        throw std::runtime_error("device_buffer: only a gpufilter block's output can be "
                                 "a buffer in device memory");
    return gr::buffer_sptr(new device_buffer(nitems,
                                             sizeof_item,
                                             downstream_lcm_nitems,
                                             downstream_max_out_mult,
                                             link,
                                             std::move(account)));
}

device_buffer::device_buffer(int nitems,
                             std::size_t sizeof_item,
                             std::uint64_t downstream_lcm_nitems,
                             std::uint32_t downstream_max_out_mult,
                             gr::block_sptr link,
                             std::shared_ptr<transfer_account> account)
    // No owner: buffer_single_mapped keeps it as a shared_ptr that nothing in the
    // runtime reads, and it would close a cycle (block -> detail -> buffer -> block)
    // that keeps blocks, buffers and device memory alive for ever.
    : gr::buffer_single_mapped(nitems,
                               sizeof_item,
                               downstream_lcm_nitems,
                               downstream_max_out_mult,
                               link,
                               gr::block_sptr()),
      d_account(std::move(account))
{
    gr::configure_default_loggers(d_logger, d_debug_logger, "device_buffer");
    if (!allocate_buffer(nitems))
        throw std::bad_alloc();
}

device_buffer::~device_buffer() = default;

bool device_buffer::do_allocate_buffer(std::size_t final_nitems, std::size_t sizeof_item)
{
    d_memory = std::make_unique<cuda::mirrored_memory>(d_account->device,
                                                       final_nitems * sizeof_item);
    d_base = d_memory->host();
    return true;
}

gr::io_signature::sptr device_buffer::with_type(const gr::io_signature::sptr& sig)
{
    const auto sizes = sig->sizeof_stream_items();
    return gr::io_signature::makev(sig->min_streams(),
                                   sig->max_streams(),
                                   sizes,
                                   gr::gr_vector_buffer_type(sizes.size(), type));
}

char* device_buffer::home()
{
    std::lock_guard<std::mutex> lock(d_home_lock);
    if (d_home && d_home_for == d_readers)
        return d_home;
    // Readers change only while the flowgraph is stopped (start, lock/unlock); a
    // buffer decides once per set of readers. Device memory when every reader is a
    // GPU block with device buffers on the writer's device.
    bool device = !d_readers.empty() && d_account->device_buffers;
    for (const auto* r : d_readers) {
        const auto reader = alive(r);
        const auto account = reader ? account_of(reader) : nullptr;
        if (!account || !account->device_buffers || account->device != d_account->device)
            device = false;
    }
    if (d_home && device != d_on_device)
        d_logger->warn("readers changed between device and host while samples may be "
                       "in the buffer; they are not carried over");
    d_on_device = device;
    d_home = device ? d_memory->device() : d_memory->host();
    d_home_for = d_readers;
    return d_home;
}

bool device_buffer::on_device()
{
    home();
    std::lock_guard<std::mutex> lock(d_home_lock);
    return d_on_device;
}

bool device_buffer::on_device(const gr::buffer_sptr& buf)
{
    const auto d = std::dynamic_pointer_cast<device_buffer>(buf);
    return d && d->on_device();
}

std::pair<const void*, std::size_t> device_buffer::host_side(const gr::buffer_sptr& buf)
{
    const auto d = std::dynamic_pointer_cast<device_buffer>(buf);
    if (!d)
        return { nullptr, 0 };
    return { d->d_memory->host(), d->d_memory->bytes() };
}

void* device_buffer::write_pointer()
{
    return home() + std::size_t(d_write_index) * d_sizeof_item;
}

const void* device_buffer::_read_pointer(unsigned int read_index)
{
    return home() + std::size_t(read_index) * d_sizeof_item;
}

int device_buffer::space_available()
{
    const int space = gr::buffer_single_mapped::space_available();
    if (d_readers.empty())
        return space;
    // GNU Radio 3.10.5 lets the writer fill a single-mapped buffer up to a reader that
    // has wrapped, keeping back only the readers' largest output_multiple. A reader
    // that needs more contiguous items than are left before the end (a tagged-stream
    // block's packet, a GPU block's batch) can then neither read nor be realigned
    // (input_blocked_callback needs that much room in front of the writer): both wait
    // for ever. While a reader is behind the writer's wrap, a quarter of the buffer
    // stays free, so a reader needing up to that much is always realigned (GPU
    // blocks ask for at most a quarter of a device buffer, batch_gate).
    const gr::buffer_reader* slowest = d_readers[0];
    for (const auto* r : d_readers)
        if (r->nitems_read() < slowest->nitems_read())
            slowest = r;
    if (slowest->get_read_index() <= d_write_index)
        return space;
    const int slack = static_cast<int>(d_bufsize / 4);
    return std::max(0, space - slack);
}

void device_buffer::post_work(int /*nitems*/)
{
    // Writer and readers use the same side: nothing to copy (see the class comment).
}

bool device_buffer::input_blocked_callback(int items_required,
                                           int items_avail,
                                           unsigned read_index)
{
    char* const base = home();
    if (d_on_device) {
        const gr::mem_func_t move = [this](void* d, const void* s, std::size_t n) {
            return d_memory->move_on_device(d, s, n);
        };
        return input_blocked_callback_logic(
            items_required, items_avail, read_index, base, move, move);
    }
    return input_blocked_callback_logic(
        items_required, items_avail, read_index, base, std::memcpy, std::memmove);
}

bool device_buffer::output_blocked_callback(int output_multiple, bool force)
{
    char* const base = home();
    if (d_on_device) {
        const gr::mem_func_t move = [this](void* d, const void* s, std::size_t n) {
            return d_memory->move_on_device(d, s, n);
        };
        return output_blocked_callback_logic(output_multiple, force, base, move);
    }
    return output_blocked_callback_logic(output_multiple, force, base, std::memmove);
}

} // namespace gpufilter
} // namespace gr
