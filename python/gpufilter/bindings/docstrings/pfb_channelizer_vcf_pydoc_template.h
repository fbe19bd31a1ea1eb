/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_pfb_channelizer_vcf =
    R"doc(Polyphase filterbank channelizer computed on a GPU with one vector output, for
large channel counts: output item s is the numchans channels of step s, channel 0
first (the channels of pfb_channelizer_ccf). The input is complex float or
interleaved 8/16-bit IQ (one item per IQ pair), converted on the GPU: int8 v/128,
uint8 (v - 127.5)/127.5, int16 v/32768.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_vcf_make =
    R"doc(Make a GPU polyphase channelizer with vector output.

Args:
    numchans: number of channels (>= 1), the output vector length
    taps: prototype filter taps (not empty)
    oversample_rate: numchans/oversample_rate must be an integer in [1, numchans]
    input_format: "complex", "int8", "uint8" or "int16"
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_vcf_set_taps =
    R"doc(New prototype taps, from the next work() call on, as in gr-filter.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_vcf_taps =
    R"doc(The taps split over the branch filters (a list per filter), as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_pfb_channelizer_vcf_input_format =
    R"doc(The input format: "complex", "int8", "uint8" or "int16".)doc";
