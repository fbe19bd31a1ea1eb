/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FILTER_METHOD_H
#define INCLUDED_GPUFILTER_FILTER_METHOD_H

#include <gnuradio/gpufilter/api.h>
#include <string>

namespace gr {
namespace gpufilter {

//! The `method` argument of the FIR filter blocks: the algorithm on the GPU.
//! automatic: the faster for the block's taps and decimation, from the crossover
//! measured in docs/kernels.md; direct: the direct form; fft: overlap-save (cuFFT);
//! separable: the 2D filters only (fir_filter_2d, convolve2d), a kernel's low-rank
//! terms as pairs of 1D passes.
enum class filter_method { automatic, direct, fft, separable };

//! "auto" (or "automatic"), "direct", "fft" or "separable"; std::invalid_argument
//! naming `method` otherwise. The one parser of method names (Python, GRC, apps).
GPUFILTER_API filter_method parse_filter_method(const std::string& name);

//! The algorithm of FIR filter blocks made afterwards with method automatic:
//! automatic (the default: the measured crossover), or direct or fft for every such
//! block, to compare the two on a machine without changing a flowgraph. A block made
//! with direct or fft keeps its own. separable applies to the 2D filters; the 1D
//! filters then choose automatically.
GPUFILTER_API void set_default_filter_method(filter_method method);
GPUFILTER_API filter_method get_default_filter_method();

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_FILTER_METHOD_H */
