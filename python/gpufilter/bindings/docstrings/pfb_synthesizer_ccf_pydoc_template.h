/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_pfb_synthesizer_ccf =
    R"doc(Polyphase synthesis filterbank computed on a GPU; a drop-in for
gnuradio.filter.pfb_synthesizer_ccf, the inverse of pfb_channelizer_ccf.

1 to numchans channel inputs, one output at numchans times their rate: per step,
input k goes to bin channel_map()[k] of an inverse FFT (2*numchans points with
twox), whose outputs go through the polyphase branch filters, as gr-filter computes
it.)doc";

static const char* __doc_gr_gpufilter_pfb_synthesizer_ccf_make =
    R"doc(Make a GPU polyphase synthesizer.

Args:
    numchans: number of channels (>= 1; even with twox)
    taps: prototype filter taps (not empty, finite)
    twox: 2x oversampled synthesis (a 2*numchans-point FFT)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: output samples per GPU transfer (>= 1), each input sending
        batch_size/numchans (batch_size() reports that); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_pfb_synthesizer_ccf_set_taps =
    R"doc(New prototype taps from the next work() call on; the branch filters restart from
zeros, as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_pfb_synthesizer_ccf_taps =
    R"doc(The branch filters' taps (numchans lists, 2*numchans with twox), as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_pfb_synthesizer_ccf_set_channel_map =
    R"doc(Input k feeds FFT bin map[k]; entries in [0, numchans), [0, 2*numchans) with
twox. An empty map is ignored, as in gr-filter.)doc";

static const char* __doc_gr_gpufilter_pfb_synthesizer_ccf_channel_map =
    R"doc(The channel map.)doc";
