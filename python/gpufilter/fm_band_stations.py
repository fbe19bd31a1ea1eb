# SPDX-License-Identifier: GPL-3.0-or-later
"""Finding the FM stations of a band, wherever they are (docs/fm_band_receiver.md).

From a fine spectrum of the band's first samples (Welch, about 5 kHz bins):
  1. the noise floor per bin (a low percentile of the band's middle);
  2. candidates: the local maxima of the power in a sliding 100 kHz window;
  3. each candidate's frequency measured: the centroid of the spectrum above the floor,
     weighted by a Hann window of +-100 kHz and re-centred until it stops moving (a
     station's spectrum is symmetric about its carrier, so the carrier is where it
     settles; the Hann weight keeps a strong neighbour's edge out of the estimate);
  4. its power within +-100 kHz of that frequency against the noise's in the same bins:
     a station when the ratio reaches the threshold;
  5. the strongest first: a candidate within MIN_SEPARATION of a stronger station is
     that station again (its own FM sidebands, or the same hump found twice).
A station is then received on the channel of the grid nearest its frequency shifted by
`shift` (see tunings()): the receiver moves the band by that shift before its
channelizer, so that the station sits at the channel's centre.
"""

import collections
import math

import numpy as np

from .fm_receiver import rx_error

HALF_STATION = 100e3        # an FM station occupies +-100 kHz
PROFILE_HALF = 50e3         # candidates: maxima of the power in +-50 kHz
MIN_SEPARATION = 150e3      # closer than this to a stronger station: the same station
NOISE_PERCENTILE = 10       # the noise floor: this percentile of the spectrum's bins
SPECTRUM_RESOLUTION = 5e3
SHIFT_TOLERANCE = 2e3       # stations this close to a grid centre (or to one shift)
                            # share it: the measurement's error, and a harmless mistune
PRESELECT_MARGIN_DB = 3.0   # candidates this far below the threshold are measured
PILOT_HZ = 19e3
PILOT_MARGIN_DB = 25.0      # a pilot stands this far above the spectrum beside it
DEFAULT_THRESHOLD_DB = 10.0

Station = collections.namedtuple("Station",
                                 "offset power_db snr_db pilot channel shift")
Station.__doc__ = """A detected station: its measured frequency `offset` (Hz from the
band's centre), power (dB, full scale 0 dB = power 1) and SNR estimate (dB) within
+-100 kHz of it, whether a 19 kHz pilot was found, and where the receiver takes it:
channelizer output `channel` after the band is shifted down by `shift` Hz."""


def spectrum(x, rate, resolution=SPECTRUM_RESOLUTION):
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
    the band samples."""
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


def measure_frequency(psd, freqs, floor, start):
    """The station's carrier near `start`: the Hann-weighted centroid (+-100 kHz) of
    the spectrum above the floor, re-centred until it moves less than 10 Hz."""
    above = np.maximum(psd - floor, 0.0)
    f = start
    for _ in range(50):
        d = freqs - f
        sel = np.abs(d) < HALF_STATION
        w = above[sel] * (0.5 + 0.5 * np.cos(np.pi * d[sel] / HALF_STATION))
        if not np.any(w > 0):
            return f
        new = float(np.sum(freqs[sel] * w) / np.sum(w))
        if abs(new - f) < 10.0:
            return new
        f = new
    return f


def candidates(psd, freqs, floor, threshold_db):
    """Bins where the power in +-PROFILE_HALF is a local maximum (within +-10 kHz) and
    at most PRESELECT_MARGIN_DB below the threshold."""
    df = freqs[1] - freqs[0]
    half = max(1, int(round(PROFILE_HALF / df)))
    profile = np.convolve(psd, np.ones(2 * half + 1), mode="same")
    noise = floor * (2 * half + 1)
    near = max(1, int(round(10e3 / df)))
    padded = np.pad(profile, near, mode="constant", constant_values=-np.inf)
    local = np.max(np.lib.stride_tricks.sliding_window_view(padded, 2 * near + 1),
                   axis=1)
    least = noise * 10 ** ((threshold_db - PRESELECT_MARGIN_DB) / 10)
    return np.nonzero((profile >= local) & (profile >= least))[0]


def tunings(offsets, spacing):
    """The shift (Hz) under which each station sits at a grid centre: 0 for stations
    within SHIFT_TOLERANCE of one, else shared by the stations whose distance to the
    grid agrees within SHIFT_TOLERANCE (one shift for a band on a regular raster)."""
    shifts = []
    out = []
    for f in offsets:
        r = f - spacing * round(f / spacing)
        if abs(r) <= SHIFT_TOLERANCE:
            out.append(0.0)
            continue
        for s in shifts:   # the same shift, modulo the grid
            d = (r - s + spacing / 2) % spacing - spacing / 2
            if abs(d) <= SHIFT_TOLERANCE:
                out.append(s)
                break
        else:
            shifts.append(r)
            out.append(r)
    return out


def channel_of(offset, shift, p):
    """The channelizer output (see channel_offset) that holds a station at `offset`
    once the band is shifted down by `shift`."""
    return int(round((offset - shift) / p.spacing)) % p.nchan


def find_stations(x, p, threshold_db=DEFAULT_THRESHOLD_DB):
    """Detected stations of the band samples x (complex) for the plan p, sorted by
    frequency, and the PSD, its frequencies and the noise floor per bin: a station is
    a hump of the spectrum whose power within +-100 kHz of its measured centre is
    threshold_db above the noise floor's in the same bins."""
    if not math.isfinite(threshold_db):
        raise rx_error(f"threshold {threshold_db} dB is not a finite number")
    x = np.asarray(x, np.complex64)
    psd, freqs = spectrum(x, p.rate)
    floor = noise_floor(psd, freqs, p.rate)
    if floor <= 0:   # an all-zero input: no noise to stand above, and no station
        return [], psd, freqs, floor
    measured = []
    for i in candidates(psd, freqs, floor, threshold_db):
        f = measure_frequency(psd, freqs, floor, float(freqs[i]))
        if abs(f) + HALF_STATION > p.rate / 2 + SHIFT_TOLERANCE:
            continue   # not whole in the band
        sel = np.abs(freqs - f) <= HALF_STATION
        power, noise = float(np.sum(psd[sel])), floor * int(np.sum(sel))
        if 10 * math.log10(power / noise) >= threshold_db:
            measured.append((power, f, noise))
    measured.sort(reverse=True)
    kept = []
    for power, f, noise in measured:
        if all(abs(f - g) >= MIN_SEPARATION for _, g, _ in kept):
            kept.append((power, f, noise))
    kept.sort(key=lambda m: m[1])
    step = p.nchan // p.oversample
    X = np.fft.fft(x[:(len(x) // step) * step]) if kept else None
    found = []
    for (power, f, noise), shift in zip(kept, tunings([m[1] for m in kept], p.spacing)):
        snr = 10 * math.log10(max(power - noise, 1e-30) / noise)
        found.append(Station(f, 10 * math.log10(power), snr,
                             has_pilot(X, p.rate, f, p.channel_rate),
                             channel_of(f, shift, p), shift))
    return found, psd, freqs, floor
