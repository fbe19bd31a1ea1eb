#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Markdown tables for docs/benchmarks.md from bench_fir.csv (and bench_cupy.csv).

usage: apps/bench_tables.py OUT/bench_fir.csv [OUT/bench_cupy.csv]
"""

import csv
import sys


def read(path):
    with open(path) as f:
        return [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]


def rate(rows, **key):
    for r in rows:
        if all(str(r[k]) == str(v) for k, v in key.items()):
            return float(r["msps"])
    return None


def fmt(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"


def flowgraph_table(rows):
    fg = [r for r in rows if r["family"] == "flowgraph"]
    print("| type | taps | D | gpufilter (algorithm) | staged copy | gr-filter fir | "
          "gr-filter fft | vs gr-fir | vs gr-fft | vs copy |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for t in ("ccf", "fff", "ccc"):
        copy = rate(fg, type=t, implementation="blocks.copy")
        for d in ("1", "8"):
            for taps in ("16", "64", "256", "1024", "4096", "16384"):
                k = dict(type=t, taps=taps, decimation=d)
                ours = [r for r in fg if r["implementation"] == "gpufilter fir_filter"
                        and r["type"] == t and r["taps"] == taps and r["decimation"] == d]
                if not ours:
                    continue
                g = float(ours[0]["msps"])
                algo = ours[0]["note"].replace("GPU ", "")
                st = rate(fg, implementation="gpufilter fir_filter (staged)", **k)
                fir = rate(fg, implementation="gr-filter fir_filter", **k)
                fft = rate(fg, implementation="gr-filter fft_filter", **k)
                print(f"| {t} | {taps} | {d} | {g:.0f} ({algo}) | {fmt(st, 0)} | "
                      f"{fmt(fir, 2)} | {fmt(fft, 0)} | {g / fir:.1f}x | {g / fft:.1f}x | "
                      f"{g / copy:.2f}x |")
    for t in ("ccf", "fff", "ccc"):
        print(f"\n{t}: blocks.copy {fmt(rate(fg, type=t, implementation='blocks.copy'), 0)}"
              " MS/s, bare source->head->sink "
              f"{fmt(rate(fg, type=t, implementation='none (source->head->sink)'), 0)} MS/s.",
              end="")
    print()


def engine_table(rows, cupy):
    en = [r for r in rows if r["family"] == "engine"]
    print("| type | taps | D | direct GS/s | fft GS/s | old tiled | roofline GS/s (bound) | "
          "best of roofline | CuPy upfirdn | CuPy oaconvolve | vs best CuPy |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for t in ("ccf", "fff", "ccc"):
        for d in ("1", "8"):
            for taps in ("16", "64", "256", "1024", "4096", "16384"):
                k = dict(type=t, taps=taps, decimation=d)
                di = rate(en, implementation="gpufilter direct", **k)
                if di is None:
                    continue
                ff = rate(en, implementation="gpufilter fft", **k)
                old = rate(en, implementation="gpufilter direct (old tiled)", **k)
                row = [r for r in en if r["implementation"] == "gpufilter direct"
                       and all(r[a] == b for a, b in k.items())][0]
                roof = float(row["ceiling_msps"]) / 1e3
                bound = row["ceiling_kind"].replace("roofline ", "").strip("()")
                best = max(di, ff or 0) / 1e3
                up = rate(cupy, implementation="cupy upfirdn", **k)
                oa = rate(cupy, implementation="cupy oaconvolve", **k)
                cbest = max(up or 0, oa or 0) / 1e3
                vs = f"{best / cbest:.2f}x" if cbest else "-"
                print(f"| {t} | {taps} | {d} | {di / 1e3:.1f} | {fmt(ff and ff / 1e3)} | "
                      f"{fmt(old and old / 1e3)} | {roof:.1f} ({bound}) | "
                      f"{100 * best / roof:.0f}% | {fmt(up and up / 1e3)} | "
                      f"{fmt(oa and oa / 1e3)} | {vs} |")


def xlating_table(rows):
    xl = [r for r in rows if r["family"] == "xlating"]
    print("| block | taps | D | gpufilter | gr-filter | vs gr-filter | vs copy |")
    print("|---|---|---|---|---|---|---|")
    for r in xl:
        if not r["implementation"].startswith("gpufilter"):
            continue
        name = r["implementation"].split()[1]
        theirs = rate(xl, implementation="gr-filter " + name, taps=r["taps"],
                      decimation=r["decimation"])
        copy = rate(xl, implementation="blocks.copy", type=r["type"])
        g = float(r["msps"])
        print(f"| {name} | {r['taps']} | {r['decimation']} | {g:.0f} | {theirs:.0f} | "
              f"{g / theirs:.1f}x | {g / copy:.2f}x |")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read(sys.argv[1])
    cupy = read(sys.argv[2]) if len(sys.argv) > 2 else []
    print("### Flowgraph (MS/s of input)\n")
    flowgraph_table(rows)
    print("\n### Engine on device-resident data (GS/s of input)\n")
    engine_table(rows, cupy)
    print("\n### Frequency-xlating filter and Hilbert transform (MS/s of input)\n")
    xlating_table(rows)


if __name__ == "__main__":
    main()
