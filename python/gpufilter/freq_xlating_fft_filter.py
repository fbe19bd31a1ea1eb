# SPDX-License-Identifier: GPL-3.0-or-later
"""gr-filter's freq_xlating_fft_filter_ccc with its filter on the GPU.

gr-filter builds it from two blocks: an FFT filter with the taps rotated to the band,
``taps[i] * exp(j*i*w)`` (w = 2*pi*center_freq/samp_rate, in double precision), and a
rotator on the decimated output, ``exp(-j*w*decim*k)``, starting at phase 0 and keeping
its phase across retunes. This is the same structure with gpufilter.fft_filter_ccc as
the filter, so the output, its phase and the behaviour of a retune are gr-filter's.

gpufilter.freq_xlating_fir_filter_ccc computes a frequency-translating filter in one
GPU pass, but with gr-filter's freq_xlating_fir_filter conventions, which are not this
block's: its rotation starts at phase -w*(ntaps-1)/2 and steps by a retune, and its
frequency is w rounded to float (a drift of about 6e-8 of w*decim rad per output against
this block's). Use it where those conventions are wanted; its output is not this one's.
"""

import cmath
import math

from gnuradio import gr
from gnuradio.blocks import rotator_cc

from . import gpufilter_python as _blocks

__all__ = ["freq_xlating_fft_filter_ccc"]


class freq_xlating_fft_filter_ccc(gr.hier_block2):
    """Frequency-translating FFT filter: shifts center_freq down to 0 Hz, filters with
    taps and keeps every decim-th output; gnuradio.filter.freq_xlating_fft_filter_ccc
    with the filter on a GPU (gpufilter.fft_filter_ccc; method "fft" by default) and
    gr-filter's rotator on the decimated output. The attributes decim, taps,
    center_freq and samp_rate are gr-filter's. GPU options follow gr-filter's
    arguments. set_nthreads() is accepted for compatibility and has no effect on the
    GPU (on the CPU fallback the filter is gr-filter's kernel with one thread).

    One difference: gr-filter's FFT filter leaves out the last outputs of a stream that
    do not fill its FFT block; this one gives every output."""

    def __init__(self, decim, taps, center_freq, samp_rate, device=_blocks.device_auto,
                 batch_size=_blocks.default_batch_size,
                 method=_blocks.filter_method.fft,
                 max_latency=_blocks.default_max_latency):
        gr.hier_block2.__init__(
            self, "freq_xlating_fft_filter_ccc",
            gr.io_signature(1, 1, gr.sizeof_gr_complex),
            gr.io_signature(1, 1, gr.sizeof_gr_complex))
        if not samp_rate > 0:
            raise ValueError(f"samp_rate: must be > 0, got {samp_rate}")
        self.decim = decim
        self.taps = taps
        self.center_freq = center_freq
        self.samp_rate = samp_rate
        self._filter = _blocks.fft_filter_ccc(decim, self._rotated_taps(), 1, device,
                                              batch_size, method,
                                              max_latency=max_latency)
        self._rotator = rotator_cc(0.0)
        self.connect(self, self._filter, self._rotator, self)
        self._refresh()

    def _phase_inc(self):
        return (2.0 * math.pi * self.center_freq) / self.samp_rate

    def _rotated_taps(self):
        phase_inc = self._phase_inc()
        return [x * cmath.exp(i * phase_inc * 1j) for i, x in enumerate(self.taps)]

    def _refresh(self):
        self._filter.set_taps(self._rotated_taps())
        self._rotator.set_phase_inc(-self.decim * self._phase_inc())

    def set_taps(self, taps):
        self.taps = taps
        self._refresh()

    def set_center_freq(self, center_freq):
        self.center_freq = center_freq
        self._refresh()

    def set_nthreads(self, nthreads):
        """Accepted for compatibility with gr-filter; no effect on the GPU."""
        self._filter.set_nthreads(nthreads)

    def nthreads(self):
        return self._filter.nthreads()

    def declare_sample_delay(self, samp_delay):
        self._filter.declare_sample_delay(samp_delay)

    def set_max_latency(self, max_latency):
        self._filter.set_max_latency(max_latency)

    def max_latency(self):
        return self._filter.max_latency()

    def on_gpu(self):
        return self._filter.on_gpu()

    def device(self):
        return self._filter.device()

    def method(self):
        return self._filter.method()
