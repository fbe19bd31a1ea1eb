# SPDX-License-Identifier: GPL-3.0-or-later
"""How late a block answers on a live stream: every block family of the module, each
beside its gr-filter counterpart (or `blocks.copy` where gr-filter has none), each fed
by a throttled source of its own, with default arguments.

For each case it reports the first output's arrival (seconds after the flowgraph
started) and the steady lag: how far the newest output trails real time, the wall
time minus the stream time of the newest output, averaged over the run's last
third. The test suite and `apps/bench_latency.py` share it."""

import threading
import time
from dataclasses import dataclass

import numpy as np
from gnuradio import analog, blocks, filter, gr
from gnuradio.filter import firdes

from gnuradio import gpufilter as gpu

M = 4   # channels, arms and decimations of the PFB and xlating cases


@dataclass
class case:
    """One family: `ours(device)` and `theirs()` make (head, tail, outputs per
    input item, inner connections, output ports of the tail) for a flowgraph; `kind`
    is the input, 'c' or 'f'; `inputs` how many ports the head takes from the
    source."""
    name: str
    kind: str
    ours: object
    theirs: object
    inputs: int = 1


def _lowpass(ntaps=64, cutoff=0.2):
    return list(firdes.low_pass(1.0, 1.0, cutoff, 0.05)
                [:ntaps])


def _one(make, ratio, outputs=1):
    """A single block as its own head and tail."""
    def build(*args):
        blk = make(*args)
        return blk, blk, ratio, [], outputs
    return build


def _split_into(make, ratio, outputs):
    """gr-filter's M-stream PFB input: stream_to_streams in front of the block."""
    def build():
        split = blocks.stream_to_streams(gr.sizeof_gr_complex, M)
        blk = make()
        return split, blk, ratio, [((split, k), (blk, k)) for k in range(M)], outputs
    return build


def _fir_cases():
    rtaps = _lowpass()
    ctaps = [complex(t, 0.1 * t) for t in rtaps]
    out = []
    for t, kind, taps in (("fff", "f", rtaps), ("ccf", "c", rtaps), ("ccc", "c", ctaps),
                          ("fcc", "f", ctaps)):
        out.append(case(f"fir_filter_{t}", kind,
                        _one(lambda d, t=t, taps=taps: getattr(gpu, f"fir_filter_{t}")(
                            1, taps, device=d), 1.0),
                        _one(lambda t=t, taps=taps: getattr(filter, f"fir_filter_{t}")(
                            1, taps), 1.0)))
    for t, kind, taps in (("fff", "f", rtaps), ("ccf", "c", rtaps), ("ccc", "c", ctaps)):
        out.append(case(f"fft_filter_{t}", kind,
                        _one(lambda d, t=t, taps=taps: getattr(gpu, f"fft_filter_{t}")(
                            1, taps, device=d), 1.0),
                        _one(lambda t=t, taps=taps: getattr(filter, f"fft_filter_{t}")(
                            1, taps), 1.0)))
    out.append(case("freq_xlating_fir_filter_ccf", "c",
                    _one(lambda d: gpu.freq_xlating_fir_filter_ccf(
                        M, rtaps, 0.1, 1.0, device=d), 1 / M),
                    _one(lambda: filter.freq_xlating_fir_filter_ccf(M, rtaps, 0.1, 1.0),
                         1 / M)))
    out.append(case("hilbert_fc", "f",
                    _one(lambda d: gpu.hilbert_fc(65, device=d), 1.0),
                    _one(lambda: filter.hilbert_fc(65), 1.0)))
    return out


