# SPDX-License-Identifier: GPL-3.0-or-later
"""NLMS in float64, sample by sample, as gpufilter's NLMS filters define it; and the
bound of float32 against it. Shared by the tests and the echo-canceller app."""

import math

import numpy as np


def nlms_reference(x, d, ntaps, mu, eps=1e-6, w0=None):
    """One filter over whole signals: x_n = [x[n], ..., x[n-ntaps+1]] (zeros before the
    start), y = w.x_n, e = d - y, w += mu e x_n / (eps + x_n.x_n). Returns (e, w)."""
    x = np.asarray(x, dtype=np.float64)
    d = np.asarray(d, dtype=np.float64)
    w = np.zeros(ntaps) if w0 is None else np.array(w0, dtype=np.float64)
    xpad = np.concatenate([np.zeros(ntaps - 1), x])
    e = np.empty(len(x))
    for n in range(len(x)):
        xn = xpad[n:n + ntaps][::-1]
        e[n] = d[n] - w @ xn
        w += (mu * e[n] / (eps + xn @ xn)) * xn
    return e, w


def float_bound(ntaps, length):
    """Bound of ||e32 - e64|| / ||d|| (and of the taps' relative error) for inputs of
    unit order. A float dot product of N terms is off by about sqrt(N) roundings
    (summed in sequence; fewer in a tree), the step and update add a few (8); for
    0 < mu < 2 the update I - mu x x^T / (eps + x.x) never expands an error of w, so
    the roundings of w add up at most as a random walk, sqrt(length). 2^-24 per
    rounding, 4 standard deviations."""
    return 4 * 2.0**-24 * (math.sqrt(ntaps) + 8) * math.sqrt(length + 1)


def relative_to(got, want, scale):
    """||got - want|| / ||scale||: e shrinks as a filter converges, so errors are
    measured against d."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return np.linalg.norm(got - want) / max(np.linalg.norm(scale), 1e-300)


def echo_path(ntaps, rng):
    """A decaying random impulse response (a room's echo path, shortened)."""
    return (0.5 * rng.standard_normal(ntaps) *
            np.exp(-4.0 * np.arange(ntaps) / ntaps)).astype(np.float32)


def erle_db(d, e):
    """Echo return loss enhancement: 10 log10(power of d / power of e)."""
    d = np.asarray(d, dtype=np.float64)
    e = np.asarray(e, dtype=np.float64)
    return 10 * math.log10(max(np.mean(d * d), 1e-300) / max(np.mean(e * e), 1e-300))
