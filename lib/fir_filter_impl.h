/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H

#include "fir_backend.h"
#include "gpu_block.h"
#include <gnuradio/gpufilter/fir_filter.h>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
class fir_filter_impl : public gpu_block<fir_filter<IN_T, OUT_T, TAP_T>>
{
public:
    fir_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int device,
                    int batch_size,
                    filter_method method);

    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    using backend = fir_backend<IN_T, OUT_T, TAP_T>;
    std::vector<TAP_T> d_taps;
    bool d_updated = false; // taps changed: history must follow first
};

} // namespace gpufilter
} // namespace gr

#endif
