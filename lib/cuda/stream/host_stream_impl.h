/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_HOST_STREAM_IMPL_H
#define INCLUDED_GPUFILTER_CUDA_HOST_STREAM_IMPL_H

// host_stream's state, shared by its two files: the host path (host_stream.cc) and
// the path for items already in device memory (host_stream_resident.cc). Private to
// lib/cuda/stream.

#include "../common/resources.h"
#include "host_registry.h"
#include "host_stream.h"
#include "port_slab.h"
#include "processor.h"
#include "stream_observer.h"
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {


// Three slots keep the three stages (upload, compute, download) busy at once.
inline constexpr std::size_t slots = 3;
// A sub-chunk is a quarter of the largest call, so one call already pipelines, but
// not below 16384 items: each costs a few microseconds of API calls, which would
// then outweigh the copies they overlap.
inline constexpr std::size_t min_sub_chunk = 16384;
// How long retire() polls a download before it sleeps: a small call from a live
// stream is back within it; a batch of milliseconds sleeps (no core kept busy).
inline constexpr std::chrono::microseconds retire_spin{ 100 };

// Ports of a side move in one 2D copy through staging (port_slab) when each holds
// less than this in a sub-chunk: a copy's fixed cost (about 5 us) is then worth more
// than the host copy into or out of staging, at about 10 GB/s.
inline constexpr std::size_t bundle_below_bytes = 64 * 1024;


//! Whether a side's ports move in one copy: several of one item size, each small.
template <class Slab>
inline bool
bundled(const Slab& slab, const std::vector<std::size_t>& item_bytes, std::size_t n)
{
    return item_bytes.size() > 1 && slab.pitch() != 0 &&
           n * item_bytes.front() < bundle_below_bytes;
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
          sub_chunk(sub_chunk_for(max_chunk))
    {
        proc->attach(device, compute);
        allocate_slots();
    }

    void allocate_slots()
    {
        const port_layout& ports = proc->ports();
        ports_seen = ports;
        in_place_in.assign(ports.in_item_bytes.size(), 0);
        in_place_out.assign(ports.out_item_bytes.size(), 0);
        const std::size_t n_out = proc->max_output_count(sub_chunk);
        for (auto& s : ring)
            s = std::make_unique<slot>(ports, sub_chunk, n_out);
        slot_outputs = n_out;
    }

    /*!
     * Before a call: a processor's controls may have changed its shape between calls
     * (a channelizer's number of ports, a resampler's rate and so its outputs per
     * input). Its slots follow, once nothing queued uses the old ones.
     */
    void fit_processor()
    {
        const port_layout& ports = proc->ports();
        if (ports.in_item_bytes == ports_seen.in_item_bytes &&
            ports.out_item_bytes == ports_seen.out_item_bytes &&
            proc->max_output_count(sub_chunk) <= slot_outputs)
            return;
        refit();
    }

    //! New slots for the processor's shape and the sub-chunk, after queued work.
    void refit()
    {
        compute.synchronize();
        for (auto& s : ring)
            retire(*s);
        allocate_slots();
    }

    //! Waits for a slot's download and moves its staged output to the caller.
    void retire(slot& s)
    {
        if (!s.busy)
            return;
        s.busy = false;
        s.downloaded.synchronize_spinning_first(retire_spin);
        const auto& out_bytes = proc->ports().out_item_bytes;
        for (std::size_t q = 0; q < out_bytes.size(); ++q)
            if (s.copy_to[q])
                std::memcpy(s.copy_to[q], s.host_out[q], s.nout * out_bytes[q]);
    }

    int device;
    std::unique_ptr<processor> proc;
    std::size_t sub_chunk;
    std::size_t slot_outputs = 0;
    port_layout ports_seen; // the processor's ports the slots were made for
    int last_call_device = -1;
    stream_observer* observer = current_stream_observer(); // told of its making and end
    std::vector<char> in_place_in, in_place_out; // per port: registered, so no staging
    stream upload, compute, download;
    std::array<std::unique_ptr<slot>, slots> ring;
    host_registration host;
    std::atomic<std::uint64_t> to_device{ 0 }, from_device{ 0 };
    // process_resident's per-port pointers and set_history_resident's host copies.
    std::vector<const void*> resident_in;
    std::vector<void*> resident_out;
    std::vector<std::vector<char>> history_copy;
    std::vector<const void*> history_ptrs;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
