# SPDX-License-Identifier: GPL-3.0-or-later
"""The FM receiver's flowgraph pieces: rate planning, filter designs, the two chains
as one hier block (complex baseband in, 48 kHz audio out) and the IQ file sources.

Chains (see docs/fm_receiver.md):
  classic  the GPU FM experiment of Smirnov and Chiueh: frequency-translating FIR
           (complex band-pass, station at +IF) -> complex to real -> Hilbert ->
           quadrature demod -> FIR low-pass/decimator to audio -> remove the IF's
           constant -> de-emphasis
  wbfm     frequency-translating channel filter/decimator -> quadrature demod ->
           FIR audio decimator -> de-emphasis
From the first filter to the audio decimator every stage is one of our blocks (on a
GPU: the samples never meet a CPU block between them); the cheap stages at 48 kHz
(IF removal, de-emphasis) are GNU Radio's, and the rational resampler to 48 kHz, where
the rate needs one, is ours again.
Backends: "gpu" (our blocks, device_auto), "fallback" (our blocks, device_cpu: their
CPU path) and "cpu" (GNU Radio's own blocks: gr-filter, gr-analog, gr-blocks; what
--cpu builds). On a GPU our blocks hand their samples to each other in device memory
(device buffers, the module's default: the chain crosses PCIe once each way);
device_buffers=False makes this receiver's blocks move them through host buffers
instead, each block copying its own input and output (what --host-buffers asks for).
"""

import collections
import contextlib
import fractions
import os
import threading

import numpy as np
from gnuradio import analog, blocks, filter, gr
from gnuradio.fft import window

from . import gpufilter_python as gpu

AUDIO_RATE = 48000
DEVIATION = 75e3
TAU = 75e-6
HALF_CHANNEL = 100e3     # an FM station occupies +-100 kHz (Carson: 2*(75+15) kHz)
AUDIO_CUTOFF = 15.5e3    # passes 15 kHz audio, stops the 19 kHz pilot
MIN_CHANNEL_RATE = {"wbfm": 2 * HALF_CHANNEL, "classic": 4 * HALF_CHANNEL}
# The longest FIR a chain runs, as seconds of the filter's input: a longer one only
# delays the audio (by half its length) and makes GNU Radio's buffers hold it.
MAX_FILTER_SECONDS = 0.1
BACKENDS = ("gpu", "fallback", "cpu")
CHAINS = ("classic", "wbfm")
FORMATS = {"cf32": gr.sizeof_gr_complex, "cu8": 1, "cs16": 2}
EXTENSIONS = {".cf32": "cf32", ".cfile": "cf32", ".fc32": "cf32", ".raw": None,
              ".cu8": "cu8", ".bin": None, ".cs16": "cs16", ".sc16": "cs16"}


class rx_error(ValueError):
    """A bad input, said in one line to the user (the app exits with status 2)."""


class interrupted(Exception):
    """Ctrl-C during run_flowgraph. `stopped`: the flowgraph ended within the grace
    time (its sinks are closed); otherwise a block was still inside one long work()
    call, and the process should exit without waiting for it."""

    def __init__(self, stopped):
        super().__init__("interrupted")
        self.stopped = stopped


