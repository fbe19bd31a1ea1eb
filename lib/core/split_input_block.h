/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_SPLIT_INPUT_BLOCK_H
#define INCLUDED_GPUFILTER_SPLIT_INPUT_BLOCK_H

#include "core/gpu_block.h"
#include <algorithm>
#include <string>

namespace gr {
namespace gpufilter {

/*!
 * \brief A polyphase block (a sync_decimator over one wideband input) that also
 * takes gr-filter's input layout: the wideband stream split by
 * blocks.stream_to_streams(itemsize, arms) over `arms` input ports, one a polyphase
 * arm, as gr-filter's pfb_channelizer_ccf and pfb_decimator_ccf take it. Which one
 * is known from how the block is connected (check_input_layout, from the block's
 * check_topology); the output is the same either way. Consumption, rates and tags
 * follow the ports: each stream gives `arms` times fewer items.
 */
template <class Public, class Controls>
class split_input_block : public gpu_block<Public, Controls>
{
public:
    int general_work(int noutput_items,
                     gr_vector_int& /*ninput_items*/,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const int r = this->work(noutput_items, input_items, output_items);
        if (r > 0)
            this->consume_each(static_cast<int>(
                this->d_core.port_rate().inputs_for(static_cast<std::uint64_t>(r))));
        return r;
    }
    int fixed_rate_ninput_to_noutput(int ninput) override
    {
        const auto rate = this->d_core.port_rate();
        const auto fresh = std::max(0, ninput - static_cast<int>(this->history()) + 1);
        return static_cast<int>(static_cast<std::uint64_t>(fresh) * rate.interpolation /
                                rate.decimation);
    }
    int fixed_rate_noutput_to_ninput(int noutput) override
    {
        return static_cast<int>(this->d_core.port_rate().inputs_for(
                   static_cast<std::uint64_t>(noutput))) +
               static_cast<int>(this->history()) - 1;
    }

protected:
    using gpu_block<Public, Controls>::gpu_block;

    //! From check_topology: one wideband input or gr-filter's `arms` streams; any
    //! other count is logged and refused (false).
    bool check_input_layout(int ninputs, unsigned arms)
    {
        if (ninputs != 1 && ninputs != static_cast<int>(arms)) {
            this->d_logger->error(
                "{} inputs connected: connect one wideband input, or {} inputs from "
                "blocks.stream_to_streams(itemsize, {}) as gr-filter's block takes them",
                ninputs,
                arms,
                arms);
            return false;
        }
        this->d_core.set_input_streams(static_cast<unsigned>(ninputs));
        return true;
    }
};

} // namespace gpufilter
} // namespace gr

#endif
