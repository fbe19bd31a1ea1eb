/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FFT_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_FFT_FILTER_IMPL_H

#include "fir/fir_block_impl.h"
#include <gnuradio/gpufilter/fft_filter.h>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
class fft_filter_impl
    : public fir_block_impl<fft_filter<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>
{
public:
    fft_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int nthreads,
                    int device,
                    int batch_size,
                    filter_method method,
                    double max_latency);

    void set_nthreads(int n) override;
    int nthreads() const override { return d_nthreads; }

private:
    int d_nthreads;
};

} // namespace gpufilter
} // namespace gr

#endif