def run_flowgraph(tb, grace=0.5):
    """tb.run(), but Ctrl-C raises `interrupted` within `grace` seconds of tb.stop().
    (GNU Radio's own run() answers Ctrl-C with stop() and then waits for every block's
    work() call to return, however long that is.)"""
    tb.handle_sigint = False
    done = threading.Event()
    tb.start()

    def wait():
        tb.wait()
        done.set()

    threading.Thread(target=wait, daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        tb.stop()
        raise interrupted(done.wait(grace)) from None


Plan = collections.namedtuple(
    "Plan", "rate chain channel_decim channel_rate if_hz audio_decim resample")
Plan.__doc__ = """Rates of one receiver: channel_rate = rate/channel_decim; the audio FIR
decimates by audio_decim; resample is (interp, decim) to reach 48 kHz, or None."""


def plan(rate, chain, offset=0.0):
    """Choose the decimations for `chain` at input `rate`, or raise rx_error.

    The channel rate must hold the station (wbfm: >= 200 kHz; classic: >= 400 kHz,
    since the real signal after complex-to-real must keep the station at IF = rate/4
    clear of 0 Hz and of Nyquist). Among the channel decimations that reach 48 kHz
    with an integer audio decimation, the largest (least work) is taken; otherwise a
    small rational resampler at audio rate does the rest (e.g. rtl_sdr's 2.048 MS/s).
    """
    if chain not in CHAINS:
        raise rx_error(f"unknown chain '{chain}' (choose from {', '.join(CHAINS)})")
    need = MIN_CHANNEL_RATE[chain]
    if rate < need:
        raise rx_error(f"sample rate {rate:g} S/s is too low for the {chain} chain: "
                       f"it needs at least {need:g} S/s")
    if abs(offset) >= rate / 2:
        raise rx_error(f"offset {offset:g} Hz is outside the band: the input at "
                       f"{rate:g} S/s covers +-{rate / 2:g} Hz")
    if abs(offset) + HALF_CHANNEL > rate / 2:
        raise rx_error(f"sample rate {rate:g} S/s is too low for a station at "
                       f"{offset:g} Hz: its 200 kHz channel reaches past +-{rate / 2:g} Hz "
                       f"(needs at least {2 * (abs(offset) + HALF_CHANNEL):g} S/s)")
    max_decim = int(rate // need)
    for d1 in range(max_decim, 0, -1):
        d2 = rate / d1 / AUDIO_RATE
        if abs(d2 - round(d2)) < 1e-9 and round(d2) >= 1:
            ch = rate / d1
            return Plan(rate, chain, d1, ch, ch / 4 if chain == "classic" else 0.0,
                        int(round(d2)), None)
    ch = rate / max_decim
    d2 = max(1, int(ch // AUDIO_RATE))
    ratio = fractions.Fraction(AUDIO_RATE * max_decim * d2 / rate).limit_denominator(1000)
    return Plan(rate, chain, max_decim, ch, ch / 4 if chain == "classic" else 0.0, d2,
                (ratio.numerator, ratio.denominator))


def max_taps(p):
    """The longest FIR (taps) the chain of plan `p` runs: MAX_FILTER_SECONDS of the
    input of its slowest FIR (the audio filter, at the channel rate)."""
    return int(p.channel_rate * MAX_FILTER_SECONDS)


def check_taps(taps, p, what="--taps"):
    """rx_error unless every FIR of plan `p` can have `taps` taps."""
    top = max_taps(p)
    if not 1 <= taps <= top:
        raise rx_error(f"{what} {taps} is out of range for the {p.chain} chain at "
                       f"{p.rate:g} S/s: 1 to {top} (its audio filter runs at "
                       f"{p.channel_rate:g} S/s, and a filter longer than "
                       f"{MAX_FILTER_SECONDS:g} s of its input only delays the audio)")


def lowpass_taps(ntaps, cutoff, rate):
    """Windowed-sinc (Hamming) low-pass of exactly `ntaps` taps, unity gain at DC: the
    tap count is the experiment's parameter, so it is not derived from a transition
    width as firdes.low_pass does."""
    n = np.arange(ntaps) - (ntaps - 1) / 2
    h = np.sinc(2 * cutoff / rate * n) * np.hamming(ntaps) if ntaps > 1 else np.ones(1)
    return (h / np.sum(h)).astype(np.float32)


def bandpass_taps(ntaps, cutoff, center, rate):
    """lowpass_taps shifted to +center: a complex band-pass that keeps one side only."""
    h = lowpass_taps(ntaps, cutoff, rate).astype(np.complex128)
    return (h * np.exp(2j * np.pi * center / rate * np.arange(ntaps))).astype(np.complex64)


@contextlib.contextmanager
def device_buffers_while_made(on):
    """The module's device-buffer switch (gpufilter.set_device_buffers) set to `on`
    (True or False; None leaves it as it is) while the blocks of the with-block are
    made, then put back as it was. Yields the switch's value while they are made."""
    previous = gpu.get_device_buffers()
    if on is not None:
        gpu.set_device_buffers(bool(on))
    try:
        yield gpu.get_device_buffers()
    finally:
        gpu.set_device_buffers(previous)


class fm_receiver(gr.hier_block2):
    """One station at `offset` Hz of a complex baseband at `rate`, out as float audio
    at 48 kHz (1.0 = 75 kHz deviation). `taps` is the length of every FIR (the Hilbert
    uses taps|1: firdes.hilbert needs an odd count). `batch_size` and `max_latency` (GPU
    blocks: the largest batch, and the seconds of input a block may hold) default to
    the module's, so the receiver follows a live input within a few budgets and runs
    whole batches from a file. `device_buffers`: True or False turns
    device buffers on or off for this receiver's blocks (the module's switch,
    gpufilter.set_device_buffers, is set while they are made, then put back); None
    (default) uses the module's switch as it is, which is on unless a program turned
    it off. The attribute `device_buffers` says whether they were on. The CPU
    fallback never uses them (see docs/architecture.md)."""

    def __init__(self, rate, offset, chain="wbfm", taps=256, backend="gpu",
                 batch_size=None, max_latency=None, device_buffers=None):
        gr.hier_block2.__init__(self, "fm_receiver",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(1, 1, gr.sizeof_float))
        if backend not in BACKENDS:
            raise rx_error(f"unknown backend '{backend}' (choose from {BACKENDS})")
        self.plan = p = plan(rate, chain, offset)
        check_taps(taps, p, "taps")
        ours = device_buffers if backend != "cpu" else None
        with device_buffers_while_made(ours) as on:
            self.device_buffers = backend != "cpu" and on
            self._build(rate, offset, chain, taps, backend, batch_size, max_latency)

    def _build(self, rate, offset, chain, taps, backend, batch_size, max_latency):
        p = self.plan
        self.backend, self.taps = backend, taps
        self.gpu_blocks = []   # our blocks, for on_gpu() reports
        device = gpu.device_cpu if backend == "fallback" else gpu.device_auto

        batch = batch_size or gpu.default_batch_size
        budget = gpu.default_max_latency if max_latency is None else max_latency

        def ours(make, *args):
            blk = make(*args, device=device, batch_size=batch, max_latency=budget)
            self.gpu_blocks.append(blk)
            return blk

        lib = filter if backend == "cpu" else None
        gain = p.channel_rate / (2 * np.pi * DEVIATION)
        audio_taps = lowpass_taps(taps, AUDIO_CUTOFF, p.channel_rate)
        if chain == "wbfm":
            ch_taps = lowpass_taps(taps, HALF_CHANNEL, rate)
            if lib:
                xlate = filter.freq_xlating_fir_filter_ccf(p.channel_decim, ch_taps,
                                                           offset, rate)
                afir = filter.fir_filter_fff(p.audio_decim, audio_taps)
            else:
                xlate = ours(gpu.freq_xlating_fir_filter_ccf, p.channel_decim,
                             ch_taps, offset, rate)
                afir = ours(gpu.fir_filter_fff, p.audio_decim, audio_taps)
            demod = (analog.quadrature_demod_cf(gain) if lib else
                     ours(gpu.quadrature_demod_cf, gain))
            # De-emphasis after the audio decimator, at 48 kHz: the stages are linear
            # and time-invariant below the audio cut-off, so the order does not change
            # the audio, and the GPU stages stay next to each other.
            audio_rate = p.channel_rate / p.audio_decim
            stages = [xlate, demod, afir, analog.fm_deemph(audio_rate, TAU)]
        else:
            # Station at +IF after translation; the complex band-pass rejects the mirror
            # at -IF, so complex_to_real (which folds -f onto +f) keeps the station
            # intact and the Hilbert transform rebuilds its analytic signal.
            ch_taps = bandpass_taps(taps, HALF_CHANNEL, p.if_hz, rate)
            hil_taps = taps | 1
            if lib:
                xlate = filter.freq_xlating_fir_filter_ccc(p.channel_decim, ch_taps,
                                                           offset - p.if_hz, rate)
                to_real = blocks.complex_to_real()
                hil = filter.hilbert_fc(hil_taps)
                demod = analog.quadrature_demod_cf(gain)
                afir = filter.fir_filter_fff(p.audio_decim, audio_taps)
            else:
                xlate = ours(gpu.freq_xlating_fir_filter_ccc, p.channel_decim,
                             ch_taps, offset - p.if_hz, rate)
                to_real = ours(gpu.complex_to_real, 1)
                hil = ours(gpu.hilbert_fc, hil_taps,
                           window.WIN_HAMMING, 6.76)
                demod = ours(gpu.quadrature_demod_cf, gain)
                afir = ours(gpu.fir_filter_fff, p.audio_decim, audio_taps)
            # The demodulated station sits on a constant IF/deviation: remove it after
            # the audio filter (its DC gain is 1), where it costs a tenth and leaves the
            # GPU stages next to each other.
            dc = blocks.add_const_ff(-p.if_hz / DEVIATION)
            # The experiment had no de-emphasis; the band is pre-emphasised, so undo it
            # at 48 kHz, where this IIR costs least (LTI stages commute).
            stages = [xlate, to_real, hil, demod, afir, dc,
                      analog.fm_deemph(p.channel_rate / p.audio_decim, TAU)]
        if p.resample:
            stages.append(filter.rational_resampler_fff(*p.resample) if lib else
                          ours(gpu.rational_resampler_fff, *p.resample))
        self.stages = stages
        self.connect(self, *stages, self)

    def on_gpu(self):
        """True when every one of our blocks computes on a GPU (False for "cpu")."""
        return bool(self.gpu_blocks) and all(b.on_gpu() for b in self.gpu_blocks)

    def pcie_bytes(self):
        """(to the device, from the device): the bytes of samples our blocks moved
        across PCIe so far. With device buffers on a GPU that is the input once and
        the audio decimator's output once; with host buffers, every GPU block's
        input and output. (0, 0) on the CPU fallback and for "cpu"."""
        return (sum(b.bytes_to_device() for b in self.gpu_blocks),
                sum(b.bytes_from_device() for b in self.gpu_blocks))

    def gpu_output_bytes(self):
        """Bytes the last of our blocks in the chain (the audio decimator) has written
        so far."""
        ours = {id(b) for b in self.gpu_blocks}
        last = [s for s in self.stages if id(s) in ours][-1:]
        return last[0].nitems_written(0) * gr.sizeof_float if last else 0


def guess_format(path):
    return EXTENSIONS.get(os.path.splitext(path)[1].lower())


class iq_file_source(gr.hier_block2):
    """Complex samples from an IQ file: cf32 (complex float), cu8 (rtl_sdr's
    interleaved unsigned bytes, (x - 127.5)/127.5) or cs16 (interleaved int16,
    /32768). The stream ends at the end of the file."""

    def __init__(self, path, fmt=None):
        gr.hier_block2.__init__(self, "iq_file_source", gr.io_signature(0, 0, 0),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        fmt = fmt or guess_format(path)
        if fmt is None:
            raise rx_error(f"cannot tell the format of {path} from its name; "
                           f"give --format ({'|'.join(FORMATS)})")
        if fmt not in FORMATS:
            raise rx_error(f"unknown format '{fmt}' (choose from {'|'.join(FORMATS)})")
        if not os.path.isfile(path):
            raise rx_error(f"input file {path} does not exist")
        if not os.access(path, os.R_OK):
            raise rx_error(f"input file {path} is not readable")
        size = os.path.getsize(path)
        frame = FORMATS[fmt] * (1 if fmt == "cf32" else 2)
        if size < frame:
            raise rx_error(f"input file {path} holds no {fmt} sample ({size} bytes)")
        self.format, self.samples = fmt, size // frame
        if fmt == "cf32":
            self.connect(blocks.file_source(gr.sizeof_gr_complex, path, False), self)
        elif fmt == "cs16":
            src = blocks.file_source(gr.sizeof_short, path, False)
            self.connect(src, blocks.interleaved_short_to_complex(False, False, 32768.0),
                         self)
        else:
            src = blocks.file_source(1, path, False)
            to_f = blocks.uchar_to_float()
            norm = blocks.add_const_ff(-127.5)
            scale = blocks.multiply_const_ff(1 / 127.5)
            split = blocks.deinterleave(gr.sizeof_float)
            to_c = blocks.float_to_complex()
            self.connect(src, to_f, norm, scale, split)
            self.connect((split, 0), (to_c, 0))
            self.connect((split, 1), (to_c, 1))
            self.connect(to_c, self)
