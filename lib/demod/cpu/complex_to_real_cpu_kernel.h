/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_COMPLEX_TO_REAL_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_COMPLEX_TO_REAL_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/stream/host_stream.h"
#include <gnuradio/gr_complex.h>
#include <volk/volk.h>

namespace gr {
namespace gpufilter {

//! gr-blocks' complex_to_real work(): volk's deinterleave of the real parts.
class complex_to_real_cpu_kernel final : public controlled_cpu_kernel<cuda::no_controls>
{
public:
    explicit complex_to_real_cpu_kernel(int vlen) : d_vlen(vlen) {}
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        volk_32fc_deinterleave_real_32f(static_cast<float*>(out[0]),
                                        static_cast<const gr_complex*>(windows[0]),
                                        static_cast<unsigned>(nnew * d_vlen));
        return nnew;
    }

private:
    std::size_t d_vlen;
};

} // namespace gpufilter
} // namespace gr

#endif
