# SPDX-License-Identifier: GPL-3.0-or-later
"""A broadcast-FM band to receive: several stations in one complex baseband.

Each station's audio (48 kHz) is pre-emphasised (75 us), optionally joined by a 19 kHz
pilot, and frequency-modulated with 75 kHz deviation at its own frequency offset.

The clean band is computed once, in numpy, as a loop of `period` seconds that repeats
seamlessly (every component is periodic in the loop: the audio is band-limited in the
FFT domain, the modulating signal has no DC, the offsets are whole multiples of
1/period Hz), and is then played by a vector source; only the noise is made while the
flowgraph runs, so it never repeats. Computing the loop up front keeps the generator
cheap at run time: it must not weigh on the receiver it feeds.
"""

import os
import tempfile
import wave

import numpy as np
from gnuradio import analog, blocks, gr

AUDIO_RATE = 48000
DEVIATION = 75e3
TAU = 75e-6
PILOT_HZ = 19e3
PILOT_LEVEL = 0.1        # share of the deviation, as in broadcast stereo
AUDIO_TOP_HZ = 15e3      # broadcast audio bandwidth
CHANNEL_BW = 200e3       # the bandwidth the SNR is measured in
DEFAULT_STATIONS = (-600e3, -200e3, 300e3, 700e3)


def _bandlimit(x, lo, hi):
    """Periodic band-pass in the FFT domain: keeps the loop seamless."""
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1.0 / AUDIO_RATE)
    spec[(f < lo) | (f > hi)] = 0
    return np.fft.irfft(spec, n=len(x))


def _synthetic_audio(k, n, rng):
    """Distinct audio for station k: each kind differs in spectrum and envelope, so a
    receiver tuned to one station correlates poorly with its neighbours' audio."""
    t = np.arange(n) / AUDIO_RATE
    kind = k % 4
    if kind == 0:    # linear sweep 300 Hz -> 3 kHz, once per second
        tt = t % 1.0
        x = np.sin(2 * np.pi * (300 * tt + 0.5 * 2700 * tt * tt))
    elif kind == 1:  # two tones with a 3 Hz tremolo
        x = (np.sin(2 * np.pi * 440 * t) + 0.7 * np.sin(2 * np.pi * 1320 * t)) \
            * (0.6 + 0.4 * np.sin(2 * np.pi * 3 * t))
    elif kind == 2:  # band-limited noise, like speech in spectrum
        x = rng.standard_normal(n)
    else:            # 1 kHz tone bursts, 4 per second, and a 5 kHz whistle
        x = np.sin(2 * np.pi * 1000 * t) * ((t * 4) % 1.0 < 0.5) \
            + 0.3 * np.sin(2 * np.pi * 5000 * t)
    # Sweeps and bursts are not band-limited; the loop must be.
    x = _bandlimit(x, 50 + 50 * k, 4000 + 500 * k if kind == 2 else AUDIO_TOP_HZ)
    return x / np.max(np.abs(x))


