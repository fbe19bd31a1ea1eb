/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_COMPUTATION_H
#define INCLUDED_GPUFILTER_PFB_COMPUTATION_H

// How each polyphase block computes: its engine on the GPU (cuda/pfb/pfb_controls.h)
// or gr-filter's kernel on the CPU (cpu/pfb_cpu_kernels.h); either is the block's
// controls.

#include "core/gpu_block.h"
#include "cuda/pfb/pfb_controls.h"
#include <vector>

namespace gr {
namespace gpufilter {

//! In: gr_complex, or the channelizer's interleaved IQ input types.
template <class In>
computation<cuda::pfb_channelizer_controls>
pfb_channelizer_computation(unsigned numchans,
                            const std::vector<float>& taps,
                            float oversample_rate,
                            bool vector_layout,
                            const std::vector<int>& map);

computation<cuda::pfb_decimator_controls>
pfb_decimator_computation(unsigned decim,
                          const std::vector<float>& taps,
                          unsigned channel,
                          bool use_fft_rotator,
                          bool use_fft_filters);

computation<cuda::pfb_interpolator_controls>
pfb_interpolator_computation(unsigned interp, const std::vector<float>& taps);

//! One input port per port_map entry.
computation<cuda::pfb_synthesizer_controls>
pfb_synthesizer_computation(unsigned numchans,
                            const std::vector<float>& taps,
                            bool twox,
                            const std::vector<int>& port_map);

//! T: gr_complex or float, with float taps; or gr_complex with gr_complex taps (ccc).
template <class T, class Tap = float>
computation<cuda::pfb_arb_resampler_controls> pfb_arb_resampler_computation(
    float rate, const std::vector<Tap>& taps, unsigned filter_size);

} // namespace gpufilter
} // namespace gr

#endif
