/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_fir_filter =
    R"doc(Decimating FIR filter computed on a GPU; a drop-in for gnuradio.filter.fir_filter_XXX.

Same arguments, output, history, decimation phase and tags as gr-filter's block:
output k is sum_j taps[j] * in[k*decimation - j], starting from zero history.
Samples travel to the GPU in batches of up to batch_size input samples (fewer on a
slow live stream, so that no input waits longer than max_latency) through DMA from and
to GNU Radio's buffers. With no usable CUDA device (or device=device_cpu) it runs
gr-filter's CPU kernel and logs one warning.)doc";

static const char* __doc_gr_gpufilter_fir_filter_make = R"doc(Make a GPU FIR filter.

Args:
    decimation: keep every decimation-th output (>= 1)
    taps: filter taps (not empty, finite)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    method: "auto" (the faster algorithm for these taps, from the measured
        crossover), "direct" (direct form) or "fft" (overlap-save with cuFFT)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_fir_filter_set_taps =
    R"doc(New taps; applied from the next work() call, as in gr-filter.)doc";
static const char* __doc_gr_gpufilter_fir_filter_taps = R"doc(The current taps.)doc";
