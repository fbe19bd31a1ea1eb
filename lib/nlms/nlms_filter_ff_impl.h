/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_NLMS_FILTER_FF_IMPL_H
#define INCLUDED_GPUFILTER_NLMS_FILTER_FF_IMPL_H

#include "core/gpu_block.h"
#include "nlms/cpu/nlms_cpu_kernel.h"
#include <gnuradio/gpufilter/nlms_filter_ff.h>

namespace gr {
namespace gpufilter {

class nlms_filter_ff_impl : public gpu_block<nlms_filter_ff, cuda::nlms_controls>
{
public:
    nlms_filter_ff_impl(int ntaps,
                        double mu,
                        int nfilters,
                        double eps,
                        int device,
                        int batch_size,
                        double max_latency);

    void set_mu(double mu) override;
    double mu() const override { return d_mu; }
    std::vector<float> taps(int k) override;
    void set_taps(const std::vector<float>& taps, int k) override;
    void reset() override;
    int ntaps() const override { return d_ntaps; }
    int nfilters() const override { return d_nfilters; }
    double eps() const override { return d_eps; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    int d_ntaps;
    int d_nfilters;
    double d_mu;
    double d_eps;
};

} // namespace gpufilter
} // namespace gr

#endif
