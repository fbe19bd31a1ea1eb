/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_BACKEND_H
#define INCLUDED_GPUFILTER_FIR_BACKEND_H

#include "core/block_core.h"
#include "cuda/common/rotation.h"
#include <gnuradio/filter/fir_filter.h>
#include <gnuradio/gpufilter/device.h>
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
class cpu_fir_kernel final : public cpu_kernel
{
public:
    cpu_fir_kernel(const std::vector<Tap>& taps, int decimation);

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<Tap>& taps) { d_fir.set_taps(taps); }
    void set_rotation(const cuda::rotation& r);
    cuda::rotation next_rotation() const;

private:
    gr::filter::kernel::fir_filter<In, Out, Tap> d_fir;
    int d_decimation;
    bool d_rotating = false;
    cuda::rotation d_rotation;
    std::uint64_t d_rotated = 0; // outputs rotated since d_rotation was set
};

/*!
 * \brief The FIR blocks' computation (fir_filter, freq_xlating_fir_filter,
 * hilbert_fc): a FIR on the GPU (cuda::fir_stream<In, Tap>) or gr-filter's FIR kernel
 * on the CPU (cpu_fir_kernel), made for a block_core and controlled through it, so a
 * block never asks which one runs.
 */
template <class In, class Out, class Tap>
struct fir_backend {
    static block_core::backends
    make(const std::vector<Tap>& taps, int decimation, filter_method method);

    //! New taps from the next sample on (the block sets its history, as gr-filter).
    static void set_taps(block_core& core, const std::vector<Tap>& taps);
    //! Output rotation from the next output on (complex output).
    static void set_rotation(block_core& core, const cuda::rotation& r);
    static cuda::rotation next_rotation(block_core& core);
};

} // namespace gpufilter
} // namespace gr

#endif
