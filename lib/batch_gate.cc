/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "batch_gate.h"
#include "device_buffer.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <algorithm>
#include <limits>

namespace gr {
namespace gpufilter {

batch_gate::batch_gate(gr::block& block, int batch_size, block_rate rate)
    : d_block(block), d_batch_size(batch_size), d_rate(rate)
{
    d_block.set_output_multiple(batch_multiple());
}

int batch_gate::batch_multiple() const
{
    const auto outputs = std::max<std::uint64_t>(1, d_rate.outputs_for(d_batch_size));
    const auto own = static_cast<std::uint64_t>(d_own_multiple);
    const auto rounded = (outputs + own - 1) / own * own;
    return static_cast<int>(std::min<std::uint64_t>(
        rounded, static_cast<std::uint64_t>(std::numeric_limits<int>::max() / 2)));
}

void batch_gate::set_own_output_multiple(int multiple)
{
    d_own_multiple = std::max(1, multiple);
    d_block.set_output_multiple(batch_multiple());
}

void batch_gate::start() { d_block.set_output_multiple(d_own_multiple); }

void batch_gate::stop() { d_block.set_output_multiple(batch_multiple()); }

int batch_gate::min_input_items() const
{
    const auto detail = d_block.detail();
    if (!detail || detail->ninputs() == 0)
        return 0;
    int room = std::numeric_limits<int>::max();
    for (int p = 0; p < detail->ninputs(); ++p) {
        const auto reader = detail->input(p);
        if (reader->done()) // an upstream block finished: flush whatever is left
            return 0;
        // Half of what the writer may hold (a device buffer's ring can be larger).
        room = std::min(room, (device_buffer::capacity(reader->buffer()) - 1) / 2);
    }
    // Up to the next whole batch of the input stream, not a whole batch more: a call
    // cut short (by the room in its output buffer) is completed by the
    // next one instead of waiting for a batch that may come only after the stream's
    // end has been read downstream (a source that waits for its sink).
    const auto batch = static_cast<std::uint64_t>(d_batch_size);
    const auto to_boundary = batch - d_block.nitems_read(0) % batch;
    const int want =
        static_cast<int>(to_boundary) + static_cast<int>(d_block.history()) - 1;
    return std::min(want, room);
}

} // namespace gpufilter
} // namespace gr
