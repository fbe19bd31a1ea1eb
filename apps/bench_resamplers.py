#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Flowgraph throughput of the resampling filters: gr-gpufilter's block beside
gr-filter's and blocks.copy of the same input, in one run.

Each case is timed as bench_fir's flowgraph rows (apps/bench/flowgraph_timer.cc):
vector_source (a random pattern, repeated) -> head(N) -> X -> null_sink, the wall
time of tb.run(), start-up included; the best of --repeat runs counts. Rates are MS/s
of input. Cases: rational_resampler_ccf 3/2, 147/160 and 1/10 with gr-filter's
designed taps, interp_fir_filter_ccf x4 with 64 and 256 taps, and the Low Pass Filter
that GRC designs (firdes.low_pass, Hamming, 32 MS/s, cutoff 1.5 MHz, transition
500 kHz: 155 taps) at decimation 1 and 10. Where CuPy can be imported and sees a GPU,
cupyx.scipy.signal.upfirdn with the same taps on device-resident data too (CUDA
events, median of several calls after warm-up, as apps/bench_cupy.py). Without a GPU
gr-gpufilter's blocks run their CPU fallback, and the table says so.

    bench_resamplers.py [--items 5e7] [--repeat 3] [--csv FILE]
"""

import csv
import sys
import time

import numpy as np

try:
    from gnuradio import blocks, filter, gr
    from gnuradio.fft import window
    from gnuradio import gpufilter
    from gnuradio.gpufilter import app_args
except ImportError as e:
    sys.exit(f"bench_resamplers: error: cannot import gnuradio.gpufilter ({e})")

CSIZE = gr.sizeof_gr_complex
PATTERN = 1 << 19  # random samples the source repeats (4 MiB of complex)
FIELDS = ["case", "items", "gpufilter_msps", "grfilter_msps", "copy_msps", "cupy_msps",
          "speedup_vs_grfilter", "ratio_vs_copy", "on_gpu"]


def grc_low_pass():
    """The taps of GRC's Low Pass Filter block with realistic settings."""
    return filter.firdes.low_pass(1.0, 32e6, 1.5e6, 500e3, window.WIN_HAMMING, 6.76)


def cases():
    """(name, ours(), theirs(), (up, down, taps) for upfirdn)."""
    out = []
    for up, down in ((3, 2), (147, 160), (1, 10)):
        taps = filter.rational_resampler_ccf(up, down).taps()
        out.append((f"rational_resampler_ccf {up}/{down}",
                    lambda u=up, d=down: gpufilter.rational_resampler_ccf(u, d),
                    lambda u=up, d=down: filter.rational_resampler_ccf(u, d),
                    (up, down, taps)))
    rng = np.random.default_rng(1)
    for ntaps in (64, 256):
        taps = (rng.uniform(-1, 1, ntaps) / ntaps).astype(np.float32).tolist()
        out.append((f"interp_fir_filter_ccf x4, {ntaps} taps",
                    lambda t=taps: gpufilter.interp_fir_filter_ccf(4, t),
                    lambda t=taps: filter.interp_fir_filter_ccf(4, t), (4, 1, taps)))
    taps = grc_low_pass()
    for decim in (1, 10):
        out.append((f"GRC low-pass fir_filter_ccf D={decim}, {len(taps)} taps",
                    lambda d=decim: gpufilter.fir_filter_ccf(d, taps),
                    lambda d=decim: filter.fir_filter_ccf(d, taps), (1, decim, taps)))
    return out


def flowgraph_msps(make, items, pattern):
    """MS/s of input through vector_source -> head -> make() -> null_sink (the block
    made is returned too: it says whether it ran on a GPU)."""
    tb = gr.top_block()
    src = blocks.vector_source_c(pattern, True)
    head = blocks.head(CSIZE, items)
    blk = make()
    if hasattr(blk, "batch_size"):  # whole batches into a GPU block, as offline use
        gpufilter.feed_whole_batches(head)
    tb.connect(src, head, blk, blocks.null_sink(CSIZE))
    start = time.perf_counter()
    tb.run()
    return items / (time.perf_counter() - start) / 1e6, blk


def best_msps(make, items, pattern, repeat):
    runs = [flowgraph_msps(make, items, pattern) for _ in range(repeat)]
    return max(r[0] for r in runs), runs[-1][1]


