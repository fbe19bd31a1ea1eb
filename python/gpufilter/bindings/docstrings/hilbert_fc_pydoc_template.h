/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_hilbert_fc =
    R"doc(Analytic signal (Hilbert transformer) computed on a GPU; a drop-in for
gnuradio.filter.hilbert_fc.

Same arguments, output, alignment and tags as gr-filter's block: with n = ntaps | 1
and h = firdes.hilbert(n, window, param), output i is
in[i - n//2] + 1j * sum_m h[m] in[i - m]. On the GPU both parts come from one FIR
pass with complex taps. Without a usable CUDA device (or device=device_cpu) it runs
gr-filter's CPU kernel.)doc";

static const char* __doc_gr_gpufilter_hilbert_fc_make =
    R"doc(Make a GPU Hilbert transformer.

Args:
    ntaps: number of taps (>= 2; an even count is made odd, as in gr-filter)
    window: window of the Hilbert filter design (fft.window.WIN_*)
    param: Kaiser/Exp/Gaussian/Tukey window parameter
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_hilbert_fc_taps =
    R"doc(The Hilbert filter's taps (the imaginary part's filter).)doc";
