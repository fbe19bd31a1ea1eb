/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_NLMS_BACKEND_H
#define INCLUDED_GPUFILTER_NLMS_BACKEND_H

#include "core/block_core.h"
#include "nlms/nlms_cpu.h"
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief The NLMS blocks' CPU fallback: nlms_cpu on GNU Radio's windows (history 1,
 * so a window is just the new items), items of nfilters floats.
 */
class cpu_nlms_kernel final : public cpu_kernel
{
public:
    cpu_nlms_kernel(int ntaps, int nfilters, float mu, float eps)
        : d_nlms(ntaps, nfilters, { mu }, eps)
    {
    }
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        d_nlms.process(static_cast<const float*>(windows[0]),
                       static_cast<const float*>(windows[1]),
                       static_cast<float*>(out[0]),
                       1,
                       static_cast<std::size_t>(d_nlms.nfilters()),
                       nnew);
        return nnew;
    }
    nlms_cpu& nlms() { return d_nlms; }

private:
    nlms_cpu d_nlms;
};

/*!
 * \brief The NLMS blocks' computation: cuda::nlms_stream on the GPU or
 * cpu_nlms_kernel, made for a block_core and controlled through it.
 */
struct nlms_backend {
    static block_core::backends make(int ntaps, int nfilters, float mu, float eps);

    static void set_mu(block_core& core, float mu);
    static void set_taps(block_core& core, int k, const std::vector<float>& taps);
    static std::vector<float> taps(block_core& core, int k);
    static void reset(block_core& core);
};

} // namespace gpufilter
} // namespace gr

#endif
