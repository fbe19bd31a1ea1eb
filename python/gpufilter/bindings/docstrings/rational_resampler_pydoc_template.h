/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_rational_resampler =
    R"doc(Rational resampler computed on a GPU; a drop-in for
gnuradio.filter.rational_resampler_XXX.

Resamples by interpolation/decimation with a polyphase filter that computes only the
outputs kept: the same default taps, output, phase, history, forecast and tag offsets
as gr-filter's block. With no usable CUDA device (or device=device_cpu) it runs
gr-filter's own kernel and logs one warning.)doc";

static const char* __doc_gr_gpufilter_rational_resampler_make =
    R"doc(Make a GPU rational resampler.

Args:
    interpolation: interpolation factor (>= 1)
    decimation: decimation factor (>= 1)
    taps: prototype filter taps at interpolation times the input rate; empty (the
        default): designed as gr-filter designs them, after both factors are divided
        by their greatest common divisor
    fractional_bw: passband of the designed taps, in (0, 0.5); 0 (default): 0.4
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: samples per GPU transfer (>= 1; input samples at rates up to 1, output
        samples above); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_rational_resampler_interpolation =
    R"doc(The interpolation factor (divided by the common divisor when taps were designed).)doc";
static const char* __doc_gr_gpufilter_rational_resampler_decimation =
    R"doc(The decimation factor (divided by the common divisor when taps were designed).)doc";
static const char* __doc_gr_gpufilter_rational_resampler_set_taps =
    R"doc(New taps; applied from the next work() call, as in gr-filter.)doc";
static const char* __doc_gr_gpufilter_rational_resampler_taps =
    R"doc(The taps in use, zero-padded to a multiple of interpolation() as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_rational_resampler_vff =
    R"doc(Many float streams resampled at once on a GPU: items are vectors of vlen floats,
and lane l of the output is lane l of the input through rational_resampler_fff with
the same arguments, in one block and one GPU pass.)doc";
static const char* __doc_gr_gpufilter_rational_resampler_vff_make =
    R"doc(Make a GPU rational resampler of vlen lanes.

Args:
    vlen: floats an item (>= 1)
    interpolation, decimation, taps, fractional_bw, device, batch_size, max_latency:
        as rational_resampler_fff's (batch_size in items))doc";
static const char* __doc_gr_gpufilter_rational_resampler_vff_vlen =
    R"doc(Floats an item.)doc";
