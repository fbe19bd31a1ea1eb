/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H

#include "fir/fir_block_impl.h"
#include <gnuradio/gpufilter/fir_filter.h>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
class fir_filter_impl
    : public fir_block_impl<fir_filter<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>
{
public:
    fir_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int device,
                    int batch_size,
                    filter_method method,
                    double max_latency);
};

} // namespace gpufilter
} // namespace gr

#endif
