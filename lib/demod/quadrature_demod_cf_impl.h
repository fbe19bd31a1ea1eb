/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_QUADRATURE_DEMOD_IMPL_H
#define INCLUDED_GPUFILTER_QUADRATURE_DEMOD_IMPL_H

#include "core/gpu_block.h"
#include "cuda/demod/demod_controls.h"
#include <gnuradio/gpufilter/quadrature_demod_cf.h>

namespace gr {
namespace gpufilter {

class quadrature_demod_cf_impl
    : public gpu_block<quadrature_demod_cf, cuda::quadrature_demod_controls>
{
public:
    quadrature_demod_cf_impl(float gain, int device, int batch_size, double max_latency);

    void set_gain(float gain) override;
    float gain() const override { return d_gain; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    float d_gain;
};

} // namespace gpufilter
} // namespace gr

#endif
