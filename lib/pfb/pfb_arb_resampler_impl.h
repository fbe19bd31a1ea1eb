/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_ARB_RESAMPLER_IMPL_H
#define INCLUDED_GPUFILTER_PFB_ARB_RESAMPLER_IMPL_H

#include "core/gpu_block.h"
#include "cuda/pfb/arb_schedule.h"
#include "pfb/pfb_computation.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/gpufilter/pfb_arb_resampler.h>

namespace gr {
namespace gpufilter {

/*!
 * A general block, as gr-filter's: each work() call takes the input gr-filter's
 * would (floor(noutput / relative_rate) samples from the next output's position) and
 * gives the outputs at those positions. Unlike gr-filter it consumes exactly the
 * samples it was given; the samples the resampler steps over past them (the
 * controls' skip()) are consumed by the next call, and forecast asks for them, so the
 * scheduler sees the same requirements as gr-filter's block.
 */
template <class IO_T, class TAP_T = float>
class pfb_arb_resampler_impl
    : public gpu_block<pfb_arb_resampler<IO_T, TAP_T>, cuda::pfb_arb_resampler_controls>
{
public:
    pfb_arb_resampler_impl(float rate,
                           const std::vector<TAP_T>& taps,
                           unsigned filter_size,
                           int device,
                           int batch_size,
                           double max_latency);

    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<std::vector<TAP_T>> taps() const override;
    void print_taps() override;
    void set_rate(float rate) override;
    void set_phase(float ph) override;
    float phase() const override;
    unsigned int interpolation_rate() const override { return d_nfilts; }
    unsigned int decimation_rate() const override { return d_rate.dec_rate; }
    float fractional_rate() const override { return d_rate.flt_rate; }
    unsigned int taps_per_filter() const override;
    int group_delay() const override { return d_delay; }
    float phase_offset(float freq, float fs) override;

    bool start() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    unsigned d_nfilts;
    std::vector<TAP_T> d_taps;
    cuda::arb_rate d_rate;
    int d_delay = 0;              // gr-filter's d_delay, from the construction
    float d_est_phase_change = 0; // and its d_est_phase_change
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
