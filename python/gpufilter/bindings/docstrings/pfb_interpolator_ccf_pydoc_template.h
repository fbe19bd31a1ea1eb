/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_pfb_interpolator_ccf =
    R"doc(Polyphase interpolator computed on a GPU; a drop-in for
gnuradio.filter.pfb_interpolator_ccf.

interp outputs per input: output i*interp + j is branch filter j (taps
h[j + k*interp]) over the inputs up to i, as gr-filter computes it.)doc";

static const char* __doc_gr_gpufilter_pfb_interpolator_ccf_make =
    R"doc(Make a GPU polyphase interpolator.

Args:
    interp: interpolation, the number of branch filters (>= 1)
    taps: prototype filter taps (not empty, finite)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: output samples per GPU transfer (>= 1), the input sending
        batch_size/interp (batch_size() reports that); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_pfb_interpolator_ccf_set_taps =
    R"doc(New prototype taps, from the next work() call on, as in gr-filter.)doc";

static const char* __doc_gr_gpufilter_pfb_interpolator_ccf_taps =
    R"doc(The taps split over the branch filters (a list per filter), as gr-filter's.)doc";
