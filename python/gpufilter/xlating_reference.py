# SPDX-License-Identifier: GPL-3.0-or-later
"""float64 model of gr-filter's freq_xlating_fir_filter, for the QA tests.

gr-filter 3.10 (freq_xlating_fir_filter_impl.cc, build_composite_fir and work):
  - band-pass taps  ctaps[i] = taps[i] * exp(j*i*fwT0),  fwT0 = float(2*pi*fc/fs),
    computed in float;
  - kept output k:  y[k] = rot[k] * sum_i ctaps[i] * x[k*D - i]  (zero history);
  - rotator:        rot[k+1] = rot[k] * exp(-j*fwT0*D), starting (its "previous"
    frequency is 0 Hz) at exp(-j*w*(ntaps-1)/2); a retune from fc_old to fc_new,
    applied just before output k_r, multiplies rot[k_r] by
    exp(-j*(w_new - w_old)*(ntaps-1)/2).
The model keeps the taps in gr-filter's float arithmetic (they are part of its
output) and the rotation exact; gr-filter's own rotator multiplies a float phasor
by a float increment every output and so drifts from it (see drift_tolerance).
"""

import numpy as np


def bandpass_taps(taps, center_freq, sampling_freq):
    """gr-filter's complex band-pass taps, with its float32 angle arithmetic."""
    fwT0 = np.float32(2 * np.pi * center_freq / sampling_freq)
    angles = (np.arange(len(taps), dtype=np.float32) * fwT0).astype(np.float64)
    return np.asarray(taps, dtype=np.complex128) * np.exp(1j * angles)


def xlating_reference(x, decimation, taps, sampling_freq, retunes):
    """Outputs of gr-filter's convention with an exact rotation.

    retunes: [(first_output, center_freq), ...], the first at output 0; the taps are
    the same throughout (a change of tap count also moves GNU Radio's history).
    """
    x = np.asarray(x, dtype=np.complex128)
    nout = len(x) // decimation
    ntaps = len(taps)
    y = np.zeros(nout, dtype=np.complex128)
    phase = 0.0  # cycles, of the next output
    prev_freq, prev_k, step = 0.0, 0, 0.0
    bounds = [k for k, _ in retunes[1:]] + [nout]
    for (k0, freq), k1 in zip(retunes, bounds):
        phase += (k0 - prev_k) * step
        phase -= (freq - prev_freq) / sampling_freq * (ntaps - 1) / 2
        step = -freq * decimation / sampling_freq
        bp = np.convolve(x, bandpass_taps(taps, freq, sampling_freq))[:nout * decimation]
        k = np.arange(k0, k1)
        y[k0:k1] = bp[k * decimation] * np.exp(2j * np.pi * (phase + (k - k0) * step))
        prev_freq, prev_k = freq, k0
    return y


def drift_tolerance(center_freq, sampling_freq, decimation, nout, ntaps):
    """Relative error allowed between our exact rotation and gr-filter's float one.

    Per output, gr-filter's phase moves by float(float(fwT0)*D) through a float
    phasor: each of the two roundings is at most 2**-24 of |fwT0*D|, plus a few
    rounding errors of the complex multiply and renormalisation. Over nout outputs
    that error grows linearly; a retune's float phase jump adds 2**-24 of
    |w|*(ntaps-1)/2 once.
    """
    w = abs(2 * np.pi * center_freq / sampling_freq)
    per_output = 2.0**-23 * (w * decimation + 2)
    return 2e-5 + per_output * nout + 2.0**-23 * w * ntaps
