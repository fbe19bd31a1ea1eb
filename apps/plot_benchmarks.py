#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Throughput-versus-taps plots (log-log) from bench_fir / bench_cupy CSV files.

Writes into --out:
  flowgraph_<type>_D<d>.png  one per (type, decimation): each implementation in a
                             flowgraph, blocks.copy and the bare source->head->sink as
                             horizontal lines, and the GPU block's PCIe ceiling
  engine.png                 one panel per (type, decimation): engines on device data
                             (gr-gpufilter's, and CuPy's when its CSV is given) and
                             the roofline
Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""

import argparse
import csv
import os
import sys
from collections import defaultdict


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            lines = [line for line in f if not line.startswith("#")]
        for r in csv.DictReader(lines):
            r["taps"], r["decimation"] = int(r["taps"]), int(r["decimation"])
            r["msps"], r["ceiling_msps"] = float(r["msps"]), float(r["ceiling_msps"])
            rows.append(r)
    return rows


def gpu_of(paths):
    """The GPU named in the files' headers; a real one rather than "none"."""
    names = []
    for path in paths:
        with open(path) as f:
            names += [line[len("# gpu:"):].strip() for line in f if line.startswith("# gpu:")]
    real = [n for n in names if not n.startswith("none")]
    return (real or names or ["unknown GPU"])[0]


def curves(rows):
    """implementation -> sorted [(taps, msps)] of the rows with a filter."""
    c = defaultdict(list)
    for r in rows:
        if r["taps"] > 0 and r["msps"] > 0:
            impl = r["implementation"]
            if impl.startswith("gpufilter") and r["on_gpu"] == "0":
                impl += " (CPU fallback)"  # a run without a GPU: say so on the plot
            c[impl].append((r["taps"], r["msps"]))
    return {k: sorted(v) for k, v in c.items()}


def draw(ax, rows, unit_scale, unit):
    for impl, pts in sorted(curves(rows).items()):
        ax.plot([p[0] for p in pts], [p[1] / unit_scale for p in pts], "o-", label=impl)
    # The ceilings: the GPU block's PCIe limit or the engine's roofline, per tap count.
    ceil = sorted({(r["taps"], r["ceiling_msps"]) for r in rows if r["ceiling_msps"] > 0})
    if ceil:
        kind = next(r["ceiling_kind"] for r in rows if r["ceiling_msps"] > 0)
        ax.plot([c[0] for c in ceil], [c[1] / unit_scale for c in ceil], "k--",
                label=kind.split()[0] + " ceiling")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("taps")
    ax.set_ylabel(f"input {unit}")
    ax.grid(True, which="both", alpha=0.3)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+", help="CSV files from bench_fir and bench_cupy.py")
    p.add_argument("--out", default=".", help="folder for the PNGs")
    args = p.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        sys.exit(f"plot_benchmarks: matplotlib is missing ({e}); on Debian: "
                 "sudo apt-get install python3-matplotlib")
    rows = read_rows(args.csv)
    gpu = gpu_of(args.csv)
    os.makedirs(args.out, exist_ok=True)
    written = []

    flow = [r for r in rows if r["family"] == "flowgraph"]
    for t, d in sorted({(r["type"], r["decimation"]) for r in flow if r["taps"] > 0}):
        sel = [r for r in flow if r["type"] == t and r["decimation"] == d]
        fig, ax = plt.subplots(figsize=(8, 5.5))
        draw(ax, sel, 1.0, "MS/s")
        for r in flow:  # copy and bare plumbing: independent of taps and D
            if r["type"] == t and r["taps"] == 0 and r["msps"] > 0:
                ax.axhline(r["msps"], ls=":", color="gray" if "none" in
                           r["implementation"] else "tab:olive",
                           label=r["implementation"])
        ax.set_title(f"flowgraph {t}, decimation {d}\n{gpu}", fontsize=10)
        ax.legend(fontsize=8)
        path = os.path.join(args.out, f"flowgraph_{t}_D{d}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    eng = [r for r in rows if r["family"] == "engine"]
    panels = sorted({(r["type"], r["decimation"]) for r in eng})
    if panels:
        types = sorted({t for t, _ in panels})
        decims = sorted({d for _, d in panels})
        fig, axes = plt.subplots(len(types), len(decims), squeeze=False,
                                 figsize=(6 * len(decims), 4 * len(types)))
        for i, t in enumerate(types):
            for j, d in enumerate(decims):
                sel = [r for r in eng if r["type"] == t and r["decimation"] == d]
                draw(axes[i][j], sel, 1e3, "GS/s")
                axes[i][j].set_title(f"engine {t}, decimation {d}", fontsize=10)
                axes[i][j].legend(fontsize=7)
        fig.suptitle(f"device-resident data, {gpu}", fontsize=10)
        fig.tight_layout()
        path = os.path.join(args.out, "engine.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    if not written:
        sys.exit("plot_benchmarks: no flowgraph or engine rows with taps in " +
                 ", ".join(args.csv))
    print("\n".join(written))


if __name__ == "__main__":
    main()
