/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_CHANNELIZER_CCF_IMPL_H
#define INCLUDED_GPUFILTER_PFB_CHANNELIZER_CCF_IMPL_H

#include "core/gpu_block.h"
#include "core/split_input_block.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/gpufilter/pfb_channelizer_ccf.h>
#include <string>


namespace gr {
namespace gpufilter {

//! One output port per mapped channel; complex input, one wideband port or gr-filter's
//! numchans streams.
class pfb_channelizer_ccf_impl
    : public split_input_block<pfb_channelizer_ccf, cuda::pfb_channelizer_controls>
{
public:
    pfb_channelizer_ccf_impl(unsigned numchans,
                             const std::vector<float>& taps,
                             float oversample_rate,
                             int device,
                             int batch_size,
                             double max_latency);

    void set_taps(const std::vector<float>& taps) override;
    std::vector<std::vector<float>> taps() const override;
    void set_channel_map(const std::vector<int>& map) override;
    std::vector<int> channel_map() const override;

    bool check_topology(int ninputs, int noutputs) override;
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_numchans;
    std::vector<float> d_taps;
    std::vector<int> d_map;
    std::size_t d_nports = 0; // connected outputs; 0 until the flowgraph is known
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