def _pfb_cases():
    taps = _lowpass(8 * M, 0.5 / M)
    cases = [
        case("pfb_channelizer_ccf", "c",
             _one(lambda d: gpu.pfb_channelizer_ccf(M, taps, 1.0, device=d), 1 / M, M),
             _split_into(lambda: filter.pfb_channelizer_ccf(M, taps, 1.0), 1 / M, M)),
        case("pfb_channelizer_vcf", "c",
             _one(lambda d: gpu.pfb_channelizer_vcf(M, taps, 1.0, "complex", device=d),
                  1 / M),
             _one(lambda: blocks.copy(gr.sizeof_gr_complex), 1.0)),
        case("pfb_decimator_ccf", "c",
             _one(lambda d: gpu.pfb_decimator_ccf(M, taps, 0, device=d), 1 / M),
             _split_into(lambda: filter.pfb_decimator_ccf(M, taps, 0, False, False),
                         1 / M, 1)),
        case("pfb_interpolator_ccf", "c",
             _one(lambda d: gpu.pfb_interpolator_ccf(M, taps, device=d), float(M)),
             _one(lambda: filter.pfb_interpolator_ccf(M, taps), float(M))),
        case("pfb_synthesizer_ccf", "c",
             _one(lambda d: gpu.pfb_synthesizer_ccf(M, taps, False, device=d), float(M)),
             _one(lambda: filter.pfb_synthesizer_ccf(M, taps, False), float(M)),
             inputs=M),
    ]
    arb_taps = filter.firdes.low_pass_2(32, 32, 0.4, 0.1, 60)
    for t, kind in (("ccf", "c"), ("fff", "f")):
        cases.append(case(
            f"pfb_arb_resampler_{t}", kind,
            _one(lambda d, t=t: getattr(gpu, f"pfb_arb_resampler_{t}")(
                0.75, arb_taps, 32, device=d), 0.75),
            _one(lambda t=t: getattr(filter, f"pfb_arb_resampler_{t}")(
                0.75, arb_taps, 32), 0.75)))
    cplx_arb_taps = [complex(t, 0.1 * t) for t in arb_taps]
    cases += [
        case("pfb_arb_resampler_ccc", "c",
             _one(lambda d: gpu.pfb_arb_resampler_ccc(0.75, cplx_arb_taps, 32, device=d),
                  0.75),
             _one(lambda: filter.pfb_arb_resampler_ccc(0.75, cplx_arb_taps, 32), 0.75)),
        # The rational resampler (designed taps) and the interpolating FIR.
        case("rational_resampler_ccf 3/2", "c",
             _one(lambda d: gpu.rational_resampler_ccf(3, 2, device=d), 1.5),
             _one(lambda: filter.rational_resampler_ccf(3, 2), 1.5)),
        case("interp_fir_filter_ccf x4", "c",
             _one(lambda d: gpu.interp_fir_filter_ccf(M, taps, device=d), float(M)),
             _one(lambda: filter.interp_fir_filter_ccf(M, taps), float(M))),
    ]
    return cases


def _bank(d):
    """fm_demod_bank_vcf after a stream_to_vector: items of M channels."""
    taps = _lowpass(32, 0.2)
    to_vec = blocks.stream_to_vector(gr.sizeof_gr_complex, M)
    bank = gpu.fm_demod_bank_vcf(M, [0, 1], 2, taps, 48e3, 75e3, 75e-6, device=d)
    return to_vec, bank, 1 / (2 * M), [(to_vec, bank)], 1


def _bank_reference():
    to_vec = blocks.stream_to_vector(gr.sizeof_gr_complex, M)
    copy = blocks.copy(gr.sizeof_gr_complex * M)
    return to_vec, copy, 1 / M, [(to_vec, copy)], 1


def _chain(d):
    """Three GPU FIRs in a row: with device buffers (the default) a device chain."""
    taps = _lowpass()
    firs = [gpu.fir_filter_fff(1, taps, device=d) for _ in range(3)]
    return firs[0], firs[-1], 1.0, list(zip(firs, firs[1:])), 1


def _chain_reference():
    taps = _lowpass()
    firs = [filter.fir_filter_fff(1, taps) for _ in range(3)]
    return firs[0], firs[-1], 1.0, list(zip(firs, firs[1:])), 1


def _rows_of(make, vlen):
    """stream_to_vector(vlen) in front of a block on rows."""
    def build(*args):
        to_vec = blocks.stream_to_vector(gr.sizeof_float, vlen)
        blk = make(*args)
        return to_vec, blk, 1 / vlen, [(to_vec, blk)], 1
    return build


def _other_cases():
    return [
        case("nlms_filter_ff", "f",
             _one(lambda d: gpu.nlms_filter_ff(16, 0.5, device=d), 1.0),
             _one(lambda: blocks.sub_ff(), 1.0), inputs=2),
        case("quadrature_demod_cf", "c",
             _one(lambda d: gpu.quadrature_demod_cf(1.0, device=d), 1.0),
             _one(lambda: analog.quadrature_demod_cf(1.0), 1.0)),
        case("complex_to_real", "c",
             _one(lambda d: gpu.complex_to_real(1, device=d), 1.0),
             _one(lambda: blocks.complex_to_real(), 1.0)),
        case("fm_demod_bank_vcf", "c", _bank, _bank_reference),
        case("fir_filter_fff x3 chain", "f", _chain, _chain_reference),
        # Rows of 64: gr-filter has no 2D filter, so blocks.copy of the same rows.
        case("fir_filter_2d_fff 5x5", "f",
             _rows_of(lambda d: gpu.fir_filter_2d_fff(
                 64, np.full((5, 5), 1 / 25.0), device=d), 64),
             _rows_of(lambda: blocks.copy(gr.sizeof_float * 64), 64)),
    ]


def all_cases():
    return _fir_cases() + _pfb_cases() + _other_cases()


@dataclass
class result:
    name: str
    side: str               # "gpufilter" or "reference"
    first_output_s: float   # nan when nothing came out
    steady_lag_s: float
    outputs: int
    on_gpu: bool = False


