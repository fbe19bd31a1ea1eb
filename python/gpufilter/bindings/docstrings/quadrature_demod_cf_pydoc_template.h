/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_quadrature_demod_cf =
    R"doc(Quadrature (FM) demodulator computed on a GPU; a drop-in for
gnuradio.analog.quadrature_demod_cf.

Same argument, output, history and tags as gr-analog's block:
out[i] = gain * arg(in[i] * conj(in[i-1])), with gr's fast_atan2f (within 1.6e-6 rad
of atan2), computed step by step as gr-analog does. The GPU's outputs equal
gr-analog's, or differ from them by about 1e-7 rad times the gain where volk rounds
the conjugate product otherwise (volk picks its kernel by processor). Without a usable CUDA device
(or device=device_cpu) it runs gr-analog's own arithmetic.)doc";

static const char* __doc_gr_gpufilter_quadrature_demod_cf_make =
    R"doc(Make a GPU quadrature demodulator.

Args:
    gain: output per radian of phase step (finite)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_quadrature_demod_cf_set_gain =
    R"doc(The gain from the next work() call on (finite).)doc";

static const char* __doc_gr_gpufilter_quadrature_demod_cf_gain = R"doc(The gain.)doc";
