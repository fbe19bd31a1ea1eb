#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Goorts et al.'s figure from bench_fir2d.py's CSV files: time per image (ms, log)
against kernel size (log), one line per implementation, one panel per image size
(columns) and kernel kind (rows). Rows whose result failed its check are drawn with a
red X. Several CSVs (a run with gpufilter, another with CuPy) make one figure.
Needs matplotlib.

    plot_fir2d.py A.csv [B.csv ...] --out FILE.png
"""

import argparse
import csv
import math
import os
import sys


# ---- the plot -------------------------------------------------------------------

STYLES = {
    "gpufilter direct": dict(color="tab:blue", marker="o"),
    "gpufilter separable": dict(color="tab:green", marker="s"),
    "gpufilter fft": dict(color="tab:purple", marker="D"),
    "gpufilter auto": dict(color="black", marker="*", ms=9, lw=1.2, ls="--"),
    "cupy ndimage.convolve": dict(color="tab:orange", marker="v", ls=":"),
    "cupy ndimage.convolve1d x2": dict(color="tab:olive", marker="<", ls=":"),
    "cupy signal.convolve2d": dict(color="tab:brown", marker="^", ls=":"),
    "cupy signal.fftconvolve": dict(color="tab:pink", marker="P", ls=":"),
    "scipy signal.convolve2d (CPU)": dict(color="tab:red", marker="d", ls="-."),
}


def style(name):
    base = name.replace(" (host arrays)", "")
    s = dict(dict(marker="h", ls="-", lw=2, ms=6), **STYLES.get(base, {}))
    s.setdefault("lw", 2)
    if base != name:    # host arrays: the same colour, hollow and dashed
        s.update(ls="--", mfc="none", lw=1.2)
    return s


def read_csvs(paths):
    """(rows, GPU name) of the files; a case measured in several files counts once,
    from the last file."""
    rows, gpus = {}, []
    for path in paths:
        with open(path, newline="") as f:
            lines = f.readlines()
        gpus += [line[6:].strip() for line in lines if line.startswith("# gpu:")]
        for r in csv.DictReader(line for line in lines if not line.startswith("#")):
            rows[(r["image"], r["kernel"], r["kind"], r["implementation"])] = r
    real = [g for g in gpus if g not in ("none", "fake")]
    return list(rows.values()), (real or gpus or ["unknown"])[0]


def plot(path, rows, gpu):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"bench_fir2d: no plot: matplotlib is missing ({e})", file=sys.stderr)
        return False
    pixels = lambda s: math.prod(int(d) for d in s.split("x"))
    images = sorted({r["image"] for r in rows}, key=pixels)
    kinds = [k for k in ("random", "gaussian") if any(r["kind"] == k for r in rows)]
    fig, axes = plt.subplots(len(kinds), len(images), squeeze=False, sharex=True,
                             figsize=(5.2 * len(images), 4.2 * len(kinds) + 1.2))
    names = []
    for i, kind in enumerate(kinds):
        for j, image in enumerate(images):
            ax = axes[i][j]
            sel = [r for r in rows
                   if r["kind"] == kind and r["image"] == image and r["ms"]]
            for name in sorted({r["implementation"] for r in sel}):
                pts = sorted((int(r["kernel"]), float(r["ms"]), r["ok"] == "1")
                             for r in sel if r["implementation"] == name)
                ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name,
                        **style(name))
                bad = [p for p in pts if not p[2]]
                ax.plot([p[0] for p in bad], [p[1] for p in bad], "rX", ms=12)
                names += [name] if name not in names else []
            ax.set_xscale("log")
            ax.set_yscale("log")
            ticks = sorted({int(r["kernel"]) for r in rows})
            ax.set_xticks(ticks, [str(t) for t in ticks], fontsize=8)
            ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
            ax.yaxis.set_major_formatter(
                matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            ax.grid(True, which="both", alpha=0.3)
            ax.set_title(f"{image.replace('x', ' x ')} image, {kind} kernel", fontsize=10)
            ax.set_xlabel("kernel size (pixels per side)")
            ax.set_ylabel("time per image (ms)")
    handles = {h.get_label(): h for ax in axes.flat for h in ax.get_lines()
               if not h.get_label().startswith("_")}
    fig.legend([handles[n] for n in names], names, loc="lower center", ncol=4,
               fontsize=8, frameon=False)
    fig.suptitle(f"2D convolution, fp32, mode 'same' "
                 f"({gpu if gpu != 'none' else 'no GPU'}); "
                 "red X: result failed its check",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.04 + 0.02 * math.ceil(len(names) / 4), 1, 1))
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+", help="CSV files from bench_fir2d.py")
    p.add_argument("--out", required=True, metavar="FILE.png", help="the figure")
    args = p.parse_args(argv)
    rows, gpu = read_csvs(args.csv)
    if not rows:
        sys.exit("plot_fir2d: no rows in " + ", ".join(args.csv))
    if not plot(args.out, rows, gpu):
        return 1
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
