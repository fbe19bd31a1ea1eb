/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BATCH_GATE_H
#define INCLUDED_GPUFILTER_BATCH_GATE_H

#include <gnuradio/block.h>

namespace gr {
namespace gpufilter {

/*!
 * \brief Makes GNU Radio hand a GPU block whole batches, without changing its output.
 *
 * A GPU call costs a launch and a PCIe round trip whatever its size, so small work()
 * calls waste the GPU. Two levers, both invisible in the output:
 *  - buffers: GNU Radio sizes the buffer feeding a block (owned by the upstream
 *    block, whatever that is) from the block's output_multiple when the flowgraph
 *    starts. The gate sets output_multiple to one batch while buffers are allocated
 *    and back to 1 in start(), so no output is ever held back by it.
 *  - waiting: forecast() asks for a whole batch of input (capped at half the buffer,
 *    so a full upstream buffer always runs) until the upstream block is done; then it
 *    asks only for what gr-filter would, so the tail of a stream is flushed.
 */
class batch_gate
{
public:
    batch_gate(gr::block& block, int batch_size, int decimation);

    void start(); //!< from the block's start(): buffers exist, drop the multiple
    void stop();  //!< from the block's stop(): size buffers again on a restart

    //! Least input (items, history included) worth a work() call right now.
    int min_input_items() const;

    int batch_size() const { return d_batch_size; }

private:
    gr::block& d_block;
    int d_batch_size;
    int d_batch_outputs;
};

} // namespace gpufilter
} // namespace gr

#endif
