/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BATCH_GATE_H
#define INCLUDED_GPUFILTER_BATCH_GATE_H

#include "core/latency_budget.h"
#include <gnuradio/block.h>
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

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
 * \brief Makes GNU Radio hand a GPU block batches as large as its latency budget
 * allows, without changing its output.
 *
 * A GPU call costs a launch and a PCIe round trip whatever its size, so small work()
 * calls waste the GPU; but a block that waits for a whole batch on a live stream
 * holds seconds of signal. Three levers, none visible in the output:
 *  - buffers: GNU Radio sizes a block's buffers when the flowgraph starts. The gate
 *    asks for two batches of outputs on each output port (GNU Radio's min output
 *    buffer), so the block's output, and a GPU block after it, takes whole batches.
 *    Its input buffer is sized by the block in front, as gr-filter's is: a larger one
 *    would let a throttle in front release larger chunks, so a live stream would
 *    arrive later than at gr-filter's block. Only with an infinite budget (whole
 *    batches always) does the gate also ask for whole batches of input, by setting
 *    output_multiple to one batch's outputs while buffers are allocated; it is the
 *    block's own again in start(), so no output is ever held back by it.
 *  - waiting: forecast() asks, on every input port, for the batch the latency budget
 *    allows at the measured input rate (latency_budget): batch_size from a file or a
 *    fast source, rate x max_latency from a slow one, whatever is there while the
 *    rate is unknown. Capped at half a buffer, so a full upstream buffer always runs;
 *    once an upstream block is done, only what gr-filter would ask, so the tail of a
 *    stream is flushed.
 *  - time: input that waits for a batch is computed when it has waited max_latency
 *    (deadline_waker looks at the block then, even when nothing arrives), or at once
 *    when the rate says the batch will not fill in time. Whole batches (a fast
 *    source, or an infinite budget) end on the stream's batch boundaries, as before
 *    blocks had a budget.
 */
class batch_gate
{
public:
    batch_gate(gr::block& block, int batch_size, double max_latency, block_rate rate);

    void start(); //!< from the block's start(): buffers exist, the block's own multiple
    void stop();  //!< from the block's stop(): size buffers again on a restart

    //! The block's own output_multiple (e.g. a channelizer's), kept when running and
    //! rounded up to when batching.
    void set_own_output_multiple(int multiple);
    //! Between runs: the input arrives as `streams` ports, gr-filter's stream_to_streams
    //! split of the block's one input (1: that one input). Batches and rates are then
    //! per port, batch_size and the block's rate still of the whole input.
    void set_input_streams(unsigned streams);
    //! Between runs: whole batches of at least this many input items (of the whole
    //! input), e.g. so that each of many output ports gets enough items a call.
    void set_batch_floor(int items);
    //! The rate between one input port's items and each output port's.
    block_rate port_rate() const
    {
        return { d_rate.interpolation * d_streams, d_rate.decimation };
    }

    //! Least input (items, history included) worth a work() call right now; from
    //! forecast(), in the block's thread.
    int min_input_items();
    //! A work() call computed the input it was given.
    void computed() { d_budget.computed(); }

    int batch_size() const { return d_batch_size; }
    double max_latency() const { return d_budget.max_latency(); }
    //! From any thread; the buffers follow from the next start.
    void set_max_latency(double seconds);
    //! Input items the budget allows per call now, and the input rate measured.
    int current_batch_size() const;
    double input_rate() const { return d_budget.rate(); }

private:
    int batch_multiple() const;
    //! Between runs: the min output buffers and the output_multiple the buffers are
    //! sized from (see the class comment).
    void size_buffers();
    //! An infinite budget: input buffers sized for whole batches too.
    bool whole_batches_in() const;
    //! Input items of each port in a whole batch.
    std::uint64_t port_batch() const
    {
        const auto items = static_cast<std::uint64_t>(std::max(d_batch_size, d_floor));
        return (items + d_streams - 1) / d_streams;
    }

    gr::block& d_block;
    int d_batch_size;
    int d_floor = 0;
    block_rate d_rate;
    unsigned d_streams = 1;
    int d_own_multiple = 1;
    latency_budget d_budget;
    latency_budget::clock::time_point d_wake_asked; // the last deadline_waker call
    std::mutex d_sizing;               // output_multiple: start/stop against set_*
    bool d_running = false;            // between start() and stop()
    std::vector<long> d_sized_outputs; // the min output buffer the gate set per port,
                                       // to tell a user's own setting from it
};

} // namespace gpufilter
} // namespace gr

#endif
