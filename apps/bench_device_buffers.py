#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Flowgraph benchmark of device buffers: one GPU fir_filter_ccf against blocks.copy
(default and 1M-item buffers), and three chained GPU filters with device buffers on
and off: rate, host CPU time (user + system) per sample, and the latency of one batch
through the chain. The "plumbing" row is the same flowgraph without any filter (null
source, head, null sink): its CPU time is in every row, so a chain's own CPU time is
its row's less that one. Every row is the median of --repeat whole flowgraph runs (by
time); prints CSV.

    bench_device_buffers.py [--items N] [--taps 256] [--batch 262144] [--repeat 3]
                            [--csv FILE] [--quick]

--csv FILE: the CSV into FILE as well (GNU Radio's log lines share standard output).
"""

import argparse
import csv
import resource
import sys
import threading
import time

import numpy as np
from gnuradio import blocks, gpufilter, gr

CSIZE = gr.sizeof_gr_complex
FIELDS = ("case", "buffers", "device_buffers", "items", "seconds", "msps",
          "cpu_ns_per_sample", "latency_ms", "largest_batch", "mb_to_device",
          "mb_from_device", "on_gpu")


def taps_of(n):
    rng = np.random.default_rng(1)
    return (rng.uniform(-1, 1, n) / n).astype(np.float32).tolist()


def size_buffers(blks, items):
    for b in blks:
        if items:
            b.set_min_output_buffer(items)


def timed(tb):
    """Wall and process CPU (user + system, getrusage) seconds of one tb.run()."""
    c0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    tb.run()
    t1, c1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return t1 - t0, cpu


def row(case, buffers, dev, items, wall, cpu, gpu_blocks, latency=None):
    if wall is None:  # a latency row
        return dict(case=case, buffers=buffers, device_buffers=dev, items=items,
                    latency_ms=f"{latency * 1e3:.3f}")
    r = dict(case=case, buffers=buffers, device_buffers=dev, items=items,
             seconds=f"{wall:.4f}", msps=f"{items / wall / 1e6:.1f}",
             cpu_ns_per_sample=f"{cpu / items * 1e9:.3f}",
             latency_ms="" if latency is None else f"{latency * 1e3:.3f}",
             largest_batch=max((g.largest_batch() for g in gpu_blocks), default=""),
             mb_to_device=f"{sum(g.bytes_to_device() for g in gpu_blocks) / 1e6:.1f}",
             mb_from_device=f"{sum(g.bytes_from_device() for g in gpu_blocks) / 1e6:.1f}",
             on_gpu=all(g.on_gpu() for g in gpu_blocks) if gpu_blocks else "")
    return r


class rows_out:
    """The CSV on standard output and, given a path, in that file as well (each row
    flushed, so a run cut short still leaves its rows)."""

    def __init__(self, path):
        self.files = [sys.stdout] + ([open(path, "w", newline="")] if path else [])
        self.writers = [csv.DictWriter(f, FIELDS) for f in self.files]
        for w in self.writers:
            w.writeheader()

    def writerow(self, r):
        for f, w in zip(self.files, self.writers):
            w.writerow(r)
            f.flush()

    def close(self):
        for f in self.files[1:]:
            f.close()


def run_shape(n_items, middle, buffer_items):
    """null_source -> head -> middle blocks -> null_sink."""
    tb = gr.top_block()
    src = blocks.null_source(CSIZE)
    head = blocks.head(CSIZE, n_items)
    sink = blocks.null_sink(CSIZE)
    size_buffers([src, head] + middle, buffer_items)
    tb.connect(src, head, *middle, sink)
    return timed(tb)


class batch_source(gr.sync_block):
    """Emits one batch at a time, the next when the sink has received the last one."""

    def __init__(self, batch, batches):
        gr.sync_block.__init__(self, "batch_source", None, [np.complex64])
        self.data = (np.random.default_rng(2).uniform(-1, 1, batch)).astype(np.complex64)
        self.batch, self.left, self.sent = batch, batches, 0
        self.go = threading.Event()
        self.go.set()
        self.started = []

    def work(self, input_items, output_items):
        if self.left == 0:
            return -1
        if not self.go.wait(0.01):
            return 0
        out = output_items[0]
        n = min(len(out), self.batch - self.sent)
        if self.sent == 0:
            self.started.append(time.perf_counter())
        out[:n] = self.data[self.sent:self.sent + n]
        self.sent += n
        if self.sent == self.batch:
            self.sent, self.left = 0, self.left - 1
            self.go.clear()
        return n


class batch_sink(gr.sync_block):
    def __init__(self, src, batch):
        gr.sync_block.__init__(self, "batch_sink", [np.complex64], None)
        self.src, self.batch, self.got = src, batch, 0
        self.arrived = []

    def work(self, input_items, output_items):
        self.got += len(input_items[0])
        while self.got >= self.batch:
            self.got -= self.batch
            self.arrived.append(time.perf_counter())
            self.src.go.set()
        return len(input_items[0])


def latency(chain_of, batch, batches=12):
    """Median time from a batch's first sample leaving the source to its last output
    reaching the sink, one batch in flight at a time."""
    tb = gr.top_block()
    src = gpufilter.feed_whole_batches(batch_source(batch, batches), batch)
    sink = batch_sink(src, batch)
    chain = chain_of()
    tb.connect(src, *chain, sink)
    tb.run()
    lat = [b - a for a, b in zip(src.started, sink.arrived)][2:]  # warm-up out
    return float(np.median(lat)), chain


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--items", type=int, default=200_000_000)
    p.add_argument("--taps", type=int, default=256)
    p.add_argument("--batch", type=int, default=gpufilter.default_batch_size)
    p.add_argument("--repeat", type=int, default=3, help="runs per row (median)")
    p.add_argument("--csv", help="also write the CSV into this file")
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    a = p.parse_args(argv)
    if a.repeat < 1:
        p.error("--repeat: must be >= 1")
    if a.quick:
        a.items, a.batch, a.repeat = 400_000, 16384, 1
    taps = taps_of(a.taps)
    big = 1 << 20
    out = rows_out(a.csv)

    def gpu(n=1):
        return [gpufilter.fir_filter_ccf(1, taps, batch_size=a.batch) for _ in range(n)]

    def median_run(middle_of, items):
        """(wall, cpu, blocks) of the run with the median time of a.repeat runs."""
        runs = []
        for _ in range(a.repeat):
            middle = middle_of()
            runs.append(run_shape(a.items, middle, items) + (middle,))
        return sorted(runs, key=lambda r: r[0])[len(runs) // 2]

    # Each row sets the module's switch; put back what the caller had (on by default).
    previous = gpufilter.get_device_buffers()
    try:
        wall, cpu, _ = median_run(lambda: [], big)
        out.writerow(row("plumbing", "1M", "", a.items, wall, cpu, []))
        for buffers, items in (("default", 0), ("1M", big)):
            wall, cpu, _ = median_run(lambda: [blocks.copy(CSIZE)], items)
            out.writerow(row("copy", buffers, "", a.items, wall, cpu, []))
            for dev in (True, False):
                gpufilter.set_device_buffers(dev)
                wall, cpu, g = median_run(gpu, items)
                out.writerow(row("one_fir", buffers, dev, a.items, wall, cpu, g))
        for dev in (True, False):
            gpufilter.set_device_buffers(dev)
            wall, cpu, g = median_run(lambda: gpu(3), big)
            out.writerow(row("three_fir", "1M", dev, a.items, wall, cpu, g))
            lat, _ = latency(lambda: gpu(3), a.batch)
            gpufilter.set_device_buffers(dev)
            lat1, _ = latency(lambda: gpu(1), a.batch)
            out.writerow(row("three_fir_latency", "default", dev, a.batch, None, None,
                             [], lat))
            out.writerow(row("one_fir_latency", "default", dev, a.batch, None, None,
                             [], lat1))
    finally:
        gpufilter.set_device_buffers(previous)
        out.close()


if __name__ == "__main__":
    main()
