#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a flowgraph's time goes, block by block: three chained GPU filters
(bench_device_buffers.py's chain, 1M-item buffers) and the FM receiver's classic
chain on the receiver benchmark's band (fm_bench.py; its file source and head keep
GNU Radio's default buffers, as in a plain flowgraph), each with device buffers on
and off. Per block: the
time inside work() (GNU Radio's performance counters), its share of the run's wall
time, calls and items per call; per kind of thread: host CPU seconds (user + system,
from /proc; GNU Radio names each block's thread after the block, cut to 15 characters).
A block whose work() time is close to the wall time is the one the others wait for.

    bench_block_times.py [--items 2e8] [--taps 256]
"""

import argparse
import collections
import os
import sys
import tempfile
import threading
import time

# Before GNU Radio reads its preferences: the counters exist only when asked for.
os.environ.setdefault("GR_CONF_PERFCOUNTERS_ON", "True")

import numpy as np  # noqa: E402
from gnuradio import blocks, gpufilter, gr  # noqa: E402
from gnuradio.gpufilter import fm_band  # noqa: E402
from gnuradio.gpufilter.fm_receiver import fm_receiver  # noqa: E402

CSIZE = gr.sizeof_gr_complex


def thread_cpu():
    """{tid: (name, cpu seconds)} of this process's threads now."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # ended meanwhile
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        out[tid] = (name, (int(fields[11]) + int(fields[12])) / tick)
    return out


def run_watched(tb):
    """Runs tb; returns wall seconds and {thread name: cpu seconds}, each thread's
    last reading before it ended (sampled every 10 ms)."""
    before = thread_cpu()  # threads alive before the run: count only their increase
    seen = {}
    done = threading.Event()

    def watch():
        while not done.is_set():
            seen.update(thread_cpu())
            time.sleep(0.01)

    w = threading.Thread(target=watch, daemon=True)
    start = time.perf_counter()
    w.start()
    tb.run()
    wall = time.perf_counter() - start
    done.set()
    w.join()
    by_name = collections.Counter()
    for tid, (name, cpu) in seen.items():
        by_name[name] += cpu - before.get(tid, (name, 0.0))[1]
    return wall, by_name


def report(title, wall, items, named_blocks, cpu_by_thread):
    print(f"\n{title}: {wall:.3f} s, {items / wall / 1e6:.1f} MS/s of input", flush=True)
    print(f"  {'block':34s} {'work() s':>9s} {'of wall':>8s} {'calls':>8s} "
          f"{'items/call':>11s}")
    for name, b in named_blocks:
        if not hasattr(b, "pc_work_time_total"):
            continue  # a hierarchical block (the de-emphasis): no counters of its own
        per_call = b.pc_nproduced_avg()
        calls = b.nitems_written(0) / per_call if per_call else 0
        work_s = b.pc_work_time_total() / 1e9  # nanoseconds (GNU Radio's clock)
        print(f"  {name:34s} {work_s:9.3f} {work_s / wall:7.0%} {calls:8.0f} "
              f"{b.pc_nproduced_avg():11.0f}")
    total = sum(cpu_by_thread.values())
    print(f"  host CPU: {total:.2f} s in all ({total / items * 1e9:.2f} ns/sample); "
          "by thread name: " + ", ".join(f"{n} {c:.2f}" for n, c in
                                         cpu_by_thread.most_common(8)))


def three_filters(items, taps, dev):
    gpufilter.set_device_buffers(dev)
    tb = gr.top_block()
    src, head = blocks.null_source(CSIZE), blocks.head(CSIZE, items)
    firs = [gpufilter.fir_filter_ccf(1, taps) for _ in range(3)]
    sink = blocks.null_sink(CSIZE)
    for b in [src, head] + firs:
        b.set_min_output_buffer(1 << 20)
    tb.connect(src, head, *firs, sink)
    wall, cpu = run_watched(tb)
    named = [("head", head)] + [(f"fir_filter_ccf #{i + 1}", f) for i, f in enumerate(firs)]
    report(f"three fir_filter_ccf, device buffers {'on' if dev else 'off'}", wall, items,
           named, cpu)


def fm_classic(path, rate, items, taps, dev):
    tb = gr.top_block()
    src = blocks.file_source(CSIZE, path, True)
    head = gpufilter.feed_whole_batches(blocks.head(CSIZE, items))
    rx = fm_receiver(rate, 300e3, "classic", taps, "gpu", device_buffers=dev)
    tb.connect(src, head, rx, blocks.null_sink(gr.sizeof_float))
    wall, cpu = run_watched(tb)
    named = [("file_source", src), ("head", head)] + \
        [(s.name(), s) for s in rx.stages]
    report(f"FM classic chain, {taps} taps, device buffers {'on' if dev else 'off'}",
           wall, items, named, cpu)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--items", type=float, default=2e8)
    p.add_argument("--taps", type=int, default=256)
    a = p.parse_args(argv)
    items = int(a.items)
    taps = (np.random.default_rng(1).uniform(-1, 1, a.taps) / a.taps).astype(
        np.float32).tolist()
    previous = gpufilter.get_device_buffers()
    try:
        for dev in (True, False):
            three_filters(items, taps, dev)
        rate = 2.4e6  # the receiver benchmark's band (fm_bench.py)
        band, _ = fm_band.band_samples(1.0, rate, seed=7)
        with tempfile.NamedTemporaryFile(suffix=".cf32") as f:
            band.tofile(f.name)
            for dev in (True, False):
                fm_classic(f.name, rate, items // 2, a.taps, dev)
    finally:
        gpufilter.set_device_buffers(previous)


if __name__ == "__main__":
    sys.exit(main())
