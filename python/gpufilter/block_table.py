# SPDX-License-Identifier: GPL-3.0-or-later
"""Every GPU block once, as a table the reliability tests walk (many flowgraphs,
streams that end mid-batch, sanitizers): how to make ours, how to make gr-filter's
(or its float64 model), and the port layout. Adding a block is one entry here; the
entries of blocks this build does not have yet are left out by `available()`."""

import numpy as np
from gnuradio import analog, blocks, filter, gpufilter, gr

from nlms_reference import nlms_reference

SOURCES = {"c": blocks.vector_source_c, "f": blocks.vector_source_f,
           "s": blocks.vector_source_s}
SINKS = {"c": blocks.vector_sink_c, "f": blocks.vector_sink_f}
SIZES = {"c": gr.sizeof_gr_complex, "f": gr.sizeof_float, "s": gr.sizeof_short}


class entry:
    """One block. ours(taps, **gpu_options) and theirs(taps) make the two blocks with
    the same ports; a block gr-filter lacks gives reference(inputs, taps) instead (a
    float64 model: list of output arrays from list of input arrays). taps(rng) draws
    the block's taps (or None). `vlen` is the output's vector length. `length_slack`:
    how many outputs the stream's end may differ by (the arbitrary resamplers: where
    gr-filter's stream ends depends on its call sizes at rates above 1; our end is
    checked against the computable outputs in qa_pfb_arb_resampler)."""

    def __init__(self, name, ins, outs, ours, theirs=None, reference=None, taps=None,
                 nin=1, nout=1, vlen=1, tolerance=1e-4, length_slack=0):
        self.name, self.ins, self.outs = name, ins, outs
        self.ours, self.theirs, self.reference = ours, theirs, reference
        self.taps = taps or (lambda rng: None)
        self.nin, self.nout, self.vlen, self.tolerance = nin, nout, vlen, tolerance
        self.length_slack = length_slack

    def inputs(self, rng, n):
        out = []
        for _ in range(self.nin):
            if self.ins == "c":
                out.append((rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n))
                           .astype(np.complex64))
            elif self.ins == "s":
                out.append(rng.integers(-20000, 20000, n).astype(np.int16))
            else:
                out.append(rng.uniform(-1, 1, n).astype(np.float32))
        return out


def real_taps(n):
    return lambda rng: rng.uniform(-1, 1, n).astype(np.float32).tolist()


def complex_taps(n):
    return lambda rng: (rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)).tolist()


class _fm_chain(gr.hier_block2):
    """quadrature_demod_cf -> fir_filter_fff -> fm_deemph (as an iir_filter_ffd):
    fm_demod_bank_vcf's chain for one channel, from GNU Radio's blocks."""

    def __init__(self, decim, taps, rate, deviation, tau):
        gr.hier_block2.__init__(self, "fm_chain",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(1, 1, gr.sizeof_float))
        fs = rate / decim
        w_ca = 2.0 * fs * np.tan(1.0 / tau / (2.0 * fs))
        k = -w_ca / (2.0 * fs)
        b0 = -k / (1.0 - k)
        self.connect(self, analog.quadrature_demod_cf(rate / (2 * np.pi * deviation)),
                     filter.fir_filter_fff(decim, taps),
                     filter.iir_filter_ffd([b0, b0], [1.0, -(1.0 + k) / (1.0 - k)], False),
                     self)


class _split_channelizer(gr.hier_block2):
    """gr-filter's polyphase blocks take numchans streams: stream_to_streams in front,
    and (vector=True) streams_to_vector behind, as one block with our ports."""

    def __init__(self, numchans, block, nout, vector=False):
        out_sig = (gr.io_signature(1, 1, gr.sizeof_gr_complex * numchans) if vector else
                   gr.io_signature(nout, nout, gr.sizeof_gr_complex))
        gr.hier_block2.__init__(self, "split_" + block.name(),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex), out_sig)
        s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, numchans)
        self.connect(self, s2ss)
        for i in range(numchans):
            self.connect((s2ss, i), (block, i))
        if vector:
            s2v = blocks.streams_to_vector(gr.sizeof_gr_complex, numchans)
            for i in range(numchans):
                self.connect((block, i), (s2v, i))
            self.connect(s2v, self)
        else:
            for k in range(nout):
                self.connect((block, k), (self, k))
        self.block = block


