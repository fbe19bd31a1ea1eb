/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_pfb_channelizer_ccf =
    R"doc(Polyphase filterbank channelizer computed on a GPU, from one wideband input; a
drop-in for stream_to_streams(numchans) -> gnuradio.filter.pfb_channelizer_ccf and
for gnuradio.filter.pfb.channelizer_ccf (see gpufilter.pfb).

Output port k carries channel channel_map()[k] (default 0..numchans-1), sample for
sample as gr-filter's pair; connect 1 to numchans outputs. Without a usable CUDA
device (or device=device_cpu) it runs gr-filter's own filterbank kernel.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_ccf_make =
    R"doc(Make a GPU polyphase channelizer.

Args:
    numchans: number of channels (>= 1)
    taps: prototype filter taps (not empty)
    oversample_rate: numchans/oversample_rate must be an integer in [1, numchans]
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_ccf_set_taps =
    R"doc(New prototype taps, from the next work() call on, as in gr-filter.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_ccf_taps =
    R"doc(The taps split over the branch filters (a list per filter), as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_ccf_set_channel_map =
    R"doc(Output port k carries channel map[k]; an empty map is ignored, as in gr-filter.
Entries must be in [0, numchans); the map needs an entry per connected output.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_ccf_channel_map =
    R"doc(The channel map.)doc";
