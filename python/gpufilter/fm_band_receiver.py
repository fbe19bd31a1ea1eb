# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole-band FM receiver: every station of a band demodulated at once.

Chain (see docs/fm_band_receiver.md):
  band -> [shift by the stations' offset from the grid, if any]
  -> polyphase channelizer (every channel of the grid, oversampled so that each
  channel holds a whole station: 400 kS/s per channel on a 200 kHz grid)
  -> per station: quadrature demodulation -> FIR audio filter/decimator
  -> de-emphasis (75 us) -> rational resampler to 48 kHz (all stations in one
  GPU block) -> one WAV per station.
Stations are found before the run, on the band's first 0.2 s, wherever they are
(fm_band_stations); a station off the grid is received after the band is shifted so
that it sits at a channel's centre: one shift and one channelizer per distinct offset
from the grid (one for a band on a regular raster, whatever the centre frequency).

Backends: "gpu" (our freq_xlating_fir_filter_ccf as the shift, pfb_channelizer_vcf
and fm_demod_bank_vcf, device_auto), "fallback" (the same on device_cpu) and "cpu"
(gr-blocks' rotator_cc, gr-filter's pfb_channelizer_ccf and gr-analog's blocks per
channel: what --cpu builds). On a GPU the channelizer hands the
channels to the bank in device memory (device buffers, the module's default);
device_buffers=False moves them through host memory instead (what --host-buffers
asks for).
"""

import collections
import fractions
import math

import numpy as np
from gnuradio import analog, blocks, filter, gr
from gnuradio.fft import window

from . import gpufilter_python as gpu
from .fm_band_stations import (DEFAULT_THRESHOLD_DB, Station, channel_of,  # noqa: F401
                               find_stations, has_pilot, noise_floor, spectrum, tunings)
from .fm_receiver import device_buffers_while_made, rx_error

AUDIO_RATE = 48000
DEVIATION = 75e3
TAU = 75e-6
HALF_STATION = 100e3         # an FM station occupies +-100 kHz
MIN_CHANNEL_RATE = 400e3     # a channel holds a station with room for the filter's edge
AUDIO_CUTOFF = 15.5e3        # passes 15 kHz audio, stops the 19 kHz pilot
MIN_BANK_RATE = 40e3         # the audio filter's output rate must exceed 2 x 15.5 kHz
ANALYSIS_SECONDS = 0.2
BACKENDS = ("gpu", "fallback", "cpu")

BandPlan = collections.namedtuple(
    "BandPlan", "rate spacing nchan oversample channel_rate decim bank_rate resample")
BandPlan.__doc__ = """Rates of the receiver: nchan channels of `spacing` Hz, each at
channel_rate = spacing * oversample; the audio FIR decimates by `decim` to bank_rate;
`resample` is (interp, decim) from bank_rate to 48 kHz, or None."""


def band_plan(rate, spacing=200e3):
    """The channel grid and rates for a band at `rate`, or rx_error."""
    if not (math.isfinite(rate) and rate >= 2 * HALF_STATION):
        raise rx_error(f"sample rate {rate:g} S/s is too low for one FM channel: a "
                       f"station needs {2 * HALF_STATION:g} S/s")
    if not (math.isfinite(spacing) and 0 < spacing <= rate):
        raise rx_error(f"--spacing {spacing:g} Hz must be in (0, {rate:g}] (the rate)")
    ratio = rate / spacing
    nchan = int(round(ratio))
    if abs(ratio - nchan) > 1e-6 * ratio:
        raise rx_error(f"--spacing {spacing:g} Hz does not divide the rate {rate:g} S/s "
                       f"into whole channels (rate/spacing = {ratio:g})")
    if nchan > 4096:
        raise rx_error(f"--spacing {spacing:g} Hz gives {nchan} channels at {rate:g} "
                       "S/s; at most 4096")
    # The channelizer's oversampling must divide the channel count.
    os_ = next((d for d in range(1, nchan + 1)
                if nchan % d == 0 and spacing * d >= MIN_CHANNEL_RATE), nchan)
    ch_rate = spacing * os_
    ratio = fractions.Fraction(AUDIO_RATE / ch_rate).limit_denominator(1000)
    down = ratio.denominator
    decim = max((d for d in range(1, down + 1)
                 if down % d == 0 and ch_rate / d >= MIN_BANK_RATE), default=1)
    bank_rate = ch_rate / decim
    rest = fractions.Fraction(ratio.numerator * decim, down)
    resample = None if rest == 1 else (rest.numerator, rest.denominator)
    return BandPlan(rate, spacing, nchan, os_, ch_rate, decim, bank_rate, resample)


def channel_offset(p, k):
    """Centre of channel k (the channelizer's output order: 0, +1, ..., then the
    negative channels), Hz."""
    return (k if k < (p.nchan + 1) // 2 else k - p.nchan) * p.spacing


def channel_taps(p):
    """The channelizer's prototype: passes +-90 kHz, stops from +-110 kHz."""
    return filter.firdes.low_pass_2(1.0, p.rate, HALF_STATION, 20e3, 70,
                                    window.WIN_BLACKMAN_HARRIS)


def audio_taps(p):
    return filter.firdes.low_pass(1.0, p.channel_rate, AUDIO_CUTOFF,
                                  min(4e3, p.bank_rate / 2 - AUDIO_CUTOFF),
                                  window.WIN_HAMMING)


def resampler_taps(p):
    interp = p.resample[0]
    return filter.firdes.low_pass(interp, p.bank_rate * interp, AUDIO_CUTOFF, 3e3,
                                  window.WIN_HAMMING)


def deemph_taps(fs, tau=TAU):
    """(b, a) of gr-analog's fm_deemph at rate fs (bilinear transform of 1/(1 + s tau))."""
    w_ca = 2.0 * fs * math.tan(1.0 / tau / (2.0 * fs))
    k = -w_ca / (2.0 * fs)
    p1 = (1.0 + k) / (1.0 - k)
    b0 = -k / (1.0 - k)
    return [b0, b0], [1.0, -p1]


def wav_name(offset):
    """station_+300.wav: the offset in kHz (to the nearest kHz) with its sign."""
    return f"station_{round(offset / 1e3):+d}.wav"


def station_tunings(p, stations):
    """[(shift, [(output index, channel), ...]), ...]: the stations (Station, or a
    frequency offset in Hz) grouped by the shift that puts each on its channel."""
    offsets = [s.offset if isinstance(s, Station) else float(s) for s in stations]
    shifts = [s.shift if isinstance(s, Station) else None for s in stations]
    measured = tunings(offsets, p.spacing)
    groups = collections.OrderedDict()
    for i, (f, shift) in enumerate(zip(offsets, shifts)):
        shift = measured[i] if shift is None else shift
        if abs(f) >= p.rate / 2:
            raise rx_error(f"station at {f:g} Hz is outside the band "
                           f"(+-{p.rate / 2:g} Hz)")
        chans = groups.setdefault(shift, [])
        k = channel_of(f, shift, p)
        if any(k == c for _, c in chans):
            raise rx_error(f"station at {f:g} Hz shares its channel with another: "
                           "stations must be a channel bandwidth apart")
        chans.append((i, k))
    return list(groups.items())


class band_receiver(gr.hier_block2):
    """Complex band in, one 48 kHz float stream per entry of `stations` out: each a
    Station from find_stations or a frequency offset (Hz) from the band's centre.
    Stations off the channel grid are received after a shift of the band (one
    channelizer per distinct shift). stations=None: the stations are found in `head`
    (band samples, e.g. the first 0.2 s) with `threshold_db`, and kept in
    self.stations; none found is an rx_error. `device_buffers`: True or False turns
    device buffers on or off for the GPU blocks (the module's switch,
    gpufilter.set_device_buffers, is set while they are made, then put back); None
    (default) uses the module's switch, which is on unless a program turned it off.
    The CPU fallback never uses them. `batch_size` (the channelizer's largest batch)
    and `max_latency` (seconds each GPU block may hold input) default to the
    module's."""

    def __init__(self, p, stations=None, backend="gpu", batch_size=None,
                 device_buffers=None, max_latency=None, head=None,
                 threshold_db=DEFAULT_THRESHOLD_DB):
        if backend not in BACKENDS:
            raise rx_error(f"unknown backend '{backend}' (choose from {BACKENDS})")
        if stations is None:
            if head is None:
                raise rx_error("no stations given and no band samples to find them in")
            stations = find_stations(head, p, threshold_db)[0]
            if not stations:
                raise rx_error(f"no station stands {threshold_db:g} dB above the noise "
                               "floor: nothing to receive")
        stations = list(stations)
        if not stations:
            raise rx_error("no station to receive")
        nsel = len(stations)
        gr.hier_block2.__init__(self, "band_receiver",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(nsel, nsel, gr.sizeof_float))
        self.plan, self.backend, self.stations = p, backend, stations
        self.tunings = station_tunings(p, stations)
        ours = device_buffers if backend != "cpu" else None
        with device_buffers_while_made(ours) as on:
            self.device_buffers = backend != "cpu" and on
            self.gpu_blocks, self.front = [], []
            tails = [None] * nsel
            for shift, chans in self.tunings:
                outs = self._build(p, shift, [k for _, k in chans], backend, batch_size,
                                   max_latency)
                for (i, _), t in zip(chans, outs):
                    tails[i] = t
        for i, t in enumerate(tails):
            if p.resample and backend == "cpu":
                rs = filter.rational_resampler_fff(*p.resample, resampler_taps(p))
                self.connect(t, rs, (self, i))
            else:  # resampled already, on the GPU (or its fallback) with the bank
                self.connect(t, (self, i))

    def _build(self, p, shift, channels, backend, batch_size, max_latency):
        """One shift and channelizer, and the demodulators of `channels`: returns
        their audio outputs (before resampling), in the order of `channels`."""
        nsel = len(channels)
        ctaps, ataps = channel_taps(p), audio_taps(p)
        if backend == "cpu":
            split = blocks.stream_to_streams(gr.sizeof_gr_complex, p.nchan)
            chan = filter.pfb_channelizer_ccf(p.nchan, ctaps, p.oversample)
            if shift:
                rot = blocks.rotator_cc(-2 * np.pi * shift / p.rate)
                self.connect(self, rot, split)
                self.front.append(rot)
            else:
                self.connect(self, split)
            # Its tag propagation needs as many outputs as inputs: the channels not
            # received end in a null sink.
            for k in range(p.nchan):
                self.connect((split, k), (chan, k))
                if k not in channels:
                    self.connect((chan, k), blocks.null_sink(gr.sizeof_gr_complex))
            gain = p.channel_rate / (2 * np.pi * DEVIATION)
            b, a = deemph_taps(p.bank_rate)
            tails = []
            for k in channels:
                demod = analog.quadrature_demod_cf(gain)
                afir = filter.fir_filter_fff(p.decim, ataps)
                deemph = filter.iir_filter_ffd(b, a, False)
                self.connect((chan, k), demod, afir, deemph)
                tails.append(deemph)
            self.front += [split, chan]
            return tails
        device = gpu.device_cpu if backend == "fallback" else gpu.device_auto
        batch = batch_size or gpu.default_batch_size
        budget = gpu.default_max_latency if max_latency is None else max_latency
        chan = gpu.pfb_channelizer_vcf(p.nchan, ctaps, p.oversample, "complex",
                                       device, batch, max_latency=budget)
        # The bank's batch is in vectors: those of one channelizer batch (a
        # batch of band samples as 262144 vectors of 100 channels would ask
        # GNU Radio for buffers of hundreds of MB).
        bank = gpu.fm_demod_bank_vcf(p.nchan, list(channels), p.decim, ataps,
                                     p.channel_rate, DEVIATION, TAU, device,
                                     max(256, batch * p.oversample // p.nchan),
                                     max_latency=budget)
        to_streams = blocks.vector_to_streams(gr.sizeof_float, nsel)
        tail = bank
        if p.resample:
            # Every station's audio to 48 kHz in one block: one lane a station.
            rs = gpu.rational_resampler_vff(nsel, *p.resample, resampler_taps(p),
                                            device=device, max_latency=budget)
            self.connect(bank, rs)
            self.gpu_blocks.append(rs)
            tail = rs
        if shift:
            # A one-tap frequency-translating filter: a rotator on the GPU, whose
            # phase comes from a 64-bit sample count (no drift over a long run).
            rot = gpu.freq_xlating_fir_filter_ccf(1, [1.0], shift, p.rate, device,
                                                  batch, max_latency=budget)
            self.connect(self, rot, chan)
            self.gpu_blocks.append(rot)
            self.front.append(rot)
        else:
            self.connect(self, chan)
        self.connect(chan, bank)
        self.connect(tail, to_streams)
        self.gpu_blocks += [chan, bank]
        self.front += [chan, bank]
        return [(to_streams, i) for i in range(nsel)]

    def on_gpu(self):
        return bool(self.gpu_blocks) and all(b.on_gpu() for b in self.gpu_blocks)
