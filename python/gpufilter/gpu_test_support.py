# SPDX-License-Identifier: GPL-3.0-or-later
"""Helpers shared by the QA tests: random data, comparison, GPU requirements."""

import os
import threading
import time

import numpy as np
from gnuradio import gpufilter, gr

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


class gated_source(gr.sync_block):
    """Emits `first` samples, waits for release(), then the rest: a deterministic
    point in the stream at which the test can act (e.g. set_taps)."""

    def __init__(self, data, first):
        gr.sync_block.__init__(self, "gated_source", None, [data.dtype])
        self.data, self.first, self.pos = data, first, 0
        self.released = threading.Event()

    def release(self):
        self.released.set()

    def work(self, input_items, output_items):
        out = output_items[0]
        limit = len(self.data) if self.released.is_set() else self.first
        if self.pos >= len(self.data):
            return -1
        n = min(len(out), limit - self.pos)
        if n <= 0:
            time.sleep(0.001)
            return 0
        out[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n