def cupy_timer():
    """A function (up, down, taps, items) -> MS/s of cupyx' upfirdn on device data,
    or None with the reason printed."""
    try:
        import cupy as cp
        from cupyx.scipy import signal
        cp.cuda.Device(0).compute_capability  # raises without a usable GPU
    except Exception as e:  # ImportError, or a CUDA library CuPy cannot load
        print(f"(no CuPy column: {type(e).__name__}: {e})", flush=True)
        return None

    def run(up, down, taps, items):
        n = min(items, 1 << 24)
        x = (cp.random.uniform(-1, 1, n) + 1j * cp.random.uniform(-1, 1, n)).astype(
            cp.complex64)
        h = cp.asarray(taps, dtype=cp.float32)
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        for _ in range(2):  # warm-up: kernel compilation, memory pool
            signal.upfirdn(h, x, up, down)
        ms = []
        for _ in range(5):
            start.record()
            signal.upfirdn(h, x, up, down)
            stop.record()
            stop.synchronize()
            ms.append(cp.cuda.get_elapsed_time(start, stop))
        cp.get_default_memory_pool().free_all_blocks()
        return n / (sorted(ms)[len(ms) // 2] / 1e3) / 1e6

    return run


def markdown(rows):
    lines = ["| case | gpufilter MS/s | gr-filter MS/s | copy MS/s | CuPy MS/s | "
             "vs gr-filter | vs copy | GPU |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['case']} | {r['gpufilter_msps']} | {r['grfilter_msps']} | "
                     f"{r['copy_msps']} | {r['cupy_msps'] or '-'} | "
                     f"{r['speedup_vs_grfilter']}x | {r['ratio_vs_copy']} | "
                     f"{'yes' if r['on_gpu'] else 'no (CPU fallback)'} |")
    return "\n".join(lines)


def main(argv=None):
    p = app_args.parser(description=__doc__.split("\n")[0])
    p.add_argument("--items", type=app_args.real(1, 1e12), default=5e7,
                   help="input samples per flowgraph run (default 5e7)")
    p.add_argument("--repeat", type=app_args.integer(1, 100), default=3,
                   help="runs of each flowgraph; the best counts (default 3)")
    p.add_argument("--csv", metavar="FILE", help="write the rows to FILE")
    a = p.parse_args(argv)
    items = int(a.items)
    gpus = gpufilter.cuda_device_count()
    print(f"bench_resamplers: {items} items a run, best of {a.repeat}; " +
          (f"GPU: {gpufilter.cuda_device_name(0)}" if gpus else
           "no usable GPU: gpufilter's blocks run their CPU fallback"), flush=True)
    rng = np.random.default_rng(7)
    pattern = (rng.uniform(-1, 1, PATTERN) + 1j * rng.uniform(-1, 1, PATTERN)).astype(
        np.complex64).tolist()
    copy, _ = best_msps(lambda: blocks.copy(CSIZE), items, pattern, a.repeat)
    print(f"blocks.copy: {copy:.1f} MS/s", flush=True)
    cupy = cupy_timer()
    rows = []
    for name, ours, theirs, (up, down, taps) in cases():
        mine, blk = best_msps(ours, items, pattern, a.repeat)
        ref, _ = best_msps(theirs, items, pattern, a.repeat)
        cp_msps = cupy(up, down, taps, items) if cupy else None
        rows.append(dict(case=name, items=items, gpufilter_msps=f"{mine:.1f}",
                         grfilter_msps=f"{ref:.1f}", copy_msps=f"{copy:.1f}",
                         cupy_msps=f"{cp_msps:.1f}" if cp_msps else "",
                         speedup_vs_grfilter=f"{mine / ref:.2f}",
                         ratio_vs_copy=f"{mine / copy:.2f}", on_gpu=int(blk.on_gpu())))
        print(f"{name:44s} gpufilter {mine:9.1f}  gr-filter {ref:8.1f}  MS/s  "
              f"{mine / ref:6.2f}x  " + ("GPU" if blk.on_gpu() else "CPU fallback") +
              (f"  CuPy {cp_msps:.1f}" if cp_msps else ""), flush=True)
    print("\n" + markdown(rows), flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
