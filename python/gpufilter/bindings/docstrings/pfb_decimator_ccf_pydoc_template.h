/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_pfb_decimator_ccf =
    R"doc(Polyphase filterbank decimator computed on a GPU, from one wideband input; a
drop-in for stream_to_streams(decim) -> gnuradio.filter.pfb_decimator_ccf and for
gnuradio.filter.pfb.decimator_ccf (see gpufilter.pfb).

One output per decim inputs: the filterbank's channel `channel`, as gr-filter
computes it for both settings of use_fft_rotator; with use_fft_filters the output
length is that of gr-filter's FFT branch filters (whole blocks).)doc";

static const char* __doc_gr_gpufilter_pfb_decimator_ccf_make =
    R"doc(Make a GPU polyphase decimator.

Args:
    decim: decimation, the number of branch filters (>= 1)
    taps: prototype filter taps (not empty)
    channel: the channel to output, in [0, decim)
    use_fft_rotator: rotate by an inverse FFT (True) or by gr-filter's table
    use_fft_filters: output whole blocks of gr-filter's FFT branch filters
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_pfb_decimator_ccf_set_taps =
    R"doc(New prototype taps, from the next work() call on, as in gr-filter.)doc";

static const char* __doc_gr_gpufilter_pfb_decimator_ccf_taps =
    R"doc(The taps split over the branch filters (a list per filter), as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_pfb_decimator_ccf_set_channel =
    R"doc(The channel to output from the next work() call on, in [0, decim).)doc";

static const char* __doc_gr_gpufilter_pfb_decimator_ccf_channel =
    R"doc(The channel being output.)doc";
