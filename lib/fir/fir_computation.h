/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_COMPUTATION_H
#define INCLUDED_GPUFILTER_FIR_COMPUTATION_H

#include "core/gpu_block.h"
#include "cuda/fir/fir_controls.h"
#include <gnuradio/gpufilter/device.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief How the FIR blocks (fir_filter, fft_filter, freq_xlating_fir_filter)
 * compute: the GPU's fir_auto_engine, or gr-filter's FIR kernel on the CPU
 * (fir_cpu_kernel); either is the block's fir_controls.
 */
template <class In, class Out, class Tap>
computation<cuda::fir_controls<Tap>>
fir_computation(const std::vector<Tap>& taps, int decimation, filter_method method);

} // namespace gpufilter
} // namespace gr

#endif