class _branch:
    def __init__(self, name, side, built, rate):
        head, tail, ratio, self.inner, self.outputs = built
        self.name, self.side, self.head, self.tail = name, side, head, tail
        self.out_rate = rate * ratio
        self.first, self.lags = None, []
        self.gpu = [b for b in (head, tail) if hasattr(b, "on_gpu")]

    def wire(self, tb, source, inputs):
        """Connects the branch: `source` into each of the head's `inputs` ports, the
        inner connections, a null sink on each of the tail's outputs."""
        for p in range(inputs):
            tb.connect(source, (self.head, p))
        for a, b in self.inner:
            tb.connect(a, b)
        size = self.tail.output_signature().sizeof_stream_item(0)
        for q in range(self.outputs):
            tb.connect((self.tail, q), blocks.null_sink(size))

    def set_max_latency(self, seconds):
        ends = [x for pair in self.inner for x in pair if not isinstance(x, tuple)]
        for blk in {self.head, self.tail, *ends}:
            if hasattr(blk, "set_max_latency"):
                blk.set_max_latency(seconds)


def measure(cases, rate, seconds, device=gpu.device_auto, references=True,
            max_latency=None):
    """Runs `cases` side by side, each side from a throttled source of its own (so a
    side that cannot keep up holds back only itself); returns a list of `result`
    (ours, then the reference, per case). `max_latency`, when given, is set on our
    blocks before the start."""
    tb = gr.top_block("live_latency")

    def source(kind):
        if kind == "c":
            sig = analog.sig_source_c(rate, analog.GR_COS_WAVE, rate / 37, 0.5)
            size = gr.sizeof_gr_complex
        else:
            sig = analog.sig_source_f(rate, analog.GR_COS_WAVE, rate / 37, 0.5)
            size = gr.sizeof_float
        thr = blocks.throttle(size, rate)
        tb.connect(sig, thr)
        return thr

    branches = []
    for c in cases:
        sides = [("gpufilter", lambda c=c: c.ours(device))]
        if references:
            sides.append(("reference", c.theirs))
        for side, make in sides:
            br = _branch(c.name, side, make(), rate)
            br.wire(tb, source(c.kind), c.inputs)
            if side == "gpufilter" and max_latency is not None:
                br.set_max_latency(max_latency)
            branches.append(br)

    stop = threading.Event()
    start = time.monotonic()

    def poll():
        while not stop.is_set():
            now = time.monotonic() - start
            for br in branches:
                n = br.tail.nitems_written(0)
                if n and br.first is None:
                    br.first = now
                if now > seconds * 2 / 3:
                    br.lags.append(now - n / br.out_rate)
            time.sleep(0.002)

    tb.start()
    start = time.monotonic()
    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    time.sleep(seconds)
    stop.set()
    poller.join()
    tb.stop()
    tb.wait()
    return [result(br.name, br.side, np.nan if br.first is None else br.first,
                   float(np.mean(br.lags)) if br.lags else np.nan,
                   br.tail.nitems_written(0),
                   bool(br.gpu) and all(b.on_gpu() for b in br.gpu))
            for br in branches]


_data = {}


def _repeating_data(kind):
    """A million random samples (as a list, made once per kind)."""
    if kind not in _data:
        rng = np.random.default_rng(7)
        n = 1 << 20
        x = rng.uniform(-1, 1, n)
        if kind == "c":
            x = x + 1j * rng.uniform(-1, 1, n)
        _data[kind] = x.astype(np.complex64 if kind == "c" else np.float32).tolist()
    return _data[kind]


def unthrottled_rate(c, seconds, budget="default", device=gpu.device_auto):
    """MS/s of input through case `c` from a repeating source, unthrottled: with
    budget "default", "inf" (every gpufilter block's max_latency set to infinity) or
    "copy" (blocks.copy instead of the case). The run grows until it lasts
    `seconds`."""
    size = gr.sizeof_gr_complex if c.kind == "c" else gr.sizeof_float
    data = _repeating_data(c.kind)
    items = 1 << 22
    while True:
        tb = gr.top_block("unthrottled")
        src = (blocks.vector_source_c if c.kind == "c" else blocks.vector_source_f)(
            data, True)
        head = blocks.head(size, items)
        tb.connect(src, head)
        if budget == "copy":
            copy = blocks.copy(size)
            tb.connect(head, copy, blocks.null_sink(size))
        else:
            br = _branch(c.name, "gpufilter", c.ours(device), 1.0)
            br.wire(tb, head, c.inputs)
            if budget == "inf":
                br.set_max_latency(float("inf"))
        t0 = time.monotonic()
        tb.run()
        wall = time.monotonic() - t0
        if wall >= seconds or items >= 1 << 31:
            return items / wall / 1e6
        items = int(items * min(16.0, max(2.0, 1.2 * seconds / max(wall, 1e-3))))
