/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_HILBERT_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_HILBERT_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/stream/host_stream.h"
#include <gnuradio/filter/fir_filter.h>
#include <gnuradio/gr_complex.h>
#include <vector>

namespace gr {
namespace gpufilter {

//! gr-filter's hilbert_fc work(): the delayed input, and the Hilbert filter.
class hilbert_cpu_kernel final : public controlled_cpu_kernel<cuda::no_controls>
{
public:
    hilbert_cpu_kernel(const std::vector<float>& hilb) : d_fir(hilb) {}
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        const auto in = static_cast<const float*>(windows[0]);
        const auto y = static_cast<gr_complex*>(out[0]);
        const std::size_t delay = d_fir.ntaps() / 2;
        for (std::size_t i = 0; i < nnew; i++)
            y[i] = gr_complex(in[i + delay], d_fir.filter(&in[i]));
        return nnew;
    }

private:
    gr::filter::kernel::fir_filter<float, float, float> d_fir;
};

} // namespace gpufilter
} // namespace gr

#endif
