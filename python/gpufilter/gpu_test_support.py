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
    point in the stream at which the test can act (e.g. set_taps). Rows of a 2-D
    `data` are vector items."""

    def __init__(self, data, first):
        item = data.dtype if data.ndim == 1 else (data.dtype, data.shape[1])
        gr.sync_block.__init__(self, "gated_source", None, [item])
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


def feed_for_comparison(source):
    """Lets `source` hand the blocks compared with gr-filter's whole batches, as
    offline use sets it up: a batch of complex samples' worth of bytes, in its items
    (vectors too). With GNU Radio's default buffer gr-filter's rational resampler
    (interpolation above decimation) reads past its input at call boundaries and
    differs from its own definition there; how ours takes small calls is tested on
    its own (call sizes cut by max_noutput_items). Returns `source`."""
    item_bytes = source.output_signature().sizeof_stream_item(0)
    return gpufilter.feed_whole_batches(
        source, max(1, gpufilter.default_batch_size * 8 // item_bytes))


def run_side_by_side(testcase, source, ours, theirs, sink, on_gpu_expected=True):
    """Runs source -> ours -> sink and source -> theirs -> sink in one flowgraph to the
    end, the source fed as feed_for_comparison() says; returns both sinks. Under
    GPUFILTER_REQUIRE_GPU=1 ours must have run on a GPU (unless on_gpu_expected is
    False, e.g. device=device_cpu)."""
    feed_for_comparison(source)
    tb = gr.top_block()
    got, want = sink(), sink()
    tb.connect(source, ours, got)
    tb.connect(source, theirs, want)
    tb.run()
    if GPU_REQUIRED and on_gpu_expected:
        testcase.assertTrue(ours.on_gpu())
    return got, want


def _stop_gated(tb, src):
    """Ends a gated flowgraph whose check failed: left running, its source would wait
    for a release() that never comes and the test process would not exit."""
    src.release()
    tb.stop()
    tb.wait()


def run_gated_side_by_side(testcase, x, first, decimation, ours, theirs, sink, act,
                           wait=None):
    """Both blocks see x[:first], then act(block) runs on each, then the rest of x.
    The blocks must use batch_size=1, so that ours has consumed exactly what gr-filter
    has when act runs. wait(ours, theirs), if given, is polled until true before the
    rest is released (a message is handled by the block's own thread). Returns both
    sinks once the flowgraph has ended."""
    tb = gr.top_block()
    src = gated_source(x, first)
    got, want = sink(), sink()
    tb.connect(src, ours, got)
    tb.connect(src, theirs, want)
    tb.start()
    try:
        deadline = time.time() + 30
        while time.time() < deadline and not (
                ours.nitems_written(0) == theirs.nitems_written(0) == first // decimation):
            time.sleep(0.002)
        testcase.assertEqual(ours.nitems_written(0), first // decimation)
        for blk in (ours, theirs):
            act(blk)
        while wait and time.time() < deadline and not wait(ours, theirs):
            time.sleep(0.002)
    except BaseException:
        _stop_gated(tb, src)
        raise
    src.release()
    tb.wait()
    return got, want


def run_gated_until_idle(x, first, ours, theirs, sink, act, read_slack=64):
    """Both blocks see x[:first] and run until neither writes more, then act(block)
    runs on each, then the rest of x: for blocks whose output count at that point is
    not simply first // decimation (resamplers). With batch_size=1 ours asks the
    scheduler for what gr-filter asks, so both stop at the same input. Returns the
    two outputs as arrays and (ours, theirs) items written before act."""
    tb = gr.top_block()
    src = gated_source(x, first)
    got, want = sink(), sink()
    tb.connect(src, ours, got)
    tb.connect(src, theirs, want)
    tb.start()
    # Done when the source has given everything, each block has read all but the
    # few samples its forecast holds back, and nothing moved for a second (a busy
    # machine can pause a block for longer than one poll).
    try:
        deadline = time.time() + 30
        last, still = None, 0
        while time.time() < deadline:
            time.sleep(0.25)
            now = (ours.nitems_written(0), theirs.nitems_written(0), src.pos)
            read_all = all(b.nitems_read(0) >= first - read_slack for b in (ours, theirs))
            still = still + 1 if now == last else 0
            if src.pos == first and read_all and still >= 4:
                break
            last = now
        before = (ours.nitems_written(0), theirs.nitems_written(0))
        for blk in (ours, theirs):
            act(blk)
    except BaseException:
        _stop_gated(tb, src)
        raise
    src.release()
    tb.wait()
    return np.array(got.data()), np.array(want.data()), before
