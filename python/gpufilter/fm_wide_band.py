# SPDX-License-Identifier: GPL-3.0-or-later
"""A whole broadcast-FM band to receive: up to a hundred stations in one complex
baseband (by default 20 MS/s, stations on a 200 kHz grid), fast to make.

Each station is synthesised at its own low rate (400 kS/s: its audio, pre-emphasised
(75 us), optionally with a 19 kHz stereo pilot, frequency-modulated with 75 kHz
deviation), and its spectrum (the bins within +-100 kHz) is placed at the station's
offset in the spectrum of the whole band; one inverse FFT of the band's length then
gives the loop. This is a polyphase synthesis done in the frequency domain, once: the
cost is one FFT per station at 400 kS/s and one of the band, a few seconds for a
second of a 20 MS/s band, and the loop repeats seamlessly (every component is
periodic in the loop). The noise (white, complex Gaussian) is part of the loop, so
playing the band at run time is only reading a file: the generator never limits the
receiver it feeds.

Every station's audio is band-limited Gaussian noise of its own seed, so a receiver
tuned to one station does not correlate with any other station's audio.
"""

import collections
import os

import numpy as np
from gnuradio import gr

try:  # SciPy's FFT runs on every core: the band's one long transform is much faster
    import scipy.fft as band_fft
    FFT_OPTIONS = {"workers": os.cpu_count() or 1}
except ImportError:  # NumPy's: the same band, on one core
    band_fft = np.fft
    FFT_OPTIONS = {}

from . import fm_band

AUDIO_RATE = fm_band.AUDIO_RATE
DEVIATION = fm_band.DEVIATION
STATION_RATE = 400e3      # each station's own synthesis rate
HALF_STATION = 100e3      # a station's spectrum is kept within +-100 kHz
NOISE_REF_DB = 40.0       # SNR (in 200 kHz) of a station of amplitude 1
STRONG_DB = (30.0, 45.0)  # the SNRs of ordinary stations: uniform in this range
WEAK_DB = 16.0            # weak stations: detected with the default threshold
FAINT_DB = 4.0            # faint stations: below the default threshold, not received

Station = collections.namedtuple("Station", "offset snr_db pilot")
Station.__doc__ = """One station of the band: offset from the centre (Hz), SNR in
200 kHz (dB), whether it carries a 19 kHz stereo pilot."""


def usable_offsets(rate, spacing):
    """The channel centres of the grid at which a whole station fits in the band."""
    n = int(round(rate / spacing))
    offsets = [(k if k < (n + 1) // 2 else k - n) * spacing for k in range(n)]
    return sorted(f for f in offsets if abs(f) + HALF_STATION <= rate / 2)


def make_stations(rate, spacing=200e3, count=None, seed=0):
    """`count` stations on the grid (default: nine in ten of the usable channels),
    at least 200 kHz apart, in random channels; every third carries a pilot, one in
    ten is weak (WEAK_DB) and one in ten faint (FAINT_DB), the others STRONG_DB."""
    rng = np.random.default_rng(seed)
    free = usable_offsets(rate, spacing)
    rng.shuffle(free)
    chosen = []
    for f in free:
        if all(abs(f - g) >= 2 * HALF_STATION for g in chosen):
            chosen.append(f)
    room = len(chosen)
    if count is None:
        count = max(1, (9 * room) // 10)
    if count > room:
        raise ValueError(f"--stations {count}: a {rate:g} S/s band with a "
                         f"{spacing:g} Hz grid holds at most {room} stations")
    chosen = sorted(chosen[:count])
    stations = []
    for i, f in enumerate(chosen):
        role = i % 10
        snr = WEAK_DB if role == 7 else FAINT_DB if role == 9 else rng.uniform(*STRONG_DB)
        stations.append(Station(float(f), float(snr), i % 3 == 1))
    return stations


def station_audio(k, n, seed):
    """Station k's audio: n samples at 48 kHz of band-limited noise, peak 1."""
    rng = np.random.default_rng([seed, k])
    x = fm_band._bandlimit(rng.standard_normal(n), 50, fm_band.AUDIO_TOP_HZ)
    return x / np.max(np.abs(x))


def band_loop(rate, stations, period=1.0, seed=0):
    """(the band loop as complex64 with its noise, each station's audio reference at
    48 kHz in the receiver's units (1.0 = 75 kHz deviation), period)."""
    if rate < 2 * HALF_STATION:
        raise ValueError(f"sample rate {rate:g} S/s is too low for one FM station")
    n = int(round(period * rate))
    ns = int(round(period * STATION_RATE))
    na = int(round(period * AUDIO_RATE))
    spectrum = np.zeros(n, np.complex64)
    fa = np.fft.rfftfreq(na, 1.0 / AUDIO_RATE)
    preemph = 1 + 2j * np.pi * fa * fm_band.TAU
    fs = np.fft.fftfreq(ns, 1.0 / STATION_RATE)
    keep = np.nonzero(np.abs(fs) <= HALF_STATION)[0]
    shift = np.round(fs[keep] * period).astype(np.int64)
    rng = np.random.default_rng(seed)
    refs = []
    for k, st in enumerate(stations):
        if abs(st.offset) + HALF_STATION > rate / 2:
            raise ValueError(f"station at {st.offset:g} Hz does not fit in the band "
                             f"(+-{rate / 2:g} Hz)")
        a = station_audio(k, na, seed)
        spec = np.fft.rfft(a) * preemph
        spec[0] = 0   # no DC: the phase closes over the loop
        pilot = fm_band.PILOT_LEVEL if st.pilot else 0.0
        gain = (1 - pilot) / np.max(np.abs(np.fft.irfft(spec, n=na)))
        refs.append((a - a.mean()) * gain)
        up = np.zeros(ns // 2 + 1, complex)
        up[:len(spec)] = spec * (gain * ns / na)
        if pilot:
            up[int(round(fm_band.PILOT_HZ * period))] += pilot * ns / 2
        m = np.fft.irfft(up, n=ns)
        phase = np.cumsum(m * (2 * np.pi * DEVIATION / STATION_RATE))
        phase += rng.uniform(0, 2 * np.pi)
        amp = 10 ** ((st.snr_db - NOISE_REF_DB) / 20)
        s = band_fft.fft(np.exp(1j * phase)) * (amp * n / ns)
        where = (int(round(st.offset * period)) + shift) % n
        spectrum[where] += s[keep].astype(np.complex64)
    band = band_fft.ifft(spectrum, **FFT_OPTIONS)
    del spectrum
    sigma = fm_band.noise_amplitude(rate, NOISE_REF_DB)
    noise = rng.standard_normal((n, 2), np.float32)
    noise *= np.float32(sigma / np.sqrt(2))
    band += noise.view(np.complex64)[:, 0]
    return band.astype(np.complex64, copy=False), refs, period


class wide_band_source(gr.hier_block2):
    """The band of `stations` (Station list) at `rate`, played as a loop from a file
    (unlinked at once). Never ends: follow it with a head block."""

    def __init__(self, rate, stations, period=1.0, seed=0):
        gr.hier_block2.__init__(self, "wide_band_source", gr.io_signature(0, 0, 0),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        band, self.references, self.period = band_loop(rate, stations, period, seed)
        self.rate, self.stations = rate, list(stations)
        self.head_samples = band[:min(len(band), int(rate * 0.2))].copy()
        self.src = fm_band.loop_source(band)
        self.connect(self.src, self)
