/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_COMPLEX_TO_REAL_IMPL_H
#define INCLUDED_GPUFILTER_COMPLEX_TO_REAL_IMPL_H

#include "core/gpu_block.h"
#include <gnuradio/gpufilter/complex_to_real.h>

namespace gr {
namespace gpufilter {

class complex_to_real_impl : public gpu_block<complex_to_real>
{
public:
    complex_to_real_impl(int vlen, int device, int batch_size, double max_latency);

    int vlen() const override { return d_vlen; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const int d_vlen;
};

} // namespace gpufilter
} // namespace gr

#endif
