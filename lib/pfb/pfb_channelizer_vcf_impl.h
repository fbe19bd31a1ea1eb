/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_CHANNELIZER_VCF_IMPL_H
#define INCLUDED_GPUFILTER_PFB_CHANNELIZER_VCF_IMPL_H

#include "core/gpu_block.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/gpufilter/pfb_channelizer_vcf.h>
#include <string>


namespace gr {
namespace gpufilter {

//! One port of numchans-sample vectors; In: gr_complex or an IQ pair.
template <class In>
class pfb_channelizer_vcf_impl
    : public gpu_block<pfb_channelizer_vcf, cuda::pfb_channelizer_controls>
{
public:
    pfb_channelizer_vcf_impl(unsigned numchans,
                             const std::vector<float>& taps,
                             float oversample_rate,
                             const std::string& input_format,
                             int device,
                             int batch_size,
                             double max_latency);

    void set_taps(const std::vector<float>& taps) override;
    std::vector<std::vector<float>> taps() const override;
    std::string input_format() const override { return d_format; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_numchans;
    std::vector<float> d_taps;
    std::string d_format;
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
