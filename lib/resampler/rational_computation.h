/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_RATIONAL_COMPUTATION_H
#define INCLUDED_GPUFILTER_RATIONAL_COMPUTATION_H

#include "core/gpu_block.h"
#include "cuda/resampler/rational_controls.h"
#include "cuda/resampler/rational_position.h"
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief How the blocks of a polyphase rational resampler (rational_resampler,
 * interp_fir_filter, fir_filter_fsf) compute: the GPU's rational_engine, or
 * gr-filter's FIR kernels arm by arm on the CPU (rational_cpu_kernel); either is the
 * block's rational_controls.
 */
template <class In, class Out, class Tap>
computation<cuda::rational_controls<Tap>>
rational_computation(unsigned interpolation,
                     unsigned decimation,
                     const std::vector<Tap>& taps,
                     cuda::rational_start start,
                     unsigned vlen = 1);

} // namespace gpufilter
} // namespace gr

#endif
