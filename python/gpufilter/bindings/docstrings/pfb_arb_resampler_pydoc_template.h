/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_pfb_arb_resampler =
    R"doc(Polyphase filterbank arbitrary resampler computed on a GPU; a drop-in for
gnuradio.filter.pfb_arb_resampler_ccf / _fff / _ccc (complex taps) and, through
gpufilter.pfb, for
gnuradio.filter.pfb.arb_resampler_ccf / _fff.

Resamples by any real rate with filter_size arms of the prototype filter and of its
derivative, interpolating linearly between arms as gr-filter's kernel does: the same
arm, input sample and fraction for every output, the same history, forecast,
relative rate and tag offsets (offset * rate). With no usable CUDA device (or
device=device_cpu) it runs gr-filter's own kernel and logs one warning.)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_make =
    R"doc(Make a GPU arbitrary resampler.

Args:
    rate: resampling rate, output over input, in [2^-24, 2^24]
    taps: prototype filter taps, designed at filter_size times the input rate
    filter_size: number of filter arms (>= 1); more arms, less interpolation noise
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: samples per GPU transfer (>= 1; input samples at rates up to 1, output
        samples above); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_set_taps =
    R"doc(New prototype taps; the history changes from the next work() call, as in gr-filter.)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_taps =
    R"doc(The taps split over the filter arms (a list per arm), as gr-filter's.)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_print_taps =
    R"doc(Prints the arms' taps.)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_set_rate =
    R"doc(The resampling rate from the next output on (in [2^-24, 2^24]).)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_set_phase =
    R"doc(Sets the next output's arm from a phase in [0, 2 pi).)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_phase =
    R"doc(The next output's arm, as a phase in [0, 2 pi).)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_interpolation_rate =
    R"doc(The number of filter arms (filter_size).)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_decimation_rate =
    R"doc(The stride through the arms, floor(filter_size / rate).)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_fractional_rate =
    R"doc(filter_size / rate - decimation_rate().)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_taps_per_filter =
    R"doc(Taps per arm, ceil(ntaps / filter_size).)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_group_delay =
    R"doc(The filter's group delay in samples, from the construction's rate and taps.)doc";

static const char* __doc_gr_gpufilter_pfb_arb_resampler_phase_offset =
    R"doc(gr-filter's estimate of the phase a sine of frequency freq (sample rate fs)
picks up through the resampler.)doc";
