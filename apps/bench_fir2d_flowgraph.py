#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Flowgraph throughput of the 2D FIR on vector streams: gpufilter.fir_filter_2d_fff
beside blocks.copy of the same vectors, in one run.

Each case: vector_source_f (a random pattern of rows, repeated) -> head(rows) -> X ->
null_sink, the wall time of tb.run(), start-up included; the best of --repeat runs
counts. Rates are MS/s of input samples (rows x vlen). Cases: vlen 1024 and 4096,
square kernels 3, 5, 9, 15 and 25, random (full rank) and Gaussian (rank 1), with the
automatic method. Without a GPU the block runs its CPU fallback, and the table says so.

    bench_fir2d_flowgraph.py [--samples 2e8] [--repeat 2] [--vlens 1024,4096]
                             [--kernels 3,5,9,15,25] [--csv FILE]
"""

import csv
import sys
import time

import numpy as np

try:
    from gnuradio import blocks, gr
    from gnuradio import gpufilter
    from gnuradio.gpufilter import app_args
except ImportError as e:
    sys.exit(f"bench_fir2d_flowgraph: error: cannot import gnuradio.gpufilter ({e})")

FIELDS = ["vlen", "kernel", "kind", "method", "samples", "gpufilter_msps", "copy_msps",
          "ratio_vs_copy", "on_gpu"]
PATTERN_ROWS = 64


def kernel(size, kind, rng):
    if kind == "gaussian":
        g = np.exp(-0.5 * ((np.arange(size) - (size - 1) / 2) / max(size / 6, 0.5)) ** 2)
        return np.outer(g, g) / np.sum(g) ** 2
    return rng.uniform(-1, 1, (size, size)) / size


def flowgraph_msps(make, vlen, rows, pattern):
    tb = gr.top_block()
    size = gr.sizeof_float * vlen
    src = blocks.vector_source_f(pattern, True, vlen)
    head = blocks.head(size, rows)
    blk = make()
    if hasattr(blk, "batch_size"):  # whole batches, as offline use sets them up
        gpufilter.feed_whole_batches(head, max(1, blk.batch_size() // vlen))
    tb.connect(src, head, blk, blocks.null_sink(size))
    start = time.perf_counter()
    tb.run()
    return rows * vlen / (time.perf_counter() - start) / 1e6, blk


def best_msps(make, vlen, rows, pattern, repeat):
    runs = [flowgraph_msps(make, vlen, rows, pattern) for _ in range(repeat)]
    return max(r[0] for r in runs), runs[-1][1]


def int_list(text):
    return [int(v) for v in text.split(",") if v]


def main(argv=None):
    p = app_args.parser(description=__doc__.split("\n")[0])
    p.add_argument("--samples", type=app_args.real(1, 1e12), default=2e8,
                   help="input samples per flowgraph run (default 2e8)")
    p.add_argument("--repeat", type=app_args.integer(1, 100), default=2,
                   help="runs of each flowgraph; the best counts (default 2)")
    p.add_argument("--vlens", type=int_list, default=[1024, 4096],
                   help="vector lengths (default 1024,4096)")
    p.add_argument("--kernels", type=int_list, default=[3, 5, 9, 15, 25],
                   help="square kernel sizes (default 3,5,9,15,25)")
    p.add_argument("--csv", metavar="FILE", help="write the rows to FILE")
    a = p.parse_args(argv)
    gpus = gpufilter.cuda_device_count()
    print(f"bench_fir2d_flowgraph: {int(a.samples)} samples a run, best of {a.repeat}; " +
          (f"GPU: {gpufilter.cuda_device_name(0)}" if gpus else
           "no usable GPU: gpufilter's blocks run their CPU fallback"), flush=True)
    rng = np.random.default_rng(7)
    rows_out = []
    for vlen in a.vlens:
        rows = max(1, int(a.samples) // vlen)
        pattern = rng.uniform(-1, 1, PATTERN_ROWS * vlen).astype(np.float32).tolist()
        copy, _ = best_msps(lambda: blocks.copy(gr.sizeof_float * vlen), vlen, rows,
                            pattern, a.repeat)
        print(f"vlen {vlen}: blocks.copy {copy:.1f} MS/s", flush=True)
        for size in a.kernels:
            for kind in ("random", "gaussian"):
                k = kernel(size, kind, rng)
                mine, blk = best_msps(lambda: gpufilter.fir_filter_2d_fff(vlen, k), vlen,
                                      rows, pattern, a.repeat)
                row = {"vlen": vlen, "kernel": f"{size}x{size}", "kind": kind,
                       "method": blk.method(), "samples": rows * vlen,
                       "gpufilter_msps": round(mine, 1), "copy_msps": round(copy, 1),
                       "ratio_vs_copy": round(mine / copy, 2), "on_gpu": blk.on_gpu()}
                rows_out.append(row)
                print(f"  {size}x{size} {kind:8s} {row['method']:9s} {mine:8.1f} MS/s  "
                      f"{row['ratio_vs_copy']:.2f}x copy", flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(rows_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
