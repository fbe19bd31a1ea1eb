/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_RATIONAL_RESAMPLER_IMPL_H
#define INCLUDED_GPUFILTER_RATIONAL_RESAMPLER_IMPL_H

#include "resampler/rational_block_impl.h"
#include <gnuradio/gpufilter/rational_resampler.h>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
class rational_resampler_impl
    : public rational_block_impl<rational_resampler<IN_T, OUT_T, TAP_T>,
                                 IN_T,
                                 OUT_T,
                                 TAP_T>
{
public:
    rational_resampler_impl(unsigned interpolation,
                            unsigned decimation,
                            const std::vector<TAP_T>& taps,
                            float fractional_bw,
                            int device,
                            int batch_size,
                            double max_latency);
};

class rational_resampler_vff_impl
    : public rational_block_impl<rational_resampler_vff, float, float, float>
{
public:
    rational_resampler_vff_impl(unsigned vlen,
                                unsigned interpolation,
                                unsigned decimation,
                                const std::vector<float>& taps,
                                float fractional_bw,
                                int device,
                                int batch_size,
                                double max_latency);
    unsigned vlen() const override { return d_vlen; }

private:
    unsigned d_vlen;
};

} // namespace gpufilter
} // namespace gr

#endif
