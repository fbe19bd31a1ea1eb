/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_FIR_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/common/rotation.h"
#include "cuda/fir/fir_controls.h"
#include <gnuradio/filter/fir_filter.h>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief gr-filter's FIR kernel run as gr-filter's FIR blocks run it, plus the
 * output rotation of the frequency-translating blocks (derived from an output count,
 * as on the GPU): the CPU fallback of every FIR-based block.
 */
template <class In, class Out, class Tap>
class fir_cpu_kernel final : public controlled_cpu_kernel<cuda::fir_controls<Tap>>
{
public:
    fir_cpu_kernel(const std::vector<Tap>& taps, int decimation);

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<Tap>& taps) override { d_fir.set_taps(taps); }
    void set_rotation(const cuda::rotation& r) override;
    cuda::rotation next_rotation() const override;

private:
    gr::filter::kernel::fir_filter<In, Out, Tap> d_fir;
    int d_decimation;
    bool d_rotating = false;
    cuda::rotation d_rotation;
    std::uint64_t d_rotated = 0; // outputs rotated since d_rotation was set
};

} // namespace gpufilter
} // namespace gr

#endif
