/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/batch_gate.h"
#include "core/deadline_waker.h"
#include "core/device_buffer.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace gr {
namespace gpufilter {

batch_gate::batch_gate(gr::block& block,
                       int batch_size,
                       double max_latency,
                       block_rate rate)
    : d_block(block), d_batch_size(batch_size), d_rate(rate), d_budget(max_latency)
{
    size_buffers();
}

void batch_gate::size_buffers()
{
    std::lock_guard<std::mutex> lock(d_sizing);
    if (d_running)
        return; // buffers exist; start() and stop() keep the multiple right
    const long batch_items = 2L * batch_multiple();
    // GNU Radio keeps a min output buffer (-1: none) for each of these ports.
    const auto ports =
        static_cast<std::size_t>(std::max(d_block.output_signature()->max_streams(), 1));
    d_sized_outputs.resize(ports, -1);
    for (std::size_t q = 0; q < ports; ++q) {
        // GNU Radio's "min output buffer" (GRC's advanced tab) may be set as well:
        // both are minimums, so the larger one holds.
        const long current = d_block.min_output_buffer(q);
        const long theirs = current == d_sized_outputs[q] ? -1 : current;
        d_sized_outputs[q] = std::max(theirs, batch_items);
        d_block.set_min_output_buffer(static_cast<int>(q), d_sized_outputs[q]);
    }
    d_block.set_output_multiple(whole_batches_in() ? batch_multiple() : d_own_multiple);
}

bool batch_gate::whole_batches_in() const { return std::isinf(d_budget.max_latency()); }

int batch_gate::batch_multiple() const
{
    const auto outputs =
        std::max<std::uint64_t>(1, port_rate().outputs_for(port_batch()));
    const auto own = static_cast<std::uint64_t>(d_own_multiple);
    const auto rounded = (outputs + own - 1) / own * own;
    return static_cast<int>(std::min<std::uint64_t>(
        rounded, static_cast<std::uint64_t>(std::numeric_limits<int>::max() / 2)));
}

void batch_gate::set_own_output_multiple(int multiple)
{
    d_own_multiple = std::max(1, multiple);
    size_buffers();
}

void batch_gate::set_input_streams(unsigned streams)
{
    d_streams = std::max(1u, streams);
    size_buffers();
}

void batch_gate::set_batch_floor(int items)
{
    d_floor = std::max(0, items);
    size_buffers();
}

void batch_gate::set_max_latency(double seconds)
{
    d_budget.set_max_latency(seconds);
    size_buffers(); // whole batches in, or not, from the next start
}

void batch_gate::start()
{
    {
        std::lock_guard<std::mutex> lock(d_sizing);
        d_running = true;
        d_block.set_output_multiple(d_own_multiple);
    }
    d_budget.restart();
    d_wake_asked = {};
}

void batch_gate::stop()
{
    {
        std::lock_guard<std::mutex> lock(d_sizing);
        d_running = false;
    }
    size_buffers(); // for a restart
}

int batch_gate::current_batch_size() const
{
    return static_cast<int>(std::min<std::uint64_t>(
        d_budget.batch(port_batch()) * d_streams, std::numeric_limits<int>::max()));
}

int batch_gate::min_input_items()
{
    const auto detail = d_block.detail();
    if (!detail || detail->ninputs() == 0)
        return 0;
    const int old_items = static_cast<int>(d_block.history()) - 1;
    int room = std::numeric_limits<int>::max();
    int waiting = std::numeric_limits<int>::max();
    for (int p = 0; p < detail->ninputs(); ++p) {
        const auto reader = detail->input(p);
        if (reader->done()) // an upstream block finished: flush whatever is left
            return 0;
        // Half of what the writer may hold (a device buffer's ring can be larger).
        room = std::min(room, (device_buffer::capacity(reader->buffer()) - 1) / 2);
        waiting = std::min(waiting, reader->items_available() - old_items);
    }
    waiting = std::max(waiting, 0);
    const auto now = latency_budget::clock::now();
    d_budget.observe(now, d_block.nitems_read(0) + static_cast<std::uint64_t>(waiting));

    const auto batch = d_budget.batch(port_batch());
    // Whole batches (input as fast as the GPU takes it, or no budget): up to the
    // next whole batch of the input stream, not a whole batch more, so a call cut
    // short (by the room in its output buffer) is completed by the next one instead
    // of waiting for a batch that may come only after the stream's end has been read
    // downstream (a source that waits for its sink). A smaller batch, from the rate,
    // counts from here: its deadline ends any wait.
    const bool whole = batch >= port_batch();
    const auto wanted = whole ? batch - d_block.nitems_read(0) % batch : batch;
    const int want = static_cast<int>(std::min<std::uint64_t>(
        wanted, static_cast<std::uint64_t>(std::max(room - old_items, 1))));
    if (waiting >= want)
        return std::min(want + old_items, room);
    const auto held = d_budget.hold(
        now, static_cast<std::uint64_t>(waiting), static_cast<std::uint64_t>(want));
    if (held.compute_now)
        return 0;
    if (held.wake != latency_budget::clock::time_point::max() &&
        held.wake != d_wake_asked) {
        d_wake_asked = held.wake;
        deadline_waker::wake_at(held.wake, detail);
    }
    return std::min(want + old_items, room);
}

} // namespace gpufilter
} // namespace gr
