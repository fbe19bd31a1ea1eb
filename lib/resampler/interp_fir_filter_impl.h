/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_INTERP_FIR_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_INTERP_FIR_FILTER_IMPL_H

#include "core/gpu_block.h"
#include "resampler/rational_computation.h"
#include <gnuradio/gpufilter/interp_fir_filter.h>

namespace gr {
namespace gpufilter {

//! gr-filter's interpolating FIR: the rational engine with decimation 1.
template <class IN_T, class OUT_T, class TAP_T>
class interp_fir_filter_impl : public gpu_block<interp_fir_filter<IN_T, OUT_T, TAP_T>,
                                                cuda::rational_controls<TAP_T>>
{
public:
    interp_fir_filter_impl(unsigned interpolation,
                           const std::vector<TAP_T>& taps,
                           int device,
                           int batch_size,
                           double max_latency);

    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override { return d_taps; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_interpolation;
    std::vector<TAP_T> d_taps; // zero-padded to a multiple of d_interpolation
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
