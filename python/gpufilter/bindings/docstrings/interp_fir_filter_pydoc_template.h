/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_interp_fir_filter =
    R"doc(Interpolating FIR filter computed on a GPU; a drop-in for
gnuradio.filter.interp_fir_filter_XXX.

Output i*interpolation + p is sum_j taps[j*interpolation + p] * in[i - j]: the filter
at the output rate with only the non-zero inputs multiplied (polyphase), the same
output, history and tags as gr-filter's block. With no usable CUDA device (or
device=device_cpu) it runs gr-filter's own kernel and logs one warning.)doc";

static const char* __doc_gr_gpufilter_interp_fir_filter_make =
    R"doc(Make a GPU interpolating FIR filter.

Args:
    interpolation: interpolation factor (>= 1)
    taps: filter taps at the output rate (not empty, finite)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: output samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_interp_fir_filter_set_taps =
    R"doc(New taps; applied from the next work() call, as in gr-filter.)doc";
static const char* __doc_gr_gpufilter_interp_fir_filter_taps =
    R"doc(The taps in use, zero-padded to a multiple of the interpolation as gr-filter's.)doc";
