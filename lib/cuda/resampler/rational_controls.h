/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RATIONAL_CONTROLS_H
#define INCLUDED_GPUFILTER_CUDA_RATIONAL_CONTROLS_H

// The controls of the blocks a polyphase rational resampler computes
// (rational_resampler, interp_fir_filter, and fir_filter of the types the FIR
// engines lack): one interface for the GPU engine (rational_engine) and the CPU
// kernel (rational_cpu_kernel). A FIR's controls plus where the outputs fall, which a
// general block (rational_resampler) needs to size its calls. No CUDA types.

#include "../fir/fir_controls.h"
#include "../stream/host_stream.h"
#include "rational_position.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

template <class Tap>
class rational_controls : public fir_controls<Tap>
{
public:
    //! Outputs that n more input items give now.
    virtual std::size_t output_count(std::size_t n) const = 0;
    //! The most input items whose outputs fit in nout.
    virtual std::size_t inputs_for(std::size_t nout) const = 0;
    //! Input items gr-filter consumes for n given ones (rational_position::next_input).
    virtual std::size_t next_input(std::size_t n) const = 0;
};

//! The GPU path of these blocks: rational_engine<In, Out, Tap> on `device`, behind a
//! host_stream of max_chunk items a sub-chunk ring. Items are vectors of vlen samples,
//! each lane resampled on its own (1: a scalar stream); `start` says where the
//! first window lies (rational_position.h).
template <class In, class Out, class Tap>
gpu_path<rational_controls<Tap>> make_rational_path(int device,
                                                    std::size_t max_chunk,
                                                    unsigned interpolation,
                                                    unsigned decimation,
                                                    const std::vector<Tap>& taps,
                                                    rational_start start,
                                                    unsigned vlen = 1);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