class _rows(gr.hier_block2):
    """A block on vectors of vlen between scalar streams (stream_to_vector, the block,
    vector_to_stream), so the table's scalar sources and sinks feed it. The GPU
    options and unique_id are the inner block's."""

    def __init__(self, block, vlen, size):
        gr.hier_block2.__init__(self, "rows", gr.io_signature(1, 1, size),
                                gr.io_signature(1, 1, size))
        self.block = block
        self.connect(self, blocks.stream_to_vector(size, vlen), block,
                     blocks.vector_to_stream(size, vlen), self)

    def on_gpu(self):
        return self.block.on_gpu()

    def device(self):
        return self.block.device()

    def unique_id(self):
        return self.block.unique_id()


def _fir2d_reference(vlen):
    """Rows of SciPy's full 2D convolution, columns cropped as 'same': numpy only."""
    def reference(inputs, taps):
        k = np.asarray(taps, dtype=np.complex128)
        x = np.asarray(inputs[0], dtype=np.complex128)
        rows = x[:len(x) // vlen * vlen].reshape(-1, vlen)
        kh, kw = k.shape
        padded = np.zeros((rows.shape[0] + kh - 1, vlen + kw - 1), np.complex128)
        padded[kh - 1:, kw - 1 - (kw - 1) // 2:kw - 1 - (kw - 1) // 2 + vlen] = rows
        y = np.zeros(rows.shape, np.complex128)
        for i in range(kh):
            for j in range(kw):
                y += k[i, j] * padded[kh - 1 - i:kh - 1 - i + rows.shape[0],
                                      kw - 1 - j:kw - 1 - j + vlen]
        return [y.reshape(-1)]
    return reference


def _fir2d(name, vlen, shape, ins):
    size = SIZES[ins]

    def taps(rng):
        k = rng.uniform(-1, 1, shape)
        if name.endswith("ccc"):
            k = k + 1j * rng.uniform(-1, 1, shape)
        return k.tolist()
    return entry(name, ins, ins,
                 lambda t, **o: _rows(getattr(gpufilter, name)(vlen, t, **o), vlen, size),
                 reference=_fir2d_reference(vlen), taps=taps)


def _nlms_reference(inputs, taps):
    e, _ = nlms_reference(inputs[0], inputs[1], 16, 0.5)
    return [e]


def _fir(name, decim, taps, ins, outs):
    return entry(name, ins, outs,
                 lambda t, **o: getattr(gpufilter, name)(decim, t, **o),
                 lambda t: getattr(filter, name)(decim, t), taps=taps)


def _fft(name, decim, taps, ins, outs):
    # gr-filter's fft_filter drops the stream's last partial FFT block; ours gives
    # every output, as its fir_filter does: that is the reference.
    fir = name.replace("fft_filter", "fir_filter")
    return entry(name, ins, outs,
                 lambda t, **o: getattr(gpufilter, name)(decim, t, 1, **o),
                 lambda t: getattr(filter, fir)(decim, t), taps=taps)


def _xlating(name, decim, taps, ins):
    args = (1234.5, 48e3)
    return entry(name, ins, "c",
                 lambda t, **o: getattr(gpufilter, name)(decim, t, *args, **o),
                 lambda t: getattr(filter, name)(decim, t, *args), taps=taps,
                 tolerance=3e-4)


TABLE = [
    _fir("fir_filter_fff", 3, real_taps(31), "f", "f"),
    _fir("fir_filter_ccf", 2, real_taps(40), "c", "c"),
    _fir("fir_filter_ccc", 1, complex_taps(17), "c", "c"),
    _fir("fir_filter_fcc", 4, complex_taps(33), "f", "c"),
    _fft("fft_filter_ccc", 2, complex_taps(70), "c", "c"),
    _fft("fft_filter_ccf", 1, real_taps(65), "c", "c"),
    _fft("fft_filter_fff", 3, real_taps(90), "f", "f"),
    _xlating("freq_xlating_fir_filter_ccf", 5, real_taps(41), "c"),
    _xlating("freq_xlating_fir_filter_ccc", 2, complex_taps(20), "c"),
    _xlating("freq_xlating_fir_filter_fcc", 3, complex_taps(25), "f"),
    _xlating("freq_xlating_fir_filter_fcf", 1, real_taps(25), "f"),
    _xlating("freq_xlating_fir_filter_scf", 4, real_taps(30), "s"),
    _xlating("freq_xlating_fir_filter_scc", 2, complex_taps(12), "s"),
    entry("hilbert_fc", "f", "c", lambda t, **o: gpufilter.hilbert_fc(65, **o),
          lambda t: filter.hilbert_fc(65)),
    entry("pfb_channelizer_ccf", "c", "c",
          lambda t, **o: gpufilter.pfb_channelizer_ccf(4, t, 1.0, **o),
          lambda t: _split_channelizer(4, filter.pfb_channelizer_ccf(4, t, 1.0), 4),
          taps=real_taps(45), nout=4),
    entry("pfb_channelizer_vcf", "c", "c",
          lambda t, **o: gpufilter.pfb_channelizer_vcf(4, t, 1.0, "complex", **o),
          lambda t: _split_channelizer(4, filter.pfb_channelizer_ccf(4, t, 1.0), 4,
                                       vector=True),
          taps=real_taps(45), vlen=4),
    entry("pfb_decimator_ccf", "c", "c",
          lambda t, **o: gpufilter.pfb_decimator_ccf(4, t, 1, True, True, **o),
          lambda t: _split_channelizer(
              4, filter.pfb_decimator_ccf(4, t, 1, True, True), 1),
          taps=real_taps(33)),
    entry("nlms_filter_ff", "f", "f", lambda t, **o: gpufilter.nlms_filter_ff(16, 0.5, **o),
          reference=_nlms_reference, nin=2, tolerance=1e-4),
    entry("pfb_interpolator_ccf", "c", "c",
          lambda t, **o: gpufilter.pfb_interpolator_ccf(3, t, **o),
          lambda t: filter.pfb_interpolator_ccf(3, t), taps=real_taps(30)),
    entry("pfb_synthesizer_ccf", "c", "c",
          lambda t, **o: gpufilter.pfb_synthesizer_ccf(4, t, False, **o),
          lambda t: filter.pfb_synthesizer_ccf(4, t, False), taps=real_taps(32), nin=4),
    entry("pfb_arb_resampler_ccf", "c", "c",
          lambda t, **o: gpufilter.pfb_arb_resampler_ccf(1.5, t, 32, **o),
          lambda t: filter.pfb_arb_resampler_ccf(1.5, t, 32), taps=real_taps(32 * 9),
          length_slack=34),
    entry("pfb_arb_resampler_fff", "f", "f",
          lambda t, **o: gpufilter.pfb_arb_resampler_fff(0.75, t, 32, **o),
          lambda t: filter.pfb_arb_resampler_fff(0.75, t, 32), taps=real_taps(32 * 9),
          length_slack=34),
    entry("pfb_arb_resampler_ccc", "c", "c",
          lambda t, **o: gpufilter.pfb_arb_resampler_ccc(1.5, t, 32, **o),
          lambda t: filter.pfb_arb_resampler_ccc(1.5, t, 32), taps=complex_taps(32 * 9),
          length_slack=34),
    # Rational resamplers below 1 (above it gr-filter's block may read a sample past
    # the input it was given: qa_rational_resampler checks those against their
    # definition); their stream ends as gr-filter's within two samples' outputs.
    entry("rational_resampler_ccf", "c", "c",
          lambda t, **o: gpufilter.rational_resampler_ccf(2, 3, t, **o),
          lambda t: filter.rational_resampler_ccf(2, 3, t), taps=real_taps(25),
          length_slack=2),
    entry("rational_resampler_fff", "f", "f",
          lambda t, **o: gpufilter.rational_resampler_fff(147, 160, t, **o),
          lambda t: filter.rational_resampler_fff(147, 160, t), taps=real_taps(147 * 5),
          length_slack=2),
    entry("interp_fir_filter_ccc", "c", "c",
          lambda t, **o: gpufilter.interp_fir_filter_ccc(4, t, **o),
          lambda t: filter.interp_fir_filter_ccc(4, t), taps=complex_taps(37)),
    _fir("fir_filter_scc", 3, complex_taps(21), "s", "c"),
    entry("quadrature_demod_cf", "c", "f",
          lambda t, **o: gpufilter.quadrature_demod_cf(2.5, **o),
          lambda t: analog.quadrature_demod_cf(2.5)),
    entry("complex_to_real", "c", "f",
          lambda t, **o: gpufilter.complex_to_real(1, **o),
          lambda t: blocks.complex_to_real(1), tolerance=0),
    # One channel (vectors of one sample: a plain stream) against gr-analog's and
    # gr-filter's chain.
    entry("fm_demod_bank_vcf", "c", "f",
          lambda t, **o: gpufilter.fm_demod_bank_vcf(1, [0], 3, t, 400e3, 75e3, 75e-6,
                                                     **o),
          lambda t: _fm_chain(3, t, 400e3, 75e3, 75e-6), taps=real_taps(17)),
    # 2D FIRs: rows of 16 items; gr-filter has none, so the float64 model.
    _fir2d("fir_filter_2d_fff", 16, (3, 5), "f"),
    _fir2d("fir_filter_2d_ccc", 16, (4, 3), "c"),
]


def available():
    """The entries whose block this build of gpufilter has."""
    return [e for e in TABLE if hasattr(gpufilter, e.name)]


def run(e, inputs, taps, head=None, timeout=60, **gpu_options):
    """Runs inputs through ours and gr-filter's (or the model) in one flowgraph (a
    head of `head` items after each source when given). Returns (ours, got, want):
    per output port, numpy arrays (vectors flattened). Fails after `timeout` seconds
    instead of hanging."""
    tb = gr.top_block()
    ours = e.ours(taps, **gpu_options)
    srcs = []
    for k in range(e.nin):
        src = SOURCES[e.ins](inputs[k].tolist())
        if head is not None:
            h = blocks.head(SIZES[e.ins], head)
            tb.connect(src, h)
            src = h
        srcs.append(src)
    got = [SINKS[e.outs](e.vlen) for _ in range(e.nout)]
    for k, src in enumerate(srcs):
        tb.connect(src, (ours, k))
    for q in range(e.nout):
        tb.connect((ours, q), got[q])
    want = None
    if e.theirs is not None:
        theirs = e.theirs(taps)
        want = [SINKS[e.outs](e.vlen) for _ in range(e.nout)]
        for k, src in enumerate(srcs):
            tb.connect(src, (theirs, k))
        for q in range(e.nout):
            tb.connect((theirs, q), want[q])
    run_with_timeout(tb, timeout, e.name)
    got = [np.array(s.data()) for s in got]
    if want is not None:
        want = [np.array(s.data()) for s in want]
    else:
        n = len(inputs[0]) if head is None else min(head, len(inputs[0]))
        want = e.reference([x[:n] for x in inputs], taps)
    return ours, got, want


def run_with_timeout(tb, timeout, what):
    """tb.run(), but an AssertionError after `timeout` seconds (the flowgraph is
    stopped) instead of a hang."""
    import threading
    tb.start()
    done = threading.Event()
    threading.Thread(target=lambda: (tb.wait(), done.set()), daemon=True).start()
    if not done.wait(timeout):
        tb.stop()
        raise AssertionError(f"{what}: the flowgraph did not end within {timeout} s")


def relative_error(got, want):
    got = np.asarray(got, dtype=np.complex128)
    want = np.asarray(want, dtype=np.complex128)
    if len(want) == 0:
        return 0.0
    return np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-30)
