#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Throughput rows for freq_xlating_fir_filter_ccf and hilbert_fc, in one run:
the GPU block, gr-filter's block, and blocks.copy in the filter's place (GNU Radio's
plumbing ceiling). Flowgraph: vector_source (repeat) -> head -> block -> null_sink.
A stop-gap until the benchmark harness (apps/, issue 3) takes these rows over."""

import argparse
import time

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr
from gnuradio.fft import window


def rate(make_block, data, n, source, itemsize_out):
    tb = gr.top_block()
    src = source(data.tolist(), True)
    head = blocks.head(data.itemsize, n)
    blk = make_block()
    tb.connect(src, head, blk, blocks.null_sink(itemsize_out))
    start = time.perf_counter()
    tb.run()
    return n / (time.perf_counter() - start) / 1e6, blk


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--samples", type=int, default=20_000_000)
    p.add_argument("--cpu-samples", type=int, default=4_000_000,
                   help="samples for gr-filter's (slower) blocks")
    args = p.parse_args()
    rng = np.random.default_rng(1)
    cdata = (rng.uniform(-1, 1, 1 << 16) + 1j * rng.uniform(-1, 1, 1 << 16)).astype(np.complex64)
    fdata = rng.uniform(-1, 1, 1 << 16).astype(np.float32)
    fs, fc = 2.4e6, 412.5e3
    rows = []
    for ntaps, decim in ((63, 4), (255, 4), (1023, 8)):
        taps = filter.firdes.low_pass(1.0, fs, fs / (2.5 * decim), fs / (10 * decim))[:ntaps]
        label = f"freq_xlating_fir_filter_ccf taps={ntaps} D={decim}"
        c = rate(lambda: blocks.copy(8), cdata, args.samples, blocks.vector_source_c, 8)[0]
        g, blk = rate(lambda: gpufilter.freq_xlating_fir_filter_ccf(decim, taps, fc, fs),
                      cdata, args.samples, blocks.vector_source_c, 8)
        r = rate(lambda: filter.freq_xlating_fir_filter_ccf(decim, taps, fc, fs),
                 cdata, args.cpu_samples, blocks.vector_source_c, 8)[0]
        rows.append((label, g, r, c, blk.on_gpu()))
    for ntaps in (65, 257, 1025):
        label = f"hilbert_fc ntaps={ntaps}"
        c = rate(lambda: blocks.copy(4), fdata, args.samples, blocks.vector_source_f, 4)[0]
        g, blk = rate(lambda: gpufilter.hilbert_fc(ntaps, window.WIN_HAMMING, 6.76),
                      fdata, args.samples, blocks.vector_source_f, 8)
        r = rate(lambda: filter.hilbert_fc(ntaps, window.WIN_HAMMING, 6.76),
                 fdata, args.cpu_samples, blocks.vector_source_f, 8)[0]
        rows.append((label, g, r, c, blk.on_gpu()))
    print(f"{'case':44s} {'gpufilter MS/s':>14s} {'gr-filter MS/s':>14s} {'copy MS/s':>10s} "
          f"{'vs gr-filter':>12s} {'vs copy':>8s}  on GPU")
    for label, g, r, c, on_gpu in rows:
        print(f"{label:44s} {g:14.1f} {r:14.1f} {c:10.1f} {g / r:11.1f}x {g / c:7.2f}x  {on_gpu}")


if __name__ == "__main__":
    main()
