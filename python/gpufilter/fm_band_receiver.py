# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole-band FM receiver: every station of a band demodulated at once.

Chain (see docs/fm_band_receiver.md):
  band -> polyphase channelizer (every channel of the grid, oversampled so that each
  channel holds a whole station: 400 kS/s per channel on a 200 kHz grid)
  -> per detected channel: quadrature demodulation -> FIR audio filter/decimator
  -> de-emphasis (75 us) -> rational resampler to 48 kHz -> one WAV per station.
Stations are found before the run, on the band's first 0.2 s: a channel holds a
station when its power is above the band's noise floor (in the same bandwidth) by
the threshold.

Backends: "gpu" (our pfb_channelizer_vcf and fm_demod_bank_vcf, device_auto),
"fallback" (the same on device_cpu) and "cpu" (gr-filter's pfb_channelizer_ccf and
gr-analog's blocks per channel: what --cpu builds). On a GPU the channelizer hands the
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
from .fm_receiver import device_buffers_while_made, rx_error

AUDIO_RATE = 48000
DEVIATION = 75e3
TAU = 75e-6
HALF_STATION = 100e3         # an FM station occupies +-100 kHz
MIN_CHANNEL_RATE = 400e3     # a channel holds a station with room for the filter's edge
AUDIO_CUTOFF = 15.5e3        # passes 15 kHz audio, stops the 19 kHz pilot
MIN_BANK_RATE = 40e3         # the audio filter's output rate must exceed 2 x 15.5 kHz
ANALYSIS_SECONDS = 0.2
NOISE_PERCENTILE = 10        # the noise floor: this percentile of the spectrum's bins
PILOT_HZ = 19e3
PILOT_MARGIN_DB = 25.0       # a pilot stands this far above the spectrum beside it
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


Station = collections.namedtuple("Station", "channel offset power_db snr_db pilot")
Station.__doc__ = """A detected station: channelizer output `channel`, offset (Hz),
channel power (dB, full scale 0 dB = power 1), SNR estimate (dB in the channel's
measured bandwidth), 19 kHz pilot found."""


def spectrum(x, rate, resolution=5e3):
    """Welch power spectral density of x (power per bin, bins centred, Hann), and
    the bins' frequencies."""
    nfft = 1 << max(6, int(math.ceil(math.log2(rate / resolution))))
    segs = len(x) // nfft
    if segs < 1:
        raise rx_error(f"the input holds {len(x)} samples: too few to find stations "
                       f"(at least {nfft})")
    w = np.hanning(nfft).astype(np.float32)
    acc = np.zeros(nfft)
    for i in range(segs):
        acc += np.abs(np.fft.fft(x[i * nfft:(i + 1) * nfft] * w)) ** 2
    psd = np.fft.fftshift(acc / segs / np.sum(w ** 2) / nfft)
    return psd, np.fft.fftshift(np.fft.fftfreq(nfft, 1.0 / rate))


def noise_floor(psd, freqs, rate):
    """Noise power per bin: a low percentile of the bins of the band's middle 80 %
    (a front end's anti-alias filter lowers the edges)."""
    mid = np.abs(freqs) <= 0.4 * rate
    return float(np.percentile(psd[mid], NOISE_PERCENTILE))


def has_pilot(X, rate, offset, ch_rate):
    """True when the station at `offset` carries a 19 kHz pilot: its demodulated
    spectrum has a peak at 19 kHz PILOT_MARGIN_DB above 16-22 kHz. X is the FFT of
    the band samples (length a multiple of rate/ch_rate)."""
    n = len(X)
    m = int(round(n * ch_rate / rate))
    half = min(int(HALF_STATION * n / rate), (m - 1) // 2)
    rel = np.arange(-half, half + 1)
    Y = np.zeros(m, complex)
    Y[rel % m] = X[(int(round(offset * n / rate)) + rel) % n]
    z = np.fft.ifft(Y)
    mpx = np.angle(z[1:] * np.conj(z[:-1]))
    spec = np.abs(np.fft.rfft(mpx * np.hanning(len(mpx)))) ** 2
    fa = np.fft.rfftfreq(len(mpx), 1.0 / ch_rate)
    peak = spec[np.abs(fa - PILOT_HZ) <= 100].max()
    around = spec[((fa > 16e3) & (fa < 18.5e3)) | ((fa > 19.5e3) & (fa < 22e3))]
    return bool(peak > np.median(around) * 10 ** (PILOT_MARGIN_DB / 10))


def find_stations(x, p, threshold_db=10.0):
    """Detected stations of the band samples x (complex), the PSD, its frequencies and
    the noise floor per bin: a channel holds a station when its power within +-100 kHz
    (or half the spacing, if less) is above the noise floor's in the same bins by
    threshold_db."""
    x = np.asarray(x, np.complex64)
    psd, freqs = spectrum(x, p.rate)
    floor = noise_floor(psd, freqs, p.rate)
    half = min(HALF_STATION, p.spacing / 2)
    step = p.nchan // p.oversample
    X = np.fft.fft(x[:(len(x) // step) * step])
    found = []
    for k in range(p.nchan):
        f = channel_offset(p, k)
        if abs(f) + HALF_STATION > p.rate / 2:
            continue
        sel = np.abs(freqs - f) <= half
        power, noise = float(np.sum(psd[sel])), floor * int(np.sum(sel))
        if 10 * math.log10(power / noise) < threshold_db:
            continue
        snr = 10 * math.log10(max(power - noise, 1e-30) / noise)
        found.append(Station(k, f, 10 * math.log10(power), snr,
                             has_pilot(X, p.rate, f, p.channel_rate)))
    found.sort(key=lambda s: s.offset)
    return found, psd, freqs, floor


def wav_name(offset):
    """station_+300.wav: the offset in kHz with its sign."""
    return f"station_{offset / 1e3:+g}.wav"


class band_receiver(gr.hier_block2):
    """Complex band in, one 48 kHz float stream per entry of `channels` (channelizer
    output indices, see channel_offset) out. `device_buffers`: True or False turns
    device buffers on or off for the channelizer and the bank (the module's switch,
    gpufilter.set_device_buffers, is set while they are made, then put back); None
    (default) uses the module's switch, which is on unless a program turned it off.
    The CPU fallback never uses them. `batch_size` (the channelizer's largest batch)
    and `max_latency` (seconds each GPU block may hold input) default to the
    module's."""

    def __init__(self, p, channels, backend="gpu", batch_size=None, device_buffers=None,
                 max_latency=None):
        nsel = len(channels)
        gr.hier_block2.__init__(self, "band_receiver",
                                gr.io_signature(1, 1, gr.sizeof_gr_complex),
                                gr.io_signature(nsel, nsel, gr.sizeof_float))
        if backend not in BACKENDS:
            raise rx_error(f"unknown backend '{backend}' (choose from {BACKENDS})")
        if not channels:
            raise rx_error("no channel to receive")
        self.plan, self.backend, self.channels = p, backend, list(channels)
        ours = device_buffers if backend != "cpu" else None
        with device_buffers_while_made(ours) as on:
            self.device_buffers = backend != "cpu" and on
            self._build(p, list(channels), backend, batch_size, max_latency)

    def _build(self, p, channels, backend, batch_size, max_latency):
        nsel = len(channels)
        ctaps, ataps = channel_taps(p), audio_taps(p)
        self.gpu_blocks = []
        tails = []
        if backend == "cpu":
            split = blocks.stream_to_streams(gr.sizeof_gr_complex, p.nchan)
            chan = filter.pfb_channelizer_ccf(p.nchan, ctaps, p.oversample)
            self.connect(self, split)
            # Its tag propagation needs as many outputs as inputs: the channels not
            # received end in a null sink.
            for k in range(p.nchan):
                self.connect((split, k), (chan, k))
                if k not in channels:
                    self.connect((chan, k), blocks.null_sink(gr.sizeof_gr_complex))
            gain = p.channel_rate / (2 * np.pi * DEVIATION)
            b, a = deemph_taps(p.bank_rate)
            for i in range(nsel):
                demod = analog.quadrature_demod_cf(gain)
                afir = filter.fir_filter_fff(p.decim, ataps)
                deemph = filter.iir_filter_ffd(b, a, False)
                self.connect((chan, channels[i]), demod, afir, deemph)
                tails.append(deemph)
            self.front = [split, chan]
        else:
            device = gpu.device_cpu if backend == "fallback" else gpu.device_auto
            batch = batch_size or gpu.default_batch_size
            budget = gpu.default_max_latency if max_latency is None else max_latency
            chan = gpu.pfb_channelizer_vcf(p.nchan, ctaps, p.oversample, "complex",
                                           device, batch, max_latency=budget)
            self.gpu_blocks.append(chan)
            # The bank's batch is in vectors: those of one channelizer batch (a
            # batch of band samples as 262144 vectors of 100 channels would ask
            # GNU Radio for buffers of hundreds of MB).
            bank = gpu.fm_demod_bank_vcf(p.nchan, list(channels), p.decim, ataps,
                                         p.channel_rate, DEVIATION, TAU, device,
                                         max(256, batch * p.oversample // p.nchan),
                                         max_latency=budget)
            self.gpu_blocks.append(bank)
            to_streams = blocks.vector_to_streams(gr.sizeof_float, nsel)
            self.connect(self, chan, bank, to_streams)
            tails = [(to_streams, i) for i in range(nsel)]
            self.front = [chan, bank]
        for i, t in enumerate(tails):
            if p.resample:
                rs = filter.rational_resampler_fff(*p.resample, resampler_taps(p))
                self.connect(t, rs, (self, i))
            else:
                self.connect(t, (self, i))

    def on_gpu(self):
        return bool(self.gpu_blocks) and all(b.on_gpu() for b in self.gpu_blocks)
