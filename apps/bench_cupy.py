#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CuPy's filtering on the sizes of bench_fir's engine rows, for comparison.

For each type (ccf, fff, ccc), tap count and decimation D it times, on device-resident
random data and with CUDA events after warm-up (median of several calls):
  cupy upfirdn:     cupyx.scipy.signal.upfirdn(h, x, up=1, down=D)
  cupy oaconvolve:  cupyx.scipy.signal.oaconvolve(x, h)[::D]  (computes every output)
Rows go into bench_fir's CSV schema (family "engine"), so plot_benchmarks.py draws them
next to gr-gpufilter's engine. Exits 0 with a message when CuPy cannot be imported.
"""

import argparse
import csv
import datetime
import sys

COLUMNS = ("family,type,taps,decimation,implementation,on_gpu,samples,seconds,msps,"
           "speedup_vs_grfilter,ratio_vs_copy,bytes_per_sample,flop_per_sample,"
           "ceiling_msps,ceiling_kind,fraction_of_ceiling,note").split(",")
FLOP_PER_TAP = {"fff": 2, "ccf": 4, "ccc": 8}  # direct form, 2 FLOP per multiply-add


def ints(lo, hi):
    """argparse type: comma-separated integers in [lo, hi]."""
    def convert(s):
        try:
            v = [int(x) for x in s.split(",") if x.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a list of integers: '{s}'") from None
        if not v or min(v) < lo or max(v) > hi:
            raise argparse.ArgumentTypeError(f"'{s}': each must be in [{lo}, {hi}]")
        return v
    return convert


def one_int(lo, hi):
    """argparse type: an integer in [lo, hi]."""
    def convert(s):
        try:
            v = int(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: '{s}'") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"'{s}': must be in [{lo}, {hi}]")
        return v
    return convert


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--types", default="ccf,fff,ccc", help="sample types (default: all)")
    p.add_argument("--taps", type=ints(1, 1 << 16),
                   help="tap counts (default 16,64,256,1024,4096,16384)")
    p.add_argument("--decimations", type=ints(1, 1 << 16), default=[1, 8],
                   help="decimations (default 1,8)")
    p.add_argument("--samples", type=one_int(1, 1 << 28), default=1 << 24,
                   help="input samples per call (default 16777216)")
    p.add_argument("--reps", type=one_int(1, 1000), default=7,
                   help="timed calls per row; the median is kept (default 7)")
    p.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test)")
    p.add_argument("--csv", help="write the rows here")
    args = p.parse_args()
    args.types = [t for t in args.types.split(",") if t]
    for t in args.types:
        if t not in FLOP_PER_TAP:
            p.error(f"--types: unknown '{t}'")
    if args.quick:  # as bench_fir --quick: tiny sizes unless given explicitly
        args.taps, args.samples, args.reps = args.taps or [16, 256], 1 << 16, 3
    args.taps = args.taps or [16, 64, 256, 1024, 4096, 16384]
    return args


def device_info(cp):
    """Name, memory bandwidth (B/s) and FP32 peak (FLOP/s), as bench_fir computes them."""
    rt = cp.cuda.runtime
    dev = cp.cuda.Device().id
    name = rt.getDeviceProperties(dev)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    # cudaDevAttr: ClockRate 13, MultiProcessorCount 16, MemoryClockRate 36,
    # GlobalMemoryBusWidth 37, ComputeCapabilityMajor 75, Minor 76 (kHz, bits).
    a = lambda n: rt.deviceGetAttribute(n, dev)
    mem_bw = 2.0 * a(36) * 1e3 * a(37) / 8
    lanes = 64 if (a(75) < 8 or (a(75), a(76)) == (8, 0)) else 128
    peak = a(16) * lanes * 2.0 * a(13) * 1e3
    return f"{name} (sm_{a(75)}{a(76)})", mem_bw, peak


def time_calls(cp, fn, reps):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(2):  # warm-up: plans, kernel compilation, memory pool
        fn()
    ms = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        ms.append(cp.cuda.get_elapsed_time(start, stop))
    return sorted(ms)[len(ms) // 2] / 1e3


def main():
    args = parse_args()
    try:
        import cupy as cp
        from cupyx.scipy import signal
    except Exception as e:  # ImportError, or a CUDA library CuPy cannot load
        print(f"bench_cupy: CuPy cannot be imported ({e}); no CuPy rows.")
        return 0
    try:
        gpu, mem_bw, peak = device_info(cp)
    except Exception as e:
        print(f"bench_cupy: no usable CUDA device ({e}); no CuPy rows.")
        return 0
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    header = ["# bench_cupy: CuPy filtering, input samples per second",
              f"# gpu: {gpu} (memory {mem_bw / 1e9:.0f} GB/s, fp32 {peak / 1e12:.1f} TFLOP/s)",
              f"# date: {date}", "# command: " + " ".join(sys.argv)]
    print("\n".join(header))
    cp.random.seed(1)
    u = lambda n: cp.random.uniform(-1, 1, n).astype(cp.float32)
    impls = {
        "cupy upfirdn": lambda h, x, d: signal.upfirdn(h, x, up=1, down=d),
        "cupy oaconvolve": lambda h, x, d: signal.oaconvolve(x, h)[::d].copy(),
    }
    for impl in list(impls):
        if not hasattr(signal, impl.split()[1]):
            print(f"bench_cupy: this CuPy ({cp.__version__}) has no {impl.split()[1]}; "
                  "skipping it")
            del impls[impl]
    rows = []
    for t in args.types:
        cplx_in, cplx_taps = t[0] == "c", t == "ccc"
        x = u(args.samples)
        if cplx_in:
            x = x + 1j * u(args.samples)
        for ntaps in args.taps:
            h = u(ntaps)
            if cplx_taps:
                h = h + 1j * u(ntaps)
            for d in args.decimations:
                in_b, out_b = (8 if cplx_in else 4), (8 if t[1] == "c" else 4) / d
                flop = FLOP_PER_TAP[t] * ntaps / d
                ceil = min(mem_bw / (in_b + out_b), peak / flop) / 1e6
                kind = ("roofline (memory)" if mem_bw / (in_b + out_b) < peak / flop
                        else "roofline (fp32)")
                for impl, run in impls.items():
                    try:
                        sec = time_calls(cp, lambda: run(h, x, d), args.reps)
                        note = f"{args.reps} calls of {args.samples}, median"
                    except Exception as e:  # e.g. out of device memory
                        sec, note = 0.0, f"error: {e}"
                    msps = args.samples / sec / 1e6 if sec else 0.0
                    rows.append(dict(
                        family="engine", type=t, taps=ntaps, decimation=d,
                        implementation=impl, on_gpu=1, samples=args.samples,
                        seconds=f"{sec:.6g}", msps=f"{msps:.6g}", speedup_vs_grfilter=0,
                        ratio_vs_copy=0, bytes_per_sample=f"{in_b + out_b:.6g}",
                        flop_per_sample=f"{flop:.6g}", ceiling_msps=f"{ceil:.6g}",
                        ceiling_kind=kind,
                        fraction_of_ceiling=f"{msps / ceil:.6g}" if ceil else 0,
                        note=note))
                    print(f"engine {t} taps={ntaps:5d} D={d} {impl:16s} "
                          f"{msps / 1e3:8.3f} GS/s  of roofline {100 * msps / ceil:5.1f}%"
                          f"  {note}", flush=True)
                    cp.get_default_memory_pool().free_all_blocks()
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            f.write("\n".join(header) + "\n")
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    return 1 if any(r["note"].startswith("error") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
