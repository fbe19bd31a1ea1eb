/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_HILBERT_FC_IMPL_H
#define INCLUDED_GPUFILTER_HILBERT_FC_IMPL_H

#include "gpu_block.h"
#include <gnuradio/filter/fir_filter.h>
#include <gnuradio/gpufilter/hilbert_fc.h>
#include <memory>

namespace gr {
namespace gpufilter {

class hilbert_fc_impl : public gpu_block<hilbert_fc, float, gr_complex>
{
public:
    hilbert_fc_impl(unsigned int ntaps,
                    fft::window::win_type window,
                    double param,
                    int device,
                    int batch_size);

    std::vector<float> taps() const override { return d_hilb; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const unsigned int d_ntaps; // odd, as in gr-filter
    const std::vector<float> d_hilb;
    // GPU: one complex-tap FIR gives both parts. CPU: gr-filter's own work().
    std::unique_ptr<gr::filter::kernel::fir_filter<float, float, float>> d_cpu;
};

} // namespace gpufilter
} // namespace gr

#endif
