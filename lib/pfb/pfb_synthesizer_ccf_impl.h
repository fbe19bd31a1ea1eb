/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_SYNTHESIZER_IMPL_H
#define INCLUDED_GPUFILTER_PFB_SYNTHESIZER_IMPL_H

#include "core/gpu_block.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/gpufilter/pfb_synthesizer_ccf.h>

namespace gr {
namespace gpufilter {

class pfb_synthesizer_ccf_impl
    : public gpu_block<pfb_synthesizer_ccf, cuda::pfb_synthesizer_controls>
{
public:
    pfb_synthesizer_ccf_impl(unsigned numchans,
                             const std::vector<float>& taps,
                             bool twox,
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
    bool d_twox;
    std::vector<float> d_taps;
    std::vector<int> d_map;   // gr-filter's channel map (twox*numchans by default)
    std::size_t d_nports = 0; // connected inputs, once known
};

} // namespace gpufilter
} // namespace gr

#endif
