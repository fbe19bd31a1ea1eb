/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_RATIONAL_BLOCK_IMPL_H
#define INCLUDED_GPUFILTER_RATIONAL_BLOCK_IMPL_H

#include "core/gpu_block.h"
#include "resampler/rational_computation.h"
#include <vector>

namespace gr {
namespace gpufilter {

//! A rational resampler's factors and taps as gr-filter's constructor settles them.
template <class TAP_T>
struct rational_design {
    unsigned interpolation;
    unsigned decimation;
    std::vector<TAP_T> taps; //!< zero-padded to whole arms
};

/*!
 * gr-filter's constructor: factors checked; with no taps, both divided by their
 * greatest common divisor and taps designed for fractional_bw (0: 0.4), a Kaiser
 * low-pass with beta 7; given taps are kept as they are (gr-filter logs that a common
 * divisor makes the filter bank larger). The taps are then padded to whole arms.
 */
template <class TAP_T>
rational_design<TAP_T> design_rational(unsigned interpolation,
                                       unsigned decimation,
                                       const std::vector<TAP_T>& taps,
                                       float fractional_bw);

/*!
 * \brief A rational resampler block on the block core, whatever its public class
 * (rational_resampler_XXX, rational_resampler_vff): a general block with gr-filter's
 * output. Like gr-filter's, the block keeps GNU Radio's history at 1 and its first
 * output's window is the stream's first T samples (rational_start::first_window): the
 * computation keeps the samples before the new ones itself, so new taps need no new
 * window (rational_position::new_taps says where the next output lies). Each call takes
 * the input whose outputs fit the room offered, plus the samples the resampler steps over
 * before the next output (so that tags move on as gr-filter's do), whole input samples
 * only. An output is computed when gr-filter's forecast would let it be (lookahead()), so
 * a finite stream ends where gr-filter's does; where gr-filter's forecast lets its last
 * output read a sample past the input (I > 2D, T = 1) ours stops before it. GNU Radio's
 * virtual base (gr::block) is built by the most derived class.
 */
template <class Public, class IN_T, class OUT_T, class TAP_T>
class rational_block_impl : public gpu_block<Public, cuda::rational_controls<TAP_T>>
{
public:
    unsigned interpolation() const override { return d_interpolation; }
    unsigned decimation() const override { return d_decimation; }
    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override { return d_taps; }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

protected:
    rational_block_impl(const rational_design<TAP_T>& design,
                        unsigned vlen,
                        int device,
                        int batch_size,
                        double max_latency);

private:
    //! Samples that must follow an output's newest one before it is computed.
    std::size_t lookahead() const;

    unsigned d_interpolation;
    unsigned d_decimation;
    std::vector<TAP_T> d_taps;
};

} // namespace gpufilter
} // namespace gr

#endif
