#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Latency on a live stream: every block family with default arguments beside its
gr-filter counterpart (blocks.copy where gr-filter has none), throttled at each rate
given; the first output's arrival and the steady lag behind real time, one CSV row
per block and side. With --fm, the FM receiver too (RF in -> audio out, GPU and
gr-filter's blocks). With --throughput instead, the same blocks unthrottled: MS/s of
input with the default budget, with an infinite one (whole batches always, as before
blocks had a budget) and of blocks.copy, in the same run. See docs/benchmarks.md
("Latency on a live stream")."""

import argparse
import csv
import math
import sys

try:
    from gnuradio import blocks, gr
    from gnuradio.gpufilter import app_args, fm_receiver, live_latency
except ImportError as e:
    sys.exit(f"bench_latency: error: cannot import gnuradio.gpufilter ({e})")

TARGET_S = 0.025  # ours may trail gr-filter's by at most this, on both figures
FIELDS = ["rate", "case", "side", "on_gpu", "first_output_s", "steady_lag_s", "outputs"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rates", type=app_args.real_list(1, 1e9),
                   default=[48e3, 240e3, 2.4e6, 20e6], metavar="R,R,...",
                   help="throttle rates, S/s (default 48e3,240e3,2.4e6,20e6)")
    p.add_argument("--seconds", type=app_args.real(0.5, 600), default=3.0,
                   help="run length per case and rate (default 3)")
    p.add_argument("--cases", default="", metavar="WORD,...",
                   help="only the cases whose name contains one of these words")
    p.add_argument("--fm", action="store_true",
                   help="also the FM receiver, RF in -> audio out, at 2.4 MS/s")
    p.add_argument("--max-latency", type=float, metavar="S",
                   help="our blocks' max_latency, seconds ('inf': whole batches, as "
                        "before blocks had a budget; default: the blocks' default)")
    p.add_argument("--repeats", type=app_args.integer(1, 100), default=3,
                   help="--throughput: runs of each budget, interleaved; the best "
                        "counts (default 3)")
    p.add_argument("--throughput", action="store_true",
                   help="unthrottled MS/s instead: default budget, infinite budget, "
                        "blocks.copy")
    p.add_argument("--csv", metavar="FILE", help="write the rows to FILE")
    p.add_argument("--table", metavar="FILE",
                   help="print the Markdown table of a CSV this program wrote, and exit")
    a = p.parse_args()
    if a.max_latency is not None and not a.max_latency >= 0:
        p.error(f"--max-latency: must be >= 0 seconds or inf, not {a.max_latency}")
    return a


def throughput(cases, seconds, repeats):
    """Rows of unthrottled MS/s of input per case: default max_latency, infinite
    max_latency, and blocks.copy of the same items; the best of `repeats` runs of
    each, interleaved so that a slow moment of the machine hits both budgets."""
    rows = []
    for c in cases:
        best = {"default": 0.0, "inf": 0.0, "copy": 0.0}
        for _ in range(repeats):
            for budget in ("default", "inf"):
                best[budget] = max(best[budget],
                                   live_latency.unthrottled_rate(c, seconds, budget))
        best["copy"] = live_latency.unthrottled_rate(c, seconds, "copy")
        for budget, msps in best.items():
            rows.append(dict(case=c.name, budget=budget, msps=f"{msps:.1f}"))
        d, i, cp = (float(r["msps"]) for r in rows[-3:])
        print(f"{c.name:32s} default {d:8.1f}  inf {i:8.1f}  copy {cp:8.1f} MS/s  "
              f"default/inf {d / i:5.2f}x", flush=True)
    return rows


def fm_cases():
    """The FM receiver (wbfm chain, 2.4 MS/s in, 48 kHz audio out) on our GPU
    blocks against the same receiver on gr-filter's blocks (--cpu)."""

    def build(backend):
        def make(*_):
            rx = fm_receiver.fm_receiver(2.4e6, 300e3, "wbfm", 256, backend)
            # The hier block has no counter: a copy after it counts the audio.
            probe = blocks.copy(gr.sizeof_float)
            return rx, probe, fm_receiver.AUDIO_RATE / 2.4e6, [(rx, probe)], 1
        return make

    return [live_latency.case("fm_receiver (wbfm, RF -> audio)", "c", build("gpu"),
                              build("cpu"))]


def ms(text):
    x = float(text)
    return f"{x * 1e3:.1f}" if math.isfinite(x) else "none"


def table(path):
    """The Markdown table of a latency or throughput CSV (docs/benchmarks.md)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if rows and "budget" in rows[0]:
        by = {(r["case"], r["budget"]): float(r["msps"]) for r in rows}
        print("| block | default max_latency | infinite | default / infinite | "
              "blocks.copy |")
        print("|---|---|---|---|---|")
        for case in dict.fromkeys(r["case"] for r in rows):
            d, i, c = by[case, "default"], by[case, "inf"], by[case, "copy"]
            print(f"| {case} | {d:.1f} | {i:.1f} | {d / i:.2f}x | {c:.1f} |")
        return
    pairs = {}
    for r in rows:
        pairs.setdefault((r["rate"], r["case"]), {})[r["side"]] = r
    print("| rate | block | first output, ours / reference (ms) | "
          "steady lag, ours / reference (ms) | target |")
    print("|---|---|---|---|---|")
    for (rate, case), sides in pairs.items():
        o, g = sides["gpufilter"], sides["reference"]
        met = all(float(o[k]) <= float(g[k]) + TARGET_S
                  for k in ("first_output_s", "steady_lag_s"))
        print(f"| {float(rate) / 1e3:g} kS/s | {case} | {ms(o['first_output_s'])} / "
              f"{ms(g['first_output_s'])} | {ms(o['steady_lag_s'])} / "
              f"{ms(g['steady_lag_s'])} | {'met' if met else '**missed**'} |")


def main():
    a = parse_args()
    if a.table:
        table(a.table)
        return
    words = [w for w in a.cases.split(",") if w]
    cases = [c for c in live_latency.all_cases()
             if not words or any(w in c.name for w in words)]
    if a.throughput:
        rows = throughput(cases, a.seconds, a.repeats)
        if a.csv:
            with open(a.csv, "w", newline="") as f:
                w = csv.DictWriter(f, ["case", "budget", "msps"])
                w.writeheader()
                w.writerows(rows)
        return
    rows = []
    for rate in a.rates:
        todo = list(cases) + (fm_cases() if a.fm and rate == 2.4e6 else [])
        for c in todo:
            for r in live_latency.measure([c], rate, a.seconds,
                                          max_latency=a.max_latency):
                rows.append(dict(rate=f"{rate:g}", case=r.name, side=r.side,
                                 on_gpu=r.on_gpu, first_output_s=f"{r.first_output_s:.4f}",
                                 steady_lag_s=f"{r.steady_lag_s:.4f}", outputs=r.outputs))
            ours, ref = rows[-2], rows[-1]
            verdict = []
            for key in ("first_output_s", "steady_lag_s"):
                o, g = float(ours[key]), float(ref[key])
                met = math.isfinite(o) and o <= g + TARGET_S
                verdict.append(f"{key[:-2]} {o * 1e3:8.1f} ms vs {g * 1e3:8.1f} "
                               f"({'met' if met else 'MISSED'})")
            print(f"{rate / 1e3:8g} kS/s  {c.name:32s} " + "  ".join(verdict),
                  flush=True)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, FIELDS)
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
