#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""
Filters the same signal through gr-filter's fir_filter_ccf and gr-gpufilter's, in a
GNU Radio flowgraph each, and prints their throughput side by side.

The signal is a tone in the pass band, a tone in the stop band and white noise,
repeated from a precomputed vector and cut to --samples by blocks.head. The taps are
low-pass taps from filter.firdes.low_pass. Throughput is input samples per second of
wall time of tb.run() (source, head and sink included, the same for both blocks).
Nothing here is live, so head hands the GPU block whole batches
(gpufilter.feed_whole_batches), as offline processing should.
The two outputs must agree: the demo exits with status 1 when they do not.

Without a usable GPU, gpufilter's block runs gr-filter's CPU kernel (with a warning),
so both rows show about the same speed.
"""

import argparse
import sys
import time

import numpy as np
from gnuradio import blocks, filter, gr

try:
    from gnuradio import gpufilter
    from gnuradio.gpufilter import app_args
except ImportError as e:
    sys.exit(
        "cannot import gnuradio.gpufilter ({}): install the module, or run from the "
        "build tree with PYTHONPATH=build/test_modules LD_LIBRARY_PATH=build/lib "
        "(scripts/quickstart.sh demo does that)".format(e))

# Largest |gpufilter - gr-filter| relative to the largest |gr-filter| output accepted
# as "the same": float32 sums in a different order, over up to thousands of taps.
TOLERANCE = 1e-4
SOURCE_LEN = 1 << 16  # samples in the repeated source vector
# Bounds of the arguments: gr-filter's CPU FIR takes minutes beyond these, and the
# vector sink keeps every output sample in memory.
MAX_SAMPLES = 1 << 30
MAX_TAPS = 65536
MAX_DECIMATION = 4096


def test_signal(n, rng):
    """Pass-band tone at 0.01 fs, stop-band tone at 0.35 fs, noise; complex64."""
    t = np.arange(n)
    x = (np.exp(2j * np.pi * 0.01 * t) + 0.5 * np.exp(2j * np.pi * 0.35 * t) +
         0.1 * (rng.standard_normal(n) + 1j * rng.standard_normal(n)))
    return x.astype(np.complex64)


def low_pass_taps(ntaps, decimation):
    """firdes.low_pass taps, cut off below the decimated Nyquist rate.

    firdes picks the length from the transition width (Hamming window: 53 dB,
    ntaps = 53 * fs / (22 * width), made odd); the width is chosen so that it picks
    ntaps, or ntaps + 1 for an even ntaps.
    """
    if ntaps == 1:  # firdes' one-point Hamming window is 0: its one tap would be NaN
        return [1.0]
    fs = 1.0
    cutoff = 0.4 * fs / 2 / decimation
    width = 53.0 * fs / (22.0 * (ntaps + 0.5))
    return filter.firdes.low_pass(1.0, fs, cutoff, width)  # Hamming window: the default


def run_once(make_block, samples, nsamples):
    """Builds source -> head -> block -> sink, runs it; returns (block, output, seconds)."""
    tb = gr.top_block()
    src = blocks.vector_source_c(samples, True)
    head = blocks.head(gr.sizeof_gr_complex, nsamples)
    blk = make_block()
    if hasattr(blk, "batch_size"):  # whole batches into the GPU block, as offline use
        gpufilter.feed_whole_batches(head)
    sink = blocks.vector_sink_c()
    tb.connect(src, head, blk, sink)
    start = time.perf_counter()
    tb.run()
    seconds = time.perf_counter() - start
    return blk, np.asarray(sink.data(), dtype=np.complex64), seconds


def backend_of(blk):
    if blk.on_gpu():
        return gpufilter.cuda_device_name(blk.device())
    return "CPU fallback"


def make_parser():
    p = app_args.parser(
        prog="gpufilter_fir_demo.py",
        description="gr-filter vs gr-gpufilter: fir_filter_ccf throughput and agreement",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--samples", type=app_args.integer(1, MAX_SAMPLES), default=4_000_000,
                   help="input samples per run (at most {})".format(MAX_SAMPLES))
    p.add_argument("--taps", type=app_args.integer(1, MAX_TAPS), nargs="+",
                   default=[63, 1023],
                   help="tap counts to try, at most {} (firdes designs odd lengths: an "
                   "even N becomes N+1)".format(MAX_TAPS))
    p.add_argument("--decimation", type=app_args.integer(1, MAX_DECIMATION), default=1,
                   help="decimation of both blocks (at most {})".format(MAX_DECIMATION))
    p.add_argument("--device", type=app_args.integer(gpufilter.device_cpu), metavar="N",
                   default=gpufilter.device_auto,
                   help="gpufilter device: CUDA index, {} auto, {} CPU".format(
                       gpufilter.device_auto, gpufilter.device_cpu))
    p.add_argument("--batch-size", type=app_args.integer(1, 1 << 24),
                   default=gpufilter.default_batch_size,
                   help="gpufilter input samples per GPU transfer (at most 16777216)")
    return p


def parse_args():
    p = make_parser()
    args = p.parse_args()
    if args.device >= gpufilter.cuda_device_count():
        p.error("argument --device: there is no CUDA device {} ({} found)".format(
            args.device, gpufilter.cuda_device_count()))
    return args


def main():
    args = parse_args()
    rng = np.random.default_rng(1)
    samples = test_signal(SOURCE_LEN, rng)

    ndev = gpufilter.cuda_device_count()
    print("GNU Radio {}, CUDA devices: {}{}".format(
        gr.version(), ndev,
        " ({})".format(gpufilter.cuda_device_name(0)) if ndev else ""))
    print("{} complex samples per run, decimation {}\n".format(
        args.samples, args.decimation))

    rows = []
    ok = True
    for ntaps in args.taps:
        taps = low_pass_taps(ntaps, args.decimation)

        _, ref, ref_s = run_once(
            lambda: filter.fir_filter_ccf(args.decimation, taps), samples, args.samples)
        blk, out, gpu_s = run_once(
            lambda: gpufilter.fir_filter_ccf(args.decimation, taps,
                                             device=args.device,
                                             batch_size=args.batch_size),
            samples, args.samples)

        if len(out) != len(ref):
            err_text = "length {} != {}".format(len(out), len(ref))
            ok = False
        else:
            peak = float(np.max(np.abs(ref))) if len(ref) else 0.0
            err = float(np.max(np.abs(out - ref))) / peak if peak > 0 else 0.0
            err_text = "{:.1e}".format(err)
            ok = ok and err <= TOLERANCE

        ref_rate = args.samples / ref_s / 1e6
        gpu_rate = args.samples / gpu_s / 1e6
        rows.append(("filter.fir_filter_ccf", len(taps), args.decimation,
                     "CPU (gr-filter)", ref_rate, 1.0, "reference"))
        rows.append(("gpufilter.fir_filter_ccf", len(taps), args.decimation,
                     backend_of(blk), gpu_rate, gpu_rate / ref_rate, err_text))

    header = ("block", "taps", "decim", "backend", "MS/s", "speed-up", "max rel. error")
    widths = [max(len(header[0]), max(len(r[0]) for r in rows)), 5, 5,
              max(len(header[3]), max(len(r[3]) for r in rows)), 8, 8, 14]
    line = "  ".join("{:<%d}" % w if i in (0, 3, 6) else "{:>%d}" % w
                     for i, w in enumerate(widths))
    print(line.format(*header).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line.format(r[0], r[1], r[2], r[3], "{:.2f}".format(r[4]),
                          "{:.2f}x".format(r[5]), r[6]).rstrip())
    print("\nMS/s: million input samples per second (wall time of tb.run()). The vector\n"
          "sink that keeps the output for the comparison caps the rate near 100-150 MS/s;\n"
          "bench_fir (docs/benchmarks.md) measures throughput with a null sink.")
    print("max rel. error: max |gpufilter - gr-filter| / max |gr-filter|, "
          "tolerance {:.0e}.".format(TOLERANCE))
    if not ok:
        print("FAILED: gpufilter's output differs from gr-filter's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, IndexError, ValueError) as e:  # e.g. GPUFILTER_REQUIRE_GPU=1, no GPU
        sys.exit("gpufilter_fir_demo.py: error: {}".format(e))
