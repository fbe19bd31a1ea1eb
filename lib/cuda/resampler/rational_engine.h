/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RATIONAL_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_RATIONAL_ENGINE_H

#include "../common/resources.h"
#include "../fir/fir_state.h"
#include "../stream/processor.h"
#include "rational_controls.h"
#include "rational_position.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Polyphase rational resampler (interpolation I, decimation D) on
 * device-resident samples, with its state: gr-filter's rational_resampler, and with
 * D = 1 its interp_fir_filter, with I = 1 its decimating fir_filter.
 *
 * The taps, zero-padded to a multiple of I, form I arms of T = ntaps/I taps: arm p
 * holds taps[p], taps[p + I], ... Output k of the stream is
 *     y[k] = sum_j taps[j*I + p] * x[n - j],  n = floor(k*D / I),  p = (k*D) mod I
 * (x[i<0] = 0; with rational_start::first_window, n = floor(k*D / I) + T-1), exactly
 * gr-filter's, and only the outputs kept are computed: no
 * zero-stuffed input, no discarded output. The engine keeps the last T-1 input items
 * and the position of the next output (rational_position) between calls, so any
 * split of the input into calls gives the output of one call.
 *
 * Items are vectors of vlen samples (1: a scalar stream); lane l of the output is
 * lane l of the input resampled on its own. Out is the accumulator's type (complex
 * as soon as the input or the taps are), or int16 for gr-filter's fsf types, which
 * truncate toward zero as gr-filter's kernel does.
 */
template <class In, class Out, class Tap>
class rational_engine final : public controlled_processor<rational_controls<Tap>>
{
public:
    using acc_type = filter_output_t<In, Tap>;
    using out_type = Out;

    //! Uses the current device. Throws std::invalid_argument for empty taps,
    //! interpolation, decimation or vlen < 1. `start`: where the first output's
    //! window lies (rational_position.h).
    rational_engine(unsigned interpolation,
                    unsigned decimation,
                    const std::vector<Tap>& taps,
                    rational_start start = rational_start::zero_history,
                    unsigned vlen = 1);

    //! New taps from the next item on (the block sets its history next, as gr-filter
    //! does); on the attached control stream, or on `stream`.
    void set_taps(const std::vector<Tap>& taps) override;
    void set_taps(const std::vector<Tap>& taps, cudaStream_t stream);
    //! No output rotation here: std::logic_error.
    void set_rotation(const rotation& r) override;
    rotation next_rotation() const override { return {}; }

    std::size_t output_count(std::size_t n) const override
    {
        return d_position.output_count(n);
    }
    std::size_t inputs_for(std::size_t nout) const override
    {
        return d_position.inputs_for(nout);
    }
    std::size_t next_input(std::size_t n) const override
    {
        return d_position.next_input(n);
    }

    const port_layout& ports() const override { return d_ports; }
    std::size_t max_output_count(std::size_t n) const override
    {
        return n * d_position.interpolation / d_position.decimation + 1;
    }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    //! Filters n items of d_in into d_out (output_count(n) items); returns that count.
    std::size_t process(const In* d_in, std::size_t n, Out* d_out, cudaStream_t stream);

    //! The block's window holds T-1 items of history (zero_history), or none: the
    //! engine keeps its own (first_window).
    std::size_t history_items() const override
    {
        return d_start == rational_start::zero_history ? d_taps_per_arm - 1 : 0;
    }
    //! A (re)start or new taps: history_items() host items, oldest first; the
    //! position stays where it is, as gr-filter's counter does. With first_window, a
    //! new first window (rational_position::restart).
    void set_history(const void* const* host, cudaStream_t s) override;
    //! Zero history, first output at the next input item, as at construction.
    void reset(cudaStream_t stream);
    const char* method() const override { return "direct"; }

    unsigned interpolation() const { return d_position.interpolation; }
    unsigned decimation() const { return d_position.decimation; }
    unsigned taps_per_arm() const { return d_taps_per_arm; }

private:
    unsigned d_vlen;
    rational_start d_start;
    port_layout d_ports;
    rational_position d_position;
    unsigned d_taps_per_arm = 0;
    fir_state<In, acc_type> d_state; // the history only (as vlen*items samples)
    device_buffer<Tap> d_taps;       // zero-padded to taps_per_arm * interpolation
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
