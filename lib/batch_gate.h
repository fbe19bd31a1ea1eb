/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BATCH_GATE_H
#define INCLUDED_GPUFILTER_BATCH_GATE_H

#include <gnuradio/block.h>
#include <cstdint>

namespace gr {
namespace gpufilter {

/*!
 * \brief A block's rate: interpolation output items for every decimation input items
 * (a sync block 1:1, a decimator 1:D, an interpolator I:1; a variable rate block, its
 * nominal rate as a fraction).
 */
struct block_rate {
    std::uint64_t interpolation = 1;
    std::uint64_t decimation = 1;

    //! Input items that give noutput output items.
    std::uint64_t inputs_for(std::uint64_t noutput) const
    {
        return (noutput * decimation + interpolation - 1) / interpolation;
    }
    //! Output items from ninput input items, rounded up.
    std::uint64_t outputs_for(std::uint64_t ninput) const
    {
        return (ninput * interpolation + decimation - 1) / decimation;
    }
};

/*!
 * \brief Makes GNU Radio hand a GPU block whole batches, without changing its output.
 *
 * A GPU call costs a launch and a PCIe round trip whatever its size, so small work()
 * calls waste the GPU. Two levers, both invisible in the output:
 *  - buffers: GNU Radio sizes the buffers around a block from its output_multiple
 *    when the flowgraph starts. The gate sets output_multiple to one batch's outputs
 *    while buffers are allocated, and back to the block's own in start(), so no
 *    output is ever held back by it.
 *  - waiting: forecast() asks, on every input port, for the input up to the next
 *    batch boundary of the stream (a whole batch while calls end on boundaries;
 *    capped at half a buffer, so a full upstream
 *    buffer always runs) until an upstream block is done; then only for what
 *    gr-filter would, so the tail of a stream is flushed.
 */
class batch_gate
{
public:
    batch_gate(gr::block& block, int batch_size, block_rate rate);

    void start(); //!< from the block's start(): buffers exist, the block's own multiple
    void stop();  //!< from the block's stop(): size buffers again on a restart

    //! The block's own output_multiple (e.g. a channelizer's), kept when running and
    //! rounded up to when batching.
    void set_own_output_multiple(int multiple);

    //! Least input (items, history included) worth a work() call right now.
    int min_input_items() const;

    int batch_size() const { return d_batch_size; }

private:
    int batch_multiple() const;

    gr::block& d_block;
    int d_batch_size;
    block_rate d_rate;
    int d_own_multiple = 1;
};

} // namespace gpufilter
} // namespace gr

#endif
