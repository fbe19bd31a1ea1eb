/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_INTERPOLATOR_IMPL_H
#define INCLUDED_GPUFILTER_PFB_INTERPOLATOR_IMPL_H

#include "core/gpu_block.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/gpufilter/pfb_interpolator_ccf.h>

namespace gr {
namespace gpufilter {

class pfb_interpolator_ccf_impl
    : public gpu_block<pfb_interpolator_ccf, cuda::pfb_interpolator_controls>
{
public:
    pfb_interpolator_ccf_impl(unsigned interp,
                              const std::vector<float>& taps,
                              int device,
                              int batch_size,
                              double max_latency);

    void set_taps(const std::vector<float>& taps) override;
    std::vector<std::vector<float>> taps() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_interp;
    std::vector<float> d_taps;
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
