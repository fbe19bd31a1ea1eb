#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Throughput-versus-taps plots (log-log) from bench_fir / bench_cupy CSV files.

Writes into --out:
  flowgraph_<type>_D<d>.png  one per (type, decimation): each implementation in a
                             flowgraph, blocks.copy and the bare source->head->sink as
                             horizontal lines, and the GPU block's PCIe ceiling; below,
                             the same on a linear scale, zoomed on the rows near
                             blocks.copy (they lie within a few percent of each other)
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


# Each series its own colour, marker and line style, so that series that lie on top
# of each other stay visible: hollow markers drawn over filled ones, dashes over lines.
STYLES = {
    "gpufilter fir_filter": dict(color="tab:blue", marker="o", ls="-", lw=2.5, ms=7),
    "gpufilter fir_filter (staged)": dict(color="tab:orange", marker="s", ls="--", lw=1.5,
                                          ms=10, mfc="none", mew=1.8),
    "gr-filter fir_filter": dict(color="tab:red", marker="v", ls="-", ms=7),
    "gr-filter fft_filter": dict(color="tab:green", marker="^", ls="-", ms=7),
    "gpufilter direct": dict(color="tab:blue", marker="o", ls="-", lw=2.5, ms=7),
    "gpufilter fft": dict(color="tab:purple", marker="D", ls="-", lw=2, ms=6),
    "gpufilter direct (old tiled)": dict(color="tab:red", marker="x", ls="--", ms=9,
                                         mew=2),
    "cupy upfirdn": dict(color="tab:orange", marker="s", ls=":", lw=2, ms=10, mfc="none",
                         mew=1.8),
    "cupy oaconvolve": dict(color="tab:brown", marker="P", ls=":", lw=2, ms=8),
}
OTHER_MARKERS = "hp*<>d"
PLUMBING = {"blocks.copy": dict(color="tab:olive", ls="-.", lw=1.8),
            "none": dict(color="dimgray", ls=":", lw=2)}


def style(impl, i):
    if impl in STYLES:
        return STYLES[impl]
    base = impl.replace(" (CPU fallback)", "")
    if base in STYLES:
        return dict(STYLES[base], ls="-.")
    return dict(marker=OTHER_MARKERS[i % len(OTHER_MARKERS)], ls="-", ms=7)


def plumbing_style(impl):
    return PLUMBING["none" if impl.startswith("none") else "blocks.copy"]


def draw(ax, rows, unit_scale, unit, ceiling=True):
    # Filled, wide series first, hollow and dashed ones over them.
    items = sorted(curves(rows).items(), key=lambda kv: ("mfc" in style(kv[0], 0), kv[0]))
    for i, (impl, pts) in enumerate(items):
        ax.plot([p[0] for p in pts], [p[1] / unit_scale for p in pts], label=impl,
                **style(impl, i))
    # The ceilings: the GPU block's PCIe limit or the engine's roofline, per tap count.
    ceil = sorted({(r["taps"], r["ceiling_msps"]) for r in rows if r["ceiling_msps"] > 0})
    if ceil and ceiling:
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
        plumbing = [r for r in flow
                    if r["type"] == t and r["taps"] == 0 and r["msps"] > 0]
        fig, (ax, zoom) = plt.subplots(2, 1, figsize=(8, 9.5),
                                       gridspec_kw=dict(height_ratios=[3, 2]))
        draw(ax, sel, 1.0, "MS/s")
        for r in plumbing:  # copy and bare plumbing: independent of taps and D
            ax.axhline(r["msps"], label=r["implementation"],
                       **plumbing_style(r["implementation"]))
        ax.set_title(f"flowgraph {t}, decimation {d}\n{gpu}", fontsize=10)
        ax.legend(fontsize=8)
        # The zoom: every series within 30% of the plumbing, on a linear scale.
        if plumbing:
            top = max(r["msps"] for r in plumbing)
            near = [r for r in sel if r["taps"] > 0 and 0.7 * top <= r["msps"] <= 1.5 * top]
            draw(zoom, near, 1.0, "MS/s", ceiling=False)
            for r in plumbing:
                zoom.axhline(r["msps"], label=r["implementation"],
                             **plumbing_style(r["implementation"]))
                zoom.annotate(f"{r['implementation']} {r['msps']:.0f}",
                              (1.0, r["msps"]), xycoords=("axes fraction", "data"),
                              xytext=(-4, 3), textcoords="offset points", ha="right",
                              fontsize=7, color=plumbing_style(r["implementation"])["color"])
            values = [r["msps"] for r in near + plumbing]
            zoom.set_yscale("linear")
            zoom.set_ylim(min(values) * 0.97, max(values) * 1.03)
            zoom.set_title("near the plumbing rate (linear scale)", fontsize=9)
            zoom.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16),
                        ncol=4, frameon=False)
        else:
            zoom.set_visible(False)
        fig.tight_layout()
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
