/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_CONTROLS_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_CONTROLS_H

// The NLMS blocks' controls, one interface for the GPU engine (nlms_engine) and the
// CPU kernel (nlms_cpu_kernel). No CUDA types.

#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

class nlms_controls
{
public:
    virtual ~nlms_controls() = default;
    //! One step size, or one per filter, from the next sample on.
    virtual void set_mu(const std::vector<float>& mu) = 0;
    //! Filter k's taps (ntaps values), from the next sample on.
    virtual void set_taps(int k, const std::vector<float>& taps) = 0;
    //! Filter k's taps now (after every sample given so far).
    virtual std::vector<float> taps(int k) = 0;
    //! Zero taps and history for every filter.
    virtual void reset() = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