def read_wav(path):
    """Mono float audio at 48 kHz from a PCM WAV file (8/16/32-bit)."""
    with wave.open(path, "rb") as w:
        nch, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
        raw = w.readframes(w.getnframes())
    if width == 1:
        x = (np.frombuffer(raw, np.uint8).astype(np.float64) - 128) / 128
    elif width in (2, 4):
        x = np.frombuffer(raw, {2: "<i2", 4: "<i4"}[width]).astype(np.float64)
        x /= 2.0 ** (8 * width - 1)
    else:
        raise ValueError(f"{path}: {8 * width}-bit WAV is not supported")
    x = x.reshape(-1, nch).mean(axis=1)
    if rate != AUDIO_RATE:   # FFT resampling: exact for the loop, cheap enough once
        n = int(round(len(x) * AUDIO_RATE / rate))
        spec = np.fft.rfft(x)
        out = np.zeros(n // 2 + 1, complex)
        m = min(len(out), len(spec))
        out[:m] = spec[:m]
        x = np.fft.irfft(out, n=n) * n / len(x)
    return x


def _check(sample_rate, stations, period):
    if sample_rate <= 2 * AUDIO_TOP_HZ or period <= 0:
        raise ValueError(f"fm_band: sample_rate {sample_rate} and period {period} "
                         "must be positive (rate > 30 kHz)")
    for f in stations:
        if abs(f) >= sample_rate / 2:
            raise ValueError(f"fm_band: station offset {f} Hz is outside the band "
                             f"(+-{sample_rate / 2:g} Hz)")


def band_references(sample_rate=2.4e6, stations=DEFAULT_STATIONS, pilot=False, seed=0,
                    wav=None, period=2.0):
    """(clean band loop as complex64, list of each station's audio at 48 kHz, the
    period in seconds). The audio is what the receiver should give back after its
    de-emphasis, in the same units (1.0 = 75 kHz deviation)."""
    stations = list(stations)
    _check(sample_rate, stations, period)
    rng = np.random.default_rng(seed)
    wav_audio = read_wav(wav) if wav else None
    if wav_audio is not None:   # the loop holds the whole file, in whole seconds
        period = max(period, np.ceil(len(wav_audio) / AUDIO_RATE))
    na = int(round(period * AUDIO_RATE))
    n = int(round(period * sample_rate))
    fa = np.fft.rfftfreq(na, 1.0 / AUDIO_RATE)
    preemph = 1 + 2j * np.pi * fa * TAU   # the analog 75 us network, |H| up to ~7 at 15 kHz
    band = np.zeros(n, np.complex64)
    refs = []
    for k, offset in enumerate(stations):
        if k == 0 and wav_audio is not None:
            a = np.zeros(na)
            a[:min(na, len(wav_audio))] = wav_audio[:na]
            a = _bandlimit(a, 30, AUDIO_TOP_HZ)
        else:
            a = _synthetic_audio(k, na, rng)
        spec = np.fft.rfft(a) * preemph
        spec[0] = 0                        # no DC: the FM phase closes over the loop
        # Scale so that the pre-emphasised peak, plus the pilot, is 75 kHz deviation.
        peak = np.max(np.abs(np.fft.irfft(spec, n=na)))
        gain = (1 - (PILOT_LEVEL if pilot else 0)) / max(peak, 1e-12)
        refs.append((a - np.mean(a)) * gain)
        # The whole modulating signal in one spectrum at the band rate (an irfft bin b
        # of value v gives v*2/n*cos(2 pi b i/n), bin 0 gives v/n): the audio
        # interpolated, the pilot, and the offset as a DC term that cumsum turns into
        # the carrier's phase ramp (whole cycles per loop, so the loop closes).
        up = np.zeros(n // 2 + 1, complex)
        up[:len(spec)] = spec * (gain * n / na)
        if pilot:
            up[int(round(PILOT_HZ * period))] += PILOT_LEVEL * n / 2
        up[0] = round(offset * period) / period / DEVIATION * n
        phase = np.fft.irfft(up, n=n)
        del up
        phase *= 2 * np.pi * DEVIATION / sample_rate
        np.cumsum(phase, out=phase)
        phase += rng.uniform(0, 2 * np.pi)
        band.real += np.cos(phase)
        band.imag += np.sin(phase)
        del phase
    return band, refs, period


def noise_amplitude(sample_rate, snr_db):
    """Noise standard deviation (complex) for a carrier of power 1 at `snr_db` in a
    200 kHz channel; 0 when snr_db is None."""
    if snr_db is None:
        return 0.0
    return float(np.sqrt(10 ** (-snr_db / 10) * sample_rate / CHANNEL_BW))



def loop_source(samples):
    """A blocks.file_source that plays the complex64 `samples` as a loop. Handing
    millions of samples to vector_source through pybind11 takes seconds, writing a
    file milliseconds; the file is unlinked at once, the source keeps it open."""
    fd, path = tempfile.mkstemp(prefix="gpufilter_band_", suffix=".cf32")
    try:
        with os.fdopen(fd, "wb") as f:
            np.asarray(samples, np.complex64).tofile(f)
        return blocks.file_source(gr.sizeof_gr_complex, path, True)
    finally:
        os.unlink(path)

class fm_band_source(gr.hier_block2):
    """Complex baseband of `stations` FM stations (Hz offsets) at `sample_rate`,
    with noise at `snr_db` (per station, in 200 kHz; None: no noise). Never ends:
    follow it with a head block for a finite run."""

    def __init__(self, sample_rate=2.4e6, stations=DEFAULT_STATIONS, snr_db=30.0,
                 pilot=False, seed=0, wav=None, period=2.0):
        gr.hier_block2.__init__(self, "fm_band_source", gr.io_signature(0, 0, 0),
                                gr.io_signature(1, 1, gr.sizeof_gr_complex))
        band, self.references, self.period = band_references(
            sample_rate, stations, pilot, seed, wav, period)
        self.sample_rate, self.stations = sample_rate, list(stations)
        self.src = loop_source(band)
        sigma = noise_amplitude(sample_rate, snr_db)
        if sigma == 0:
            self.connect(self.src, self)
            return
        # noise_source_c's amplitude is the std of the complex sample.
        self.noise = analog.noise_source_c(analog.GR_GAUSSIAN, sigma, seed + 1)
        self.add = blocks.add_cc()
        self.connect(self.src, (self.add, 0))
        self.connect(self.noise, (self.add, 1))
        self.connect(self.add, self)


def band_samples(seconds, sample_rate=2.4e6, stations=DEFAULT_STATIONS, snr_db=30.0,
                 pilot=False, seed=0, wav=None, period=2.0):
    """`seconds` of the band with noise, as a numpy array (tests, benchmark, files),
    and the references."""
    band, refs, period = band_references(sample_rate, stations, pilot, seed, wav, period)
    n = int(round(seconds * sample_rate))
    x = np.resize(band, n)
    sigma = noise_amplitude(sample_rate, snr_db)
    if sigma:
        rng = np.random.default_rng(seed + 1)
        w = rng.standard_normal((n, 2), np.float32) * np.float32(sigma / np.sqrt(2))
        x = x + w.view(np.complex64)[:, 0]
    return x, refs
