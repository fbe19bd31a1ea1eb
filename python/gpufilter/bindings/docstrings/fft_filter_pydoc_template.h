/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_fft_filter =
    R"doc(Decimating FFT filter computed on a GPU; a drop-in for gnuradio.filter.fft_filter_XXX.

The convolution gr-filter's block computes, output k = sum_j taps[j] * in[k*decimation - j]
from zero history, on the GPU engines of fir_filter_XXX (FFT overlap-save unless method
says otherwise). nthreads is gr-filter's FFTW thread count: accepted and reported, unused
on the GPU. With no usable CUDA device (or device=device_cpu) it runs gr-filter's FIR
kernel and logs one warning.)doc";

static const char* __doc_gr_gpufilter_fft_filter_make = R"doc(Make a GPU FFT filter.

Args:
    decimation: keep every decimation-th output (>= 1)
    taps: filter taps (not empty, finite)
    nthreads: gr-filter's FFTW threads (>= 1); unused on the GPU
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    method: filter_method.fft (default), .direct or .automatic, or their names
        "fft", "direct", "auto"
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_fft_filter_set_taps =
    R"doc(New taps; applied from the next work() call, as in gr-filter.)doc";
static const char* __doc_gr_gpufilter_fft_filter_taps = R"doc(The current taps.)doc";
static const char* __doc_gr_gpufilter_fft_filter_set_nthreads =
    R"doc(gr-filter's FFTW thread count (>= 1): kept and reported, unused on the GPU.)doc";
static const char* __doc_gr_gpufilter_fft_filter_nthreads =
    R"doc(The thread count given to the constructor or set_nthreads().)doc";
