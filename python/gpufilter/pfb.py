# SPDX-License-Identifier: GPL-3.0-or-later
"""The polyphase filterbank wrappers of gnuradio.filter.pfb, on the GPU blocks.

``from gnuradio.gpufilter import pfb`` in place of ``from gnuradio.filter import pfb``:
the same classes, arguments and defaults (taps designed with optfir when none are
given, exactly as gr-filter designs them), and the GPU options (``device``,
``batch_size``, ``max_latency``) as keyword arguments after gr-filter's. The wideband
input goes to one GPU block; there is no stream_to_streams in front.
"""

from gnuradio import blocks, fft, gr
from gnuradio.filter import firdes, optfir

from . import gpufilter_python as _blocks

__all__ = ["arb_resampler_ccc", "arb_resampler_ccf", "arb_resampler_fff",
           "channelizer_ccf", "channelizer_hier_ccf", "decimator_ccf", "design_taps",
           "interpolator_ccf"]


def design_taps(nfilts, atten=100):
    """gr-filter's default prototype for pfb.channelizer_ccf and pfb.decimator_ccf:
    optfir.low_pass(1, nfilts, 0.4, 0.6, ripple, atten), the ripple raised from
    0.1 dB in steps of 0.01 dB until optfir converges (RuntimeError at 1 dB)."""
    return _optfir_low_pass(1, nfilts, 0.4, 0.4 + 0.2, atten)


def _optfir_low_pass(gain, fs, passband, stopband, atten, ripple=0.1):
    """optfir.low_pass as gr-filter's pfb wrappers call it: the ripple raised from
    0.1 dB (or the given start) in steps of 0.01 dB until optfir converges
    (RuntimeError at 1 dB)."""
    while True:
        try:
            return optfir.low_pass(gain, fs, passband, stopband, ripple, atten)
        except RuntimeError:
            ripple += 0.01
            print("Warning: set ripple to %.4f dB. If this is a problem, adjust the "
                  "attenuation or create your own filter taps." % (ripple))
            if ripple >= 1.0:
                raise RuntimeError("optfir could not generate an appropriate filter.")


class channelizer_ccf(gr.hier_block2):
    """Polyphase channelizer: one complex input, numchans complex outputs (output k
    carries channel channel_map[k]); gnuradio.filter.pfb.channelizer_ccf on a GPU."""

    def __init__(self, numchans, taps=None, oversample_rate=1, atten=100,
                 device=_blocks.device_auto, batch_size=_blocks.default_batch_size,
                 max_latency=_blocks.default_max_latency):
        gr.hier_block2.__init__(
            self, "pfb_channelizer_ccf",
            gr.io_signature(1, 1, gr.sizeof_gr_complex),
            gr.io_signature(numchans, numchans, gr.sizeof_gr_complex))
        self._nchans = numchans
        self._oversample_rate = oversample_rate
        if taps is not None and len(taps) > 0:
            self._taps = taps
        else:
            self._taps = design_taps(numchans, atten)
        self.pfb = _blocks.pfb_channelizer_ccf(numchans, self._taps, oversample_rate,
                                               device=device, batch_size=batch_size,
                                               max_latency=max_latency)
        self.connect(self, self.pfb)
        for i in range(numchans):
            self.connect((self.pfb, i), (self, i))

    def set_channel_map(self, newmap):
        self.pfb.set_channel_map(newmap)

    def channel_map(self):
        return self.pfb.channel_map()

    def set_taps(self, taps):
        self.pfb.set_taps(taps)

    def taps(self):
        return self.pfb.taps()

    def declare_sample_delay(self, delay):
        self.pfb.declare_sample_delay(delay)

    @staticmethod
    def create_taps(numchans, atten=100):
        return design_taps(numchans, atten)


