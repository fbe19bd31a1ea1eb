# SPDX-License-Identifier: GPL-3.0-or-later
"""gr-filter's uniformly modulated DFT filter banks (gnuradio.filter.filterbank), with
their subband filters on the GPU: ``gpufilter.analysis_filterbank`` and
``gpufilter.synthesis_filterbank`` take gr-filter's arguments, port layout and channel
order, and the GPU options (``device``, ``batch_size``, ``max_latency``) as keyword
arguments after them. Each subband filter is one gpufilter.fft_filter_ccc; for many
channels the polyphase blocks (pfb_channelizer_ccf, pfb_synthesizer_ccf) do the same
work in one GPU block."""

from gnuradio import blocks, fft, gr

from . import gpufilter_python as _blocks

__all__ = ["analysis_filterbank", "synthesis_filterbank"]


def _subband_taps(mpoints, taps):
    """gr-filter's split: taps padded with zeros to a multiple of mpoints, tap i to
    subband i % mpoints."""
    if mpoints < 1:
        raise ValueError("mpoints: must be >= 1, got %d" % mpoints)
    taps = list(taps or [])
    if not taps:
        raise ValueError("taps: must not be empty (gr-filter designs none either)")
    taps += [0.0] * (-len(taps) % mpoints)
    return [taps[i::mpoints] for i in range(mpoints)]


def _subband_filter(taps, gpu_options):
    return _blocks.fft_filter_ccc(1, taps, **gpu_options)


class synthesis_filterbank(gr.hier_block2):
    """mpoints complex streams in, one complex stream out at mpoints times their rate;
    gnuradio.filter.synthesis_filterbank with GPU subband filters."""

    def __init__(self, mpoints, taps=None, device=_blocks.device_auto,
                 batch_size=_blocks.default_batch_size,
                 max_latency=_blocks.default_max_latency):
        item = gr.sizeof_gr_complex
        gr.hier_block2.__init__(self, "synthesis_filterbank",
                                gr.io_signature(mpoints, mpoints, item),
                                gr.io_signature(1, 1, item))
        sub_taps = _subband_taps(mpoints, taps)
        options = dict(device=device, batch_size=batch_size, max_latency=max_latency)
        self.ss2v = blocks.streams_to_vector(item, mpoints)
        self.ifft = fft.fft_vcc(mpoints, False, [])
        self.v2ss = blocks.vector_to_streams(item, mpoints)
        self.ss2s = blocks.streams_to_stream(item, mpoints)
        for i in range(mpoints):
            self.connect((self, i), (self.ss2v, i))
        self.connect(self.ss2v, self.ifft, self.v2ss)
        self.filters = [_subband_filter(sub_taps[i], options) for i in range(mpoints)]
        for i, f in enumerate(self.filters):
            self.connect((self.v2ss, i), f, (self.ss2s, i))
        self.connect(self.ss2s, self)


class analysis_filterbank(gr.hier_block2):
    """One complex stream in, mpoints complex streams out at 1/mpoints of its rate;
    gnuradio.filter.analysis_filterbank with GPU subband filters."""

    def __init__(self, mpoints, taps=None, device=_blocks.device_auto,
                 batch_size=_blocks.default_batch_size,
                 max_latency=_blocks.default_max_latency):
        item = gr.sizeof_gr_complex
        gr.hier_block2.__init__(self, "analysis_filterbank",
                                gr.io_signature(1, 1, item),
                                gr.io_signature(mpoints, mpoints, item))
        sub_taps = _subband_taps(mpoints, taps)
        options = dict(device=device, batch_size=batch_size, max_latency=max_latency)
        self.s2ss = blocks.stream_to_streams(item, mpoints)
        self.ss2v = blocks.streams_to_vector(item, mpoints)
        self.fft = fft.fft_vcc(mpoints, True, [])
        self.v2ss = blocks.vector_to_streams(item, mpoints)
        self.connect(self, self.s2ss)
        self.filters = [_subband_filter(sub_taps[mpoints - i - 1], options)
                        for i in range(mpoints)]
        for i, f in enumerate(self.filters):
            self.connect((self.s2ss, i), f, (self.ss2v, i))
            self.connect((self.v2ss, i), (self, i))
        self.connect(self.ss2v, self.fft, self.v2ss)
