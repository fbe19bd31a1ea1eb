# SPDX-License-Identifier: GPL-3.0-or-later
"""Acoustic echo cancellation with gpufilter's NLMS filters: test signals (a far end
that sounds like speech, a room's echo path), the canceller as a flowgraph, ERLE over
time, and ensembles of independent runs through nlms_batch. The app gpufilter_aec
parses arguments and prints; this module does the work."""

import math
import wave

import numpy as np
from gnuradio import blocks, gpufilter, gr


def far_end(rate, seconds, rng):
    """Speech-like far-end signal: coloured noise (a formant-like band 200 Hz-3.4 kHz)
    under a syllable envelope (4 Hz), with pauses; peak about 0.5."""
    n = int(round(rate * seconds))
    # Shaped in frequency: a band of 200 Hz-3.4 kHz with a formant-like bump at 700 Hz.
    f = np.fft.rfftfreq(n, 1.0 / rate)
    shape = ((f > 200) & (f < 3400)) * (1.0 + 3.0 * np.exp(-((f - 700.0) / 250.0) ** 2))
    y = np.fft.irfft(np.fft.rfft(rng.standard_normal(n)) * shape, n)
    t = np.arange(n) / rate
    envelope = np.clip(np.sin(2 * math.pi * 4.0 * t + rng.uniform(0, 6.28)), 0, None) ** 2
    envelope *= (np.sin(2 * math.pi * 0.3 * t) > -0.6)  # pauses
    x = y * (0.2 + envelope)
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    return (0.5 * x / max(np.max(np.abs(x)), 1e-12)).astype(np.float32)


def room_echo_path(rate, length_ms, delay_ms, rt60_ms, rng):
    """A room's impulse response, loudspeaker to microphone: a delay, then noise that
    decays by 60 dB in rt60_ms, of length_ms in all; unit-free, peak about 0.5."""
    n = max(1, int(round(rate * length_ms / 1000)))
    delay = min(n - 1, int(round(rate * delay_ms / 1000)))
    t = np.arange(n - delay) / rate
    tail = rng.standard_normal(n - delay) * 10 ** (-3 * t / (rt60_ms / 1000))
    h = np.concatenate([np.zeros(delay), tail])
    return (0.5 * h / np.max(np.abs(h))).astype(np.float32)


def microphone(x, h, noise_db, rng):
    """d = h * x plus white near-end noise noise_db below the echo's power."""
    echo = np.convolve(x.astype(np.float64), h.astype(np.float64))[:len(x)]
    p = np.mean(echo ** 2) if len(echo) else 0.0
    noise = rng.standard_normal(len(x)) * math.sqrt(p * 10 ** (noise_db / 10))
    return (echo + noise).astype(np.float32)


def read_wav(path):
    """Mono 16-bit PCM WAV as float32 in [-1, 1) and its rate; ValueError otherwise."""
    try:
        with wave.open(path, "rb") as w:
            if w.getsampwidth() != 2:
                raise ValueError(f"{path}: only 16-bit PCM WAV is read")
            if w.getnchannels() != 1:
                raise ValueError(f"{path}: only mono WAV is read, it has "
                                 f"{w.getnchannels()} channels")
            data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
            return (data.astype(np.float32) / 32768.0), w.getframerate()
    except (OSError, wave.Error, EOFError) as e:
        raise ValueError(f"{path}: cannot read it as a WAV file ({e})") from None


def cancel(x, d, ntaps, mu, eps, device=gpufilter.device_auto):
    """The canceller as a flowgraph: x and d through gpufilter.nlms_filter_ff.
    Returns (e, the block)."""
    tb = gr.top_block()
    blk = gpufilter.nlms_filter_ff(ntaps, mu, 1, eps, device)
    sink = blocks.vector_sink_f()
    tb.connect(blocks.vector_source_f(x.tolist()), (blk, 0))
    tb.connect(blocks.vector_source_f(d.tolist()), (blk, 1))
    tb.connect(blk, sink)
    tb.run()
    return np.asarray(sink.data(), dtype=np.float32), blk


def erle_over_time(d, e, window):
    """ERLE in dB per window of `window` samples: 10 log10(sum d^2 / sum e^2); windows
    where the far end is silent (d below 1e-10) give nan."""
    nwin = len(d) // window
    out = np.full(nwin, np.nan)
    for k in range(nwin):
        pd = np.sum(np.square(d[k * window:(k + 1) * window], dtype=np.float64))
        pe = np.sum(np.square(e[k * window:(k + 1) * window], dtype=np.float64))
        if pd > 1e-10 * window:
            out[k] = 10 * math.log10(pd / max(pe, 1e-300))
    return out


def ensemble_mse_db(runs, samples, make_run, ntaps, mu, eps, device, max_floats=1 << 24):
    """The ensemble-averaged squared error in dB over time: `runs` independent
    simulations, make_run(k) -> (x, d), through nlms_batch in groups that keep the
    arrays near max_floats floats. Returns (mean e^2 in dB, mean d^2 in dB)."""
    group = max(1, min(runs, max_floats // max(samples, 1)))
    sum_e = np.zeros(samples)
    sum_d = np.zeros(samples)
    for first in range(0, runs, group):
        k = range(first, min(runs, first + group))
        pairs = [make_run(i) for i in k]
        x = np.stack([p[0] for p in pairs])
        d = np.stack([p[1] for p in pairs])
        e, _ = gpufilter.nlms_batch(x, d, ntaps, mu, eps, device)
        sum_e += np.sum(np.square(e, dtype=np.float64), axis=0)
        sum_d += np.sum(np.square(d, dtype=np.float64), axis=0)
    to_db = lambda p: 10 * np.log10(np.maximum(p / runs, 1e-300))
    return to_db(sum_e), to_db(sum_d)
