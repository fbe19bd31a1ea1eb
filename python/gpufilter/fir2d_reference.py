# SPDX-License-Identifier: GPL-3.0-or-later
"""SciPy's convolve2d and correlate2d (boundary 'fill', 0) in float64 with NumPy
only: the tests' reference where SciPy is not installed. qa_convolve2d checks it
against SciPy where SciPy is."""

import numpy as np


def _full(x, k):
    """The full 2D convolution, one shifted slice per tap of the smaller input."""
    x = np.asarray(x)
    k = np.asarray(k)
    if x.size < k.size:
        x, k = k, x
    dtype = np.result_type(x.dtype, k.dtype, np.float64)
    (r, c), (kh, kw) = x.shape, k.shape
    out = np.zeros((r + kh - 1, c + kw - 1), dtype)
    for i in range(kh):
        for j in range(kw):
            if k[i, j] != 0:
                out[i:i + r, j:j + c] += k[i, j] * x
    return out


def _valid_swap(x_shape, k_shape):
    larger = all(a >= b for a, b in zip(x_shape, k_shape))
    smaller = all(a <= b for a, b in zip(x_shape, k_shape))
    if not (larger or smaller):
        raise ValueError("For 'valid' mode, one must be at least as large as the other "
                         "in every dimension")
    return not larger


def _crop(full, x_shape, k_shape, mode, correlate):
    (r, c), (kh, kw) = x_shape, k_shape
    if mode == "full":
        return full
    if mode == "same":
        r0 = kh // 2 if correlate else (kh - 1) // 2
        c0 = kw // 2 if correlate else (kw - 1) // 2
        return full[r0:r0 + r, c0:c0 + c]
    if mode == "valid":
        return full[kh - 1:r, kw - 1:c]
    raise ValueError("mode must be 'full', 'same' or 'valid'")


def convolve2d(in1, in2, mode="full"):
    in1, in2 = np.asarray(in1), np.asarray(in2)
    if mode == "valid" and _valid_swap(in1.shape, in2.shape):
        in1, in2 = in2, in1
    return _crop(_full(in1, in2), in1.shape, in2.shape, mode, False)


def correlate2d(in1, in2, mode="full"):
    in1, in2 = np.asarray(in1), np.asarray(in2)
    if mode == "valid" and _valid_swap(in1.shape, in2.shape):
        return correlate2d(in2, in1, mode)[::-1, ::-1]
    flipped = np.conj(in2[::-1, ::-1])
    return _crop(_full(in1, flipped), in1.shape, in2.shape, mode, True)