class decimator_ccf(gr.hier_block2):
    """Polyphase decimator: one complex input, channel `channel` of decim at 1/decim
    of the rate; gnuradio.filter.pfb.decimator_ccf on a GPU. gr-filter spells the
    fifth argument use_fft_rotators; use_fft_rotator is accepted as well."""

    def __init__(self, decim, taps=None, channel=0, atten=100,
                 use_fft_rotators=True, use_fft_filters=True,
                 device=_blocks.device_auto, batch_size=_blocks.default_batch_size,
                 use_fft_rotator=None, max_latency=_blocks.default_max_latency):
        gr.hier_block2.__init__(
            self, "pfb_decimator_ccf",
            gr.io_signature(1, 1, gr.sizeof_gr_complex),
            gr.io_signature(1, 1, gr.sizeof_gr_complex))
        if use_fft_rotator is not None:
            use_fft_rotators = use_fft_rotator
        self._decim = decim
        self._channel = channel
        if taps is not None and len(taps) > 0:
            self._taps = taps
        else:
            self._taps = design_taps(decim, atten)
        self.pfb = _blocks.pfb_decimator_ccf(decim, self._taps, channel,
                                             use_fft_rotators, use_fft_filters,
                                             device=device, batch_size=batch_size,
                                             max_latency=max_latency)
        self.connect(self, self.pfb, self)

    def set_taps(self, taps):
        self.pfb.set_taps(taps)

    def taps(self):
        return self.pfb.taps()

    def set_channel(self, chan):
        self.pfb.set_channel(chan)

    def declare_sample_delay(self, delay):
        self.pfb.declare_sample_delay(delay)

    @staticmethod
    def create_taps(decim, atten=100):
        return design_taps(decim, atten)


class interpolator_ccf(gr.hier_block2):
    """Polyphase interpolator: one complex input, one complex output at interp times
    the rate; gnuradio.filter.pfb.interpolator_ccf on a GPU."""

    def __init__(self, interp, taps=None, atten=100, device=_blocks.device_auto,
                 batch_size=_blocks.default_batch_size,
                 max_latency=_blocks.default_max_latency):
        gr.hier_block2.__init__(
            self, "pfb_interpolator_ccf",
            gr.io_signature(1, 1, gr.sizeof_gr_complex),
            gr.io_signature(1, 1, gr.sizeof_gr_complex))
        self._interp = interp
        if taps is not None and len(taps) > 0:
            self._taps = taps
        else:
            self._taps = self.create_taps(interp, atten)
        self.pfb = _blocks.pfb_interpolator_ccf(interp, self._taps, device=device,
                                                batch_size=batch_size,
                                                max_latency=max_latency)
        self.connect(self, self.pfb, self)

    def set_taps(self, taps):
        self.pfb.set_taps(taps)

    def declare_sample_delay(self, delay):
        self.pfb.declare_sample_delay(delay)

    @staticmethod
    def create_taps(interp, atten=100):
        """gr-filter's: the whole input band, gain interp, ripple from 0.99 dB."""
        return _optfir_low_pass(interp, interp, 0.4, 0.6, atten, ripple=0.99)


class channelizer_hier_ccf(gr.hier_block2):
    """gr-filter's pfb.channelizer_hier_ccf: one complex input, one output per entry
    of outchans (default: every channel), on one GPU vector channelizer.
    n_filterbanks, which splits gr-filter's work over CPU blocks, is accepted and
    has no effect here. Taps default to optfir.low_pass(1, n_chans, bw, bw + tb,
    ripple, atten), as gr-filter's create_taps."""

    def __init__(self, n_chans, n_filterbanks=1, taps=None, outchans=None,
                 atten=100, bw=1.0, tb=0.2, ripple=0.1, device=_blocks.device_auto,
                 batch_size=_blocks.default_batch_size,
                 max_latency=_blocks.default_max_latency):
        if outchans is None:
            outchans = list(range(n_chans))
        outchans = list(outchans)
        if any(not 0 <= c < n_chans for c in outchans):
            raise ValueError("outchans: every channel must be in [0, n_chans = %d), "
                             "got %s" % (n_chans, outchans))
        gr.hier_block2.__init__(
            self, "pfb_channelizer_hier_ccf",
            gr.io_signature(1, 1, gr.sizeof_gr_complex),
            gr.io_signature(len(outchans), len(outchans), gr.sizeof_gr_complex))
        if taps is None:
            taps = self.create_taps(n_chans, atten, bw, tb, ripple)
        self.pfb = _blocks.pfb_channelizer_vcf(n_chans, list(taps), 1.0, "complex",
                                               device=device, batch_size=batch_size,
                                               max_latency=max_latency)
        self.v2ss = blocks.vector_to_streams(gr.sizeof_gr_complex, len(outchans))
        self.connect(self, self.pfb)
        if outchans != list(range(n_chans)):
            self.selector = blocks.vector_map(gr.sizeof_gr_complex, [n_chans],
                                              [[(0, c) for c in outchans]])
            self.connect(self.pfb, self.selector, self.v2ss)
        else:
            self.connect(self.pfb, self.v2ss)
        for i in range(len(outchans)):
            self.connect((self.v2ss, i), (self, i))

    @staticmethod
    def create_taps(n_chans, atten=100, bw=1.0, tb=0.2, ripple=0.1):
        return optfir.low_pass(1, n_chans, bw, bw + tb, ripple, atten)


