/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_fm_demod_bank_vcf =
    R"doc(FM demodulation of many channels at once, after a channelizer's vector
output (pfb_channelizer_vcf), computed on a GPU.

For each entry of channels, the same as gr-analog's quadrature_demod_cf(channel_rate /
(2 pi deviation)) -> gr-filter's fir_filter_fff(decimation, taps) -> gr-analog's
fm_deemph(channel_rate / decimation, tau), on that channel. Input: vectors of nchan
complex; output: vectors of len(channels) floats (1.0 = full deviation), one per
decimation inputs. tau=0: no de-emphasis. Without a usable CUDA device (or
device=device_cpu) it computes the same chain on the CPU.)doc";

static const char* __doc_gr_gpufilter_fm_demod_bank_vcf_make =
    R"doc(Make an FM demodulator bank.

Args:
    nchan: samples per input vector (>= 1)
    channels: the channels to demodulate (each in [0, nchan), at least one)
    decimation: the audio filter's decimation (>= 1)
    taps: the audio filter's taps (not empty, finite)
    channel_rate: the channels' sample rate, S/s (> 0)
    deviation: full-scale deviation, Hz (default 75e3)
    tau: de-emphasis time constant, s (default 75e-6; 0: none)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input vectors per GPU transfer (>= 1); 0 (the default): those of
        default_batch_size samples, max(1, default_batch_size // nchan), so that a
        batch and the buffers around the block stay a few MB whatever nchan
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_fm_demod_bank_vcf_nchan =
    R"doc(Samples per input vector.)doc";

static const char* __doc_gr_gpufilter_fm_demod_bank_vcf_channels =
    R"doc(The channels demodulated, in output order.)doc";

static const char* __doc_gr_gpufilter_fm_demod_bank_vcf_taps =
    R"doc(The audio filter's taps.)doc";
