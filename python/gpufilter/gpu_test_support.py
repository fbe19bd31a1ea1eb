# SPDX-License-Identifier: GPL-3.0-or-later
"""Helpers shared by the QA tests: random data, comparison, GPU requirements."""

import os

import numpy as np
from gnuradio import gpufilter

GPU_REQUIRED = os.environ.get("GPUFILTER_REQUIRE_GPU") == "1"


def gpu_count():
    """Number of CUDA devices; fails loudly when a GPU is required and absent."""
    n = gpufilter.cuda_device_count()
    if n == 0 and GPU_REQUIRED:
        raise AssertionError("GPUFILTER_REQUIRE_GPU=1 but no CUDA device is usable")
    return n


def skip_without_gpu(testcase):
    """Skip a GPU-only test with a message, or fail under GPUFILTER_REQUIRE_GPU=1."""
    if gpu_count() == 0:
        testcase.skipTest("no CUDA device (set GPUFILTER_REQUIRE_GPU=1 to make this fail)")


def random_samples(rng, n, complex_valued):
    x = rng.uniform(-1, 1, n)
    if complex_valued:
        x = x + 1j * rng.uniform(-1, 1, n)
        return x.astype(np.complex64)
    return x.astype(np.float32)


def relative_error(got, want):
    got = np.asarray(got, dtype=np.complex128)
    want = np.asarray(want, dtype=np.complex128)
    return np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-30)
