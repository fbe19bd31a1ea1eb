/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_freq_xlating_fir_filter =
    R"doc(Frequency-translating decimating FIR filter computed on a GPU; a drop-in for
gnuradio.filter.freq_xlating_fir_filter_XXX.

Shifts center_freq down to 0 Hz, filters with taps and keeps every decimation-th
output, with gr-filter's conventions: band-pass taps taps[i]*exp(j*i*w),
w = 2*pi*center_freq/sampling_freq, then output k rotated by exp(-j*w*decimation*k)
from phase -w*(ntaps-1)/2; a retune adds -(w_new - w_old)*(ntaps-1)/2. On the GPU
the whole is one kernel pass, and the rotation's phase comes from a 64-bit output
count in double precision, so it never drifts.

Message port "freq": a dict with key "freq", or a pair whose cdr is a real number,
retunes the block. Every retune and set_taps() writes a tag "freq" on the first
output it applies to. Without a usable CUDA device (or device=device_cpu) it runs
gr-filter's CPU FIR kernel with the same rotation.)doc";

static const char* __doc_gr_gpufilter_freq_xlating_fir_filter_make =
    R"doc(Make a GPU frequency-translating FIR filter.

Args:
    decimation: keep every decimation-th output (>= 1)
    taps: low-pass prototype taps (not empty, finite)
    center_freq: frequency shifted down to 0 Hz (Hz)
    sampling_freq: input sample rate (Hz, > 0)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_freq_xlating_fir_filter_set_center_freq =
    R"doc(New centre frequency; applied from the next work() call, with a "freq" tag.)doc";
static const char* __doc_gr_gpufilter_freq_xlating_fir_filter_center_freq =
    R"doc(The centre frequency (Hz).)doc";
static const char* __doc_gr_gpufilter_freq_xlating_fir_filter_set_taps =
    R"doc(New prototype taps; applied from the next work() call, with a "freq" tag.)doc";
static const char* __doc_gr_gpufilter_freq_xlating_fir_filter_taps =
    R"doc(The prototype (low-pass) taps.)doc";
