/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_CONTROLS_H
#define INCLUDED_GPUFILTER_CUDA_FIR_CONTROLS_H

// The FIR blocks' controls (fir_filter, fft_filter, freq_xlating_fir_filter,
// hilbert_fc), one interface for the GPU engine (fir_auto_engine) and the CPU kernel
// (fir_cpu_kernel): a block holds it and never asks which one computes. No CUDA types.

#include "../common/rotation.h"
#include "../stream/host_stream.h"
#include "fir_tuning.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

template <class Tap>
class fir_controls
{
public:
    virtual ~fir_controls() = default;

    //! New taps from the next sample on; the block sets its history again next (as
    //! gr-filter does), which is also what an engine with a new algorithm starts from.
    virtual void set_taps(const std::vector<Tap>& taps) = 0;
    //! Output rotation from the next output on (complex output only).
    virtual void set_rotation(const rotation& r) = 0;
    //! The rotation the next output gets.
    virtual rotation next_rotation() const = 0;
};

//! The GPU path of the FIR blocks: fir_auto_engine<In, Tap> on `device`, behind a
//! host_stream of max_chunk samples a sub-chunk ring.
template <class In, class Tap>
gpu_path<fir_controls<Tap>> make_fir_path(int device,
                                          std::size_t max_chunk,
                                          const std::vector<Tap>& taps,
                                          int decimation,
                                          fir_method method);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
