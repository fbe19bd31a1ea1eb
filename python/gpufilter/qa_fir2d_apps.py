#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The 2D filtering apps run end to end on small sizes on the CPU:
apps/bench_fir2d.py --cpu-smoke gives a checked row for every case and its plot, and
apps/gpufilter_waterfall finds every burst it injects, and nothing else, and writes
its PNGs. Where this gr-gpufilter has fir_filter_2d_fff, the waterfall runs with the
block and with the SciPy stand-in of it, and both must find the same peaks."""

import csv
import os
import re
import subprocess
import sys
import tempfile

import importlib.util
import unittest

from gnuradio import gpufilter, gr_unittest

APPS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                     "..", "apps"))
# Small enough for a smoke test, long enough that three bursts fit.
WATERFALL = ["--seconds", "0.15", "--bursts", "3", "--fft-size", "256", "--device", "-2"]


# The apps draw with matplotlib and check with SciPy; a bare GNU Radio runtime may
# have neither.
MISSING = [m for m in ("matplotlib", "scipy") if importlib.util.find_spec(m) is None]
needs_plotting = unittest.skipIf(MISSING, f"{' and '.join(MISSING)} not installed")


def run(app, *args, status=0):
    proc = subprocess.run([sys.executable, os.path.join(APPS, app), *args],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != status:
        raise AssertionError(f"{app} exited {proc.returncode}, not {status}:\n"
                             f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return proc.stdout + proc.stderr


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def has_scipy():
    try:
        import scipy.signal  # noqa: F401
        return True
    except ImportError:
        return False


class qa_fir2d_apps(gr_unittest.TestCase):

    @needs_plotting
    def test_bench_cpu_smoke(self):
        with tempfile.TemporaryDirectory() as tmp:
            path, png = os.path.join(tmp, "fir2d.csv"), os.path.join(tmp, "fir2d.png")
            out = run("bench_fir2d.py", "--cpu-smoke", "--csv", path, "--plot", png)
            rows = read_rows(path)
            self.assertGreater(os.path.getsize(png), 10000)
            # The plot is redrawn from the CSV alone.
            again = os.path.join(tmp, "again.png")
            run("bench_fir2d.py", "--plot-from", path, "--plot", again)
            self.assertGreater(os.path.getsize(again), 10000)
        self.assertIn("alignment: every implementation computes convolve2d 'same'", out)
        self.assertNotIn("FAIL", out)
        cases = {(r["image"], r["kernel"], r["kind"]) for r in rows}
        self.assertEqual(cases, {(i, k, kind) for i in ("64x64", "48x80")
                                 for k in ("3", "4", "9", "15")
                                 for kind in ("random", "gaussian")})
        for r in rows:
            self.assertEqual(r["ok"], "1", r)
            self.assertLess(float(r["max_rel_err"]), 1e-5, r)
            self.assertGreater(float(r["ms"]), 0.0, r)
            self.assertGreater(float(r["gpix_s"]), 0.0, r)
            self.assertEqual(r["processor"], "cpu", r)
        impls = {r["implementation"] for r in rows}
        want = set()
        if has_scipy():
            want.add("scipy signal.convolve2d (CPU)")
        if hasattr(gpufilter, "convolve2d"):
            want |= {f"gpufilter {m} (host arrays)"
                     for m in ("direct", "separable", "fft", "auto")}
            separable = {r["kind"] for r in rows
                         if r["implementation"].startswith("gpufilter separable")}
            self.assertEqual(separable, {"gaussian"})
        self.assertEqual(impls, want)
        for impl in impls - {"gpufilter separable (host arrays)"}:
            self.assertEqual(sum(r["implementation"] == impl for r in rows), len(cases))

    def waterfall(self, *extra):
        with tempfile.TemporaryDirectory() as tmp:
            out = run("gpufilter_waterfall", *WATERFALL, "--out", tmp, *extra)
            for name in ("waterfall.png", "bursts.png"):
                path = os.path.join(tmp, name)
                self.assertTrue(os.path.exists(path), out)
                self.assertGreater(os.path.getsize(path), 20000, name)
        self.assertIn("detections: 3 of 3 injected found, 0 false", out)
        self.assertIn("injected: 3 chirps", out)
        return re.findall(r"^  burst \d+: .*$", out, re.M)

    @needs_plotting
    def test_waterfall_finds_every_burst(self):
        has_block = hasattr(gpufilter, "fir_filter_2d_fff")
        reference = self.waterfall("--reference-filter") if has_scipy() else None
        if has_block:
            found = self.waterfall()
            if reference is not None:   # the same peaks, z to 0.1
                self.assertEqual(found, reference)
        elif reference is None:
            self.skipTest("neither fir_filter_2d_fff nor SciPy for its stand-in")

    def test_waterfall_bad_arguments(self):
        with tempfile.TemporaryDirectory() as tmp:
            iq = os.path.join(tmp, "x.cf32")
            open(iq, "wb").close()
            out = run("gpufilter_waterfall", "--file", iq, "--out", tmp, status=2)
            self.assertIn("--rate is required with --file", out)
            out = run("gpufilter_waterfall", "--fft-size", "8", status=2)
            self.assertIn("--fft-size", out)


if __name__ == "__main__":
    gr_unittest.run(qa_fir2d_apps)
