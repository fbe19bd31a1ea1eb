/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FM_DEMOD_BANK_IMPL_H
#define INCLUDED_GPUFILTER_FM_DEMOD_BANK_IMPL_H

#include "core/gpu_block.h"
#include <gnuradio/gpufilter/fm_demod_bank_vcf.h>

namespace gr {
namespace gpufilter {

class fm_demod_bank_vcf_impl : public gpu_block<fm_demod_bank_vcf>
{
public:
    fm_demod_bank_vcf_impl(unsigned nchan,
                           const std::vector<unsigned>& channels,
                           unsigned decimation,
                           const std::vector<float>& taps,
                           double channel_rate,
                           double deviation,
                           double tau,
                           int device,
                           int batch_size,
                           double max_latency);

    unsigned nchan() const override { return d_nchan; }
    std::vector<unsigned> channels() const override { return d_channels; }
    std::vector<float> taps() const override { return d_taps; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_nchan;
    unsigned d_decim;
    std::vector<unsigned> d_channels;
    std::vector<float> d_taps;
};

} // namespace gpufilter
} // namespace gr

#endif
