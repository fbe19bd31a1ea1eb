/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/device_buffer.h"
#include <gnuradio/block.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/logger.h>
#include <algorithm>
#include <limits>
#include <new>
#include <numeric>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {

// The largest device ring made for a buffer whose item size does not divide the
// device's granularity (four times the host ring is always allowed).
constexpr std::size_t max_device_ring_bytes = std::size_t(256) << 20;

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
    // No owner kept: it would close a cycle (block -> detail -> buffer -> block) that
    // keeps blocks, buffers and device memory alive for ever.
    : gr::buffer(gr::buffer_mapping_type::double_mapped,
                 nitems,
                 sizeof_item,
                 downstream_lcm_nitems,
                 downstream_max_out_mult,
                 link),
      d_account(std::move(account))
{
    gr::configure_default_loggers(d_logger, d_debug_logger, "device_buffer");
    if (!allocate_buffer(nitems))
        throw std::bad_alloc();
}

device_buffer::~device_buffer() = default;

bool device_buffer::allocate_buffer(int nitems)
{
    // Whole rings of both homes: a multiple of the ring's granularity and of the item.
    const std::size_t wanted = std::max<std::size_t>(nitems, 1) * d_sizeof_item;
    const auto ring_bytes = [&](std::size_t granule) {
        const std::size_t ring = std::lcm(granule, d_sizeof_item);
        return (wanted + ring - 1) / ring * ring;
    };
    std::size_t bytes = ring_bytes(cuda::ring_memory::granularity(d_account->device));
    // An item size with a large odd factor makes the device's 2 MiB granules a ring of
    // hundreds of MB (4004-byte items: 2 GiB): such a buffer stays in host memory, in
    // pages, as GNU Radio's own buffer would.
    const std::size_t host_bytes =
        ring_bytes(cuda::ring_memory::granularity(cuda::ring_memory::host_only));
    if (bytes > std::max(4 * host_bytes, max_device_ring_bytes)) {
        d_logger->debug("{}-byte items would need a {} MiB device ring: host memory",
                        d_sizeof_item,
                        bytes >> 20);
        d_host_only = true;
        bytes = host_bytes;
    }
    if (bytes / d_sizeof_item > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::bad_alloc();
    d_memory = std::make_unique<cuda::ring_memory>(
        d_host_only ? cuda::ring_memory::host_only : d_account->device, bytes);
    d_bufsize = static_cast<unsigned>(bytes / d_sizeof_item);
    d_capacity = static_cast<unsigned>(host_bytes / d_sizeof_item);
    d_base = d_memory->host();
    return true;
}

unsigned device_buffer::index_add(unsigned a, unsigned b)
{
    unsigned s = a + b;
    if (s >= d_bufsize)
        s -= d_bufsize;
    return s;
}

unsigned device_buffer::index_sub(unsigned a, unsigned b)
{
    int s = static_cast<int>(a) - static_cast<int>(b);
    if (s < 0)
        s += static_cast<int>(d_bufsize);
    return static_cast<unsigned>(s);
}

gr::io_signature::sptr device_buffer::with_type(const gr::io_signature::sptr& sig)
{
    const auto sizes = sig->sizeof_stream_items();
    return gr::io_signature::makev(sig->min_streams(),
                                   sig->max_streams(),
                                   sizes,
                                   gr::gr_vector_buffer_type(sizes.size(), type));
}

std::string device_buffer::writer_name() const
{
    const auto writer = d_link.lock();
    return writer ? writer->alias() : std::string("a GPU block");
}

device_buffer::reader_ids device_buffer::current_readers() const
{
    reader_ids ids;
    for (const auto* r : d_readers) {
        const auto reader = alive(r);
        ids.emplace_back(r, reader ? reader->unique_id() : -1);
    }
    return ids;
}

bool device_buffer::readers_want_device() const
{
    // Device memory when every reader is a GPU block with device buffers on the
    // writer's device.
    if (d_host_only || !d_account->device_buffers || d_readers.empty())
        return false;
    for (const auto* r : d_readers) {
        const auto reader = alive(r);
        const auto account = reader ? account_of(reader) : nullptr;
        if (!account || !account->device_buffers || account->device != d_account->device)
            return false;
    }
    return true;
}

char* device_buffer::home()
{
    std::lock_guard<std::mutex> lock(d_home_lock);
    // GNU Radio may ask for the write pointer before any reader is connected (buffer
    // alignment in a running flowgraph's reconfiguration): the host side, and nothing
    // decided yet.
    if (d_readers.empty())
        return d_home ? d_home : d_memory->host();
    auto readers = current_readers();
    if (d_home && d_home_for == readers)
        return d_home;
    // Readers change only while the flowgraph is stopped (start, lock/unlock); a
    // buffer decides once per set of readers.
    bool device = readers_want_device();
    if (device) {
        try {
            d_memory->device();
        } catch (const std::exception& e) {
            // A ring that cannot be made (no device memory left, a driver without
            // virtual memory management) must not stop the flowgraph: GNU Radio
            // 3.10.5 would leave its threads waiting for ever.
            d_logger->warn("no device memory for the output buffer of {} ({}); its "
                           "items go through host memory instead (same output, slower)",
                           writer_name(),
                           e.what());
            d_host_only = true;
            device = false;
        }
    }
    if (device && !d_handoff && d_account->device >= 0)
        d_handoff = std::make_unique<cuda::stream_handoff>(d_account->device);
    if (d_home && device != d_on_device)
        carry_items_over(device);
    d_on_device = device;
    d_home = device ? d_memory->device() : d_memory->host();
    d_home_for = std::move(readers);
    return d_home;
}

void device_buffer::carry_items_over(bool to_device)
{
    // The scheduler keeps the items of a buffer whose readers changed (lock/unlock):
    // they move with the home.
    try {
        d_memory->copy_between_homes(to_device);
    } catch (const std::exception& e) {
        d_logger->error("items in the output buffer of {} could not be moved to the {} "
                        "({}); they are lost",
                        writer_name(),
                        to_device ? "device" : "host",
                        e.what());
    }
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

cuda::stream_handoff* device_buffer::handoff(const gr::buffer_sptr& buf)
{
    const auto d = std::dynamic_pointer_cast<device_buffer>(buf);
    if (!d || !d->on_device())
        return nullptr;
    std::lock_guard<std::mutex> lock(d->d_home_lock);
    return d->d_handoff.get();
}

std::pair<const void*, std::size_t> device_buffer::host_side(const gr::buffer_sptr& buf)
{
    const auto d = std::dynamic_pointer_cast<device_buffer>(buf);
    if (!d)
        return { nullptr, 0 };
    return { d->d_memory->host(), 2 * d->d_memory->bytes() };
}

void* device_buffer::write_pointer()
{
    return home() + std::size_t(d_write_index) * d_sizeof_item;
}

const void* device_buffer::_read_pointer(unsigned int read_index)
{
    return home() + std::size_t(read_index) * d_sizeof_item;
}

int device_buffer::capacity(const gr::buffer_sptr& buf)
{
    const auto d = std::dynamic_pointer_cast<device_buffer>(buf);
    if (!d)
        return buf ? static_cast<int>(buf->bufsize()) : 0;
    return static_cast<int>(std::min(d->d_capacity, d->d_bufsize));
}

int device_buffer::space_available()
{
    // GNU Radio's double-mapped rule: one item short of full, so that equal read and
    // write indices always mean empty; held to the capacity GNU Radio asked for.
    const int held = static_cast<int>(std::min(d_capacity, d_bufsize));
    if (d_readers.empty())
        return held - 1;
    int most_data = d_readers[0]->items_available();
    uint64_t min_items_read = d_readers[0]->nitems_read();
    for (const auto* r : d_readers) {
        most_data = std::max(most_data, r->items_available());
        min_items_read = std::min(min_items_read, r->nitems_read());
    }
    if (min_items_read != d_last_min_items_read) {
        prune_tags(d_last_min_items_read);
        d_last_min_items_read = min_items_read;
    }
    return std::max(0, held - most_data - 1);
}

void device_buffer::post_work(int /*nitems*/)
{
    // Writer and readers use the same side: nothing to copy (see the class comment).
}

} // namespace gpufilter
} // namespace gr