def _arb_resampler_taps(rate, flt_size=32, atten=100):
    """gr-filter's default prototype for pfb.arb_resampler_ccf/fff: a low pass over
    80 % of the output's half band (rate < 1: firdes.low_pass_2 with a
    Blackman-harris window) or of the input's (rate >= 1: optfir, the ripple raised
    from 0.1 dB in steps of 0.01 dB until it converges)."""
    percent = 0.80
    if rate < 1:
        halfband = 0.5 * rate
        bw = percent * halfband
        tb = (percent / 2.0) * halfband
        return firdes.low_pass_2(flt_size, flt_size, bw, tb, atten,
                                 fft.window.WIN_BLACKMAN_HARRIS)
    halfband = 0.5
    bw = percent * halfband
    tb = (percent / 2.0) * halfband
    return _optfir_low_pass(flt_size, flt_size, bw, bw + tb, atten)


class _arb_resampler(gr.hier_block2):
    _name = None
    _itemsize = None
    _block = None

    def __init__(self, rate, taps=None, flt_size=32, atten=100,
                 device=_blocks.device_auto, batch_size=_blocks.default_batch_size,
                 max_latency=_blocks.default_max_latency):
        gr.hier_block2.__init__(
            self, self._name,
            gr.io_signature(1, 1, self._itemsize),
            gr.io_signature(1, 1, self._itemsize))
        self._rate = rate
        self._size = flt_size
        if taps is not None and len(taps) > 0:
            self._taps = taps
        else:
            self._taps = self.create_taps(self._rate, self._size, atten)
        self.pfb = getattr(_blocks, self._block)(self._rate, self._taps, self._size,
                                                 device=device, batch_size=batch_size,
                                                 max_latency=max_latency)
        self.connect(self, self.pfb, self)

    def set_taps(self, taps):
        self.pfb.set_taps(taps)

    def set_rate(self, rate):
        self.pfb.set_rate(rate)

    def declare_sample_delay(self, delay):
        self.pfb.declare_sample_delay(delay)

    def taps(self):
        return self.pfb.taps()

    # The GPU options of the block inside.
    def on_gpu(self):
        return self.pfb.on_gpu()

    def device(self):
        return self.pfb.device()

    def batch_size(self):
        return self.pfb.batch_size()

    def max_latency(self):
        return self.pfb.max_latency()

    def set_max_latency(self, seconds):
        self.pfb.set_max_latency(seconds)

    def current_batch_size(self):
        return self.pfb.current_batch_size()

    def input_rate(self):
        return self.pfb.input_rate()

    def largest_batch(self):
        return self.pfb.largest_batch()

    def method(self):
        return self.pfb.method()

    def fir_method(self):
        """Deprecated: use method(), which answers the same."""
        return self.method()

    @staticmethod
    def create_taps(rate, flt_size=32, atten=100):
        return _arb_resampler_taps(rate, flt_size, atten)


class arb_resampler_ccf(_arb_resampler):
    """Arbitrary resampler, complex in and out; gnuradio.filter.pfb.arb_resampler_ccf
    on a GPU (taps designed as gr-filter designs them when none are given)."""
    _name = "pfb_arb_resampler_ccf"
    _itemsize = gr.sizeof_gr_complex
    _block = "pfb_arb_resampler_ccf"


class arb_resampler_fff(_arb_resampler):
    """Arbitrary resampler, float in and out; gnuradio.filter.pfb.arb_resampler_fff
    on a GPU (taps designed as gr-filter designs them when none are given)."""
    _name = "pfb_arb_resampler_fff"
    _itemsize = gr.sizeof_float
    _block = "pfb_arb_resampler_fff"


class arb_resampler_ccc(_arb_resampler):
    """Arbitrary resampler with complex taps; gnuradio.filter.pfb.arb_resampler_ccc on a
    GPU (when no taps are given, gr-filter's full-band design for it)."""
    _name = "pfb_arb_resampler_ccc"
    _itemsize = gr.sizeof_gr_complex
    _block = "pfb_arb_resampler_ccc"

    @staticmethod
    def create_taps(rate, flt_size=32, atten=100):
        # gr-filter's: the full band of the input (0.4 passband, 0.2 transition).
        return _optfir_low_pass(flt_size, flt_size, 0.4, 0.6, atten)
