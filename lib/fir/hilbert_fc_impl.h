/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_HILBERT_FC_IMPL_H
#define INCLUDED_GPUFILTER_HILBERT_FC_IMPL_H

#include "core/gpu_block.h"
#include <gnuradio/gpufilter/hilbert_fc.h>

namespace gr {
namespace gpufilter {

class hilbert_fc_impl : public gpu_block<hilbert_fc>
{
public:
    hilbert_fc_impl(unsigned int ntaps,
                    fft::window::win_type window,
                    double param,
                    int device,
                    int batch_size,
                    double max_latency);

    std::vector<float> taps() const override { return d_hilb; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const unsigned int d_ntaps; // odd, as in gr-filter
    const std::vector<float> d_hilb;
};

} // namespace gpufilter
} // namespace gr

#endif
