/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "batch_gate.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <algorithm>

namespace gr {
namespace gpufilter {

batch_gate::batch_gate(gr::block& block, int batch_size, int decimation)
    : d_block(block),
      d_batch_size(batch_size),
      d_batch_outputs(std::max(1, (batch_size + decimation - 1) / decimation))
{
    d_block.set_output_multiple(d_batch_outputs);
}

void batch_gate::start() { d_block.set_output_multiple(1); }

void batch_gate::stop() { d_block.set_output_multiple(d_batch_outputs); }

int batch_gate::min_input_items() const
{
    const auto detail = d_block.detail();
    if (!detail || detail->ninputs() == 0)
        return 0;
    const auto reader = detail->input(0);
    if (reader->done()) // upstream finished: flush whatever is left
        return 0;
    const int want = d_batch_size + static_cast<int>(d_block.history()) - 1;
    return std::min(want, reader->max_possible_items_available() / 2);
}

} // namespace gpufilter
} // namespace gr
