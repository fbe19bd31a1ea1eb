/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_NLMS_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_NLMS_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/nlms/nlms_controls.h"
#include "nlms/cpu/nlms_cpu.h"
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief The NLMS blocks' CPU fallback: nlms_cpu on GNU Radio's windows (history 1,
 * so a window is just the new items), items of nfilters floats.
 */
class nlms_cpu_kernel final : public controlled_cpu_kernel<cuda::nlms_controls>
{
public:
    nlms_cpu_kernel(int ntaps, int nfilters, float mu, float eps)
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
    void set_mu(const std::vector<float>& mu) override { d_nlms.set_mu(mu); }
    void set_taps(int k, const std::vector<float>& taps) override
    {
        d_nlms.set_taps(k, taps);
    }
    std::vector<float> taps(int k) override { return d_nlms.taps(k); }
    void reset() override { d_nlms.reset(); }

private:
    nlms_cpu d_nlms;
};

} // namespace gpufilter
} // namespace gr

#endif
