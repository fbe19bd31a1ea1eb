/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FREQ_XLATING_FIR_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_FREQ_XLATING_FIR_FILTER_IMPL_H

#include "core/gpu_block.h"
#include "fir/fir_computation.h"
#include <gnuradio/gpufilter/freq_xlating_fir_filter.h>
#include <pmt/pmt.h>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
class freq_xlating_fir_filter_impl
    : public gpu_block<freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>,
                       cuda::fir_controls<gr_complex>>
{
public:
    freq_xlating_fir_filter_impl(int decimation,
                                 const std::vector<TAP_T>& taps,
                                 double center_freq,
                                 double sampling_freq,
                                 int device,
                                 int batch_size,
                                 double max_latency);

    void set_center_freq(double center_freq) override;
    double center_freq() const override;
    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    void handle_set_center_freq(const pmt::pmt_t& msg);
    void build_composite_fir(); // gr-filter's name: new band-pass taps and rotation

    // Staged by the setters (under d_setlock), applied by work() as in gr-filter.
    std::vector<TAP_T> d_proto_taps;
    double d_center_freq;
    double d_prev_center_freq = 0.0; // gr-filter's rotator starts "from 0 Hz"
    const double d_sampling_freq;
    bool d_updated = false;
};

} // namespace gpufilter
} // namespace gr

#endif
