#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""NLMS benchmark: gpufilter.nlms_batch on the GPU against the CPU version on one core
and on all cores, in the same run, for 1, 16 and 1024 filters of 4096 taps over 10 s
of 16 kHz audio each.

GPU rows time nlms_batch from host arrays to host arrays (transfers included), best
of --reps. CPU rows run the same function with device_cpu on a subset of the filters
(--cpu-filters per core; filters are independent and cost the same, so the full case's
time is the subset's scaled by the filter count, and the table says which rows are
scaled). FLOP count: 4 per tap per sample (dot product and update, two FMAs), the
usual NLMS count; the GPU kernel also sums x.x afresh (one more FMA), not counted.
"""

import concurrent.futures
import csv
import os
import sys
import time

try:
    import numpy as np
    from gnuradio import gpufilter
    from gnuradio.gpufilter import app_args
except ImportError as e:
    sys.exit(f"bench_nlms: error: cannot import gnuradio.gpufilter ({e}): install "
             "gr-gpufilter, or run from the build tree with PYTHONPATH=build/test_modules "
             "LD_LIBRARY_PATH=build/lib")

CASES = ((1, 4096), (16, 4096), (1024, 4096))   # (filters, taps)
# FP32 peak (TFLOP/s, boost clock) of GPUs this is usually run on, by name.
PEAKS = (("H100 PCIe", 51.2), ("H100", 66.9), ("H200", 66.9), ("A100", 19.5),
         ("L40S", 91.6), ("L4", 30.3))


def make_parser():
    p = app_args.parser(prog="bench_nlms.py", description=__doc__.splitlines()[0])
    p.add_argument("--rate", type=app_args.real(1, 1e7, lo_open=True), default=16000.0,
                   help="sample rate, Hz (default 16000)")
    p.add_argument("--seconds", type=app_args.real(0, 3600, lo_open=True), default=10.0,
                   help="signal length per filter, s (default 10)")
    p.add_argument("--taps", type=app_args.integer(1, gpufilter.nlms_max_taps),
                   default=None, help="taps of every case (default 4096)")
    p.add_argument("--filters", type=app_args.integer_list(1, 65536), default=None,
                   help="filter counts, comma-separated (default 1,16,1024)")
    p.add_argument("--cpu-filters", type=app_args.integer(1, 1 << 20), default=2,
                   help="filters per core the CPU rows measure (default 2)")
    p.add_argument("--threads", type=app_args.integer(1, 4096),
                   default=os.cpu_count() or 1,
                   help="threads of the all-cores CPU rows (default: every core)")
    p.add_argument("--reps", type=app_args.integer(1, 100), default=2,
                   help="GPU repetitions, best is reported (default 2)")
    p.add_argument("--peak-tflops", type=app_args.real(0, 1e6, lo_open=True),
                   help="the GPU's FP32 peak, TFLOP/s (default: from its name)")
    p.add_argument("--device", type=app_args.integer(0, 1023), default=0,
                   help="CUDA device (default 0)")
    p.add_argument("--csv", help="also write the table to this CSV file")
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes, a smoke test of the harness")
    return p


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def signals(filters, samples, rng):
    x = rng.uniform(-1, 1, (filters, samples)).astype(np.float32)
    d = 0.5 * np.roll(x, 3, axis=1) + 0.01 * x
    return x, d.astype(np.float32)


def cpu_run(x, d, taps, threads):
    """nlms_batch on the CPU, filters split over threads (it releases the GIL)."""
    if threads == 1:
        return timed(lambda: gpufilter.nlms_batch(x, d, taps, 0.5,
                                                  device=gpufilter.device_cpu))
    parts = np.array_split(np.arange(x.shape[0]), threads)
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        def run_all():
            futures = [pool.submit(gpufilter.nlms_batch, x[p[0]:p[-1] + 1],
                                   d[p[0]:p[-1] + 1], taps, 0.5, gpufilter.nlms_default_eps,
                                   gpufilter.device_cpu) for p in parts if len(p)]
            for f in futures:
                f.result()
        return timed(run_all)


def main(argv=None):
    p = make_parser()
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    taps = args.taps or (64 if args.quick else 4096)
    samples = int(round(args.rate * (0.05 if args.quick else args.seconds)))
    counts = args.filters or ([1, 4] if args.quick else [f for f, _ in CASES])
    if samples < 1:
        p.error("--seconds: less than one sample")
    ngpu = gpufilter.cuda_device_count()
    if ngpu and args.device >= ngpu:
        p.error(f"--device: no CUDA device {args.device} ({ngpu} present)")
    name = gpufilter.cuda_device_name(args.device) if ngpu else None
    peak = args.peak_tflops
    if peak is None and name:
        peak = next((v for k, v in PEAKS if k in name), None)
    print(f"GPU: {name or 'none (GPU rows skipped)'}; FP32 peak "
          f"{f'{peak:g} TFLOP/s' if peak else 'unknown (--peak-tflops)'}; "
          f"CPU: {os.cpu_count()} cores, {args.threads} threads in the all-cores rows")
    rng = np.random.default_rng(1)
    # Warm-up: the CUDA context, the kernels' first load, the CPU fallback's warning.
    x, d = signals(2, 64, rng)
    for device in ([args.device] if ngpu else []) + [gpufilter.device_cpu]:
        gpufilter.nlms_batch(x, d, 8, 0.5, device=device)
    rows = []
    for filters in counts:
        x, d = signals(filters, samples, rng)
        flop = 4.0 * taps * samples * filters
        if ngpu:
            best = min(timed(lambda: gpufilter.nlms_batch(x, d, taps, 0.5,
                                                          device=args.device))
                       for _ in range(args.reps))
            rows.append(("gpu", filters, filters, best, best, flop))
        for threads, label in ((1, "cpu_1core"), (args.threads, "cpu_all_cores")):
            measured = min(filters, args.cpu_filters * threads)
            t = cpu_run(x[:measured], d[:measured], taps, min(threads, measured))
            rows.append((label, filters, measured, t, t * filters / measured, flop))
    header = ("backend", "filters", "taps", "samples", "measured_filters", "measured_s",
              "full_case_s", "Msamples_per_s", "GFLOP_per_s", "fp32_peak_fraction")
    table = []
    for backend, filters, measured, t, full, flop in rows:
        gflops = flop / full / 1e9
        frac = (gflops / (peak * 1e3)) if (backend == "gpu" and peak) else None
        table.append((backend, filters, taps, samples, measured, round(t, 4),
                      round(full, 4), round(filters * samples / full / 1e6, 3),
                      round(gflops, 2), "" if frac is None else round(frac, 4)))
    widths = [max(len(str(r[i])) for r in [header] + table) for i in range(len(header))]
    for r in [header] + table:
        print("  ".join(str(v).rjust(w) for v, w in zip(r, widths)))
    print("full_case_s: measured_s scaled by filters/measured_filters where they differ")
    if args.csv:
        try:
            with open(args.csv, "w", newline="") as f:
                csv.writer(f).writerows([header] + table)
        except OSError as e:
            p.error(f"--csv: cannot write {args.csv} ({e.strerror})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
