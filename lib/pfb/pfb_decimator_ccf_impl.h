/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_DECIMATOR_IMPL_H
#define INCLUDED_GPUFILTER_PFB_DECIMATOR_IMPL_H

#include "core/gpu_block.h"
#include "core/split_input_block.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/gpufilter/pfb_decimator_ccf.h>

namespace gr {
namespace gpufilter {

//! One channel of a polyphase decimator: one wideband input or gr-filter's decim
//! streams.
class pfb_decimator_ccf_impl
    : public split_input_block<pfb_decimator_ccf, cuda::pfb_decimator_controls>
{
public:
    pfb_decimator_ccf_impl(unsigned decim,
                           const std::vector<float>& taps,
                           unsigned channel,
                           bool use_fft_rotator,
                           bool use_fft_filters,
                           int device,
                           int batch_size,
                           double max_latency);

    void set_taps(const std::vector<float>& taps) override;
    std::vector<std::vector<float>> taps() const override;
    void set_channel(unsigned int channel) override;
    unsigned int channel() const override { return d_channel; }

    bool check_topology(int ninputs, int noutputs) override;
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_decim;
    std::vector<float> d_taps;
    unsigned d_channel;
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
