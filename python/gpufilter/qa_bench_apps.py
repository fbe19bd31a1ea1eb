#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The flowgraph benchmarks of device buffers run end to end on small sizes (on the
CPU fallback where there is no GPU): apps/bench_device_buffers.py gives every row of
its table, apps/bench_block_times.py reports every block of its two chains, and
apps/bench_resamplers.py gives a row for each of its cases, and
apps/bench_fir2d_flowgraph.py one for each vector length, kernel and kind.
Their numbers are measured on a GPU host (docs/benchmarks.md); here they must run,
and say what they measured."""

import csv
import os
import subprocess
import sys
import tempfile

from gnuradio import gr_unittest

APPS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                     "..", "apps"))


def run(app, *args):
    proc = subprocess.run([sys.executable, os.path.join(APPS, app), *args],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise AssertionError(f"{app} exited {proc.returncode}: {proc.stderr[-2000:]}")
    return proc.stdout


class qa_bench_apps(gr_unittest.TestCase):

    def test_device_buffer_benchmark_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rows.csv")
            printed = run("bench_device_buffers.py", "--quick", "--csv", path)
            with open(path) as f:
                rows = list(csv.DictReader(f))
        self.assertIn("plumbing,1M,", printed)  # the table on standard output too
        cases = [(r["case"], r["buffers"], r["device_buffers"]) for r in rows]
        for want in [("plumbing", "1M", ""), ("copy", "default", ""), ("copy", "1M", ""),
                     ("one_fir", "default", "True"), ("one_fir", "1M", "False"),
                     ("three_fir", "1M", "True"), ("three_fir", "1M", "False"),
                     ("three_fir_latency", "default", "True")]:
            self.assertIn(want, cases)
        for r in rows:
            if r["case"].endswith("latency"):
                self.assertGreater(float(r["latency_ms"]), 0.0, r)
            else:
                self.assertEqual(int(r["items"]), 400_000, r)
                self.assertGreater(float(r["msps"]), 0.0, r)
                self.assertGreaterEqual(float(r["cpu_ns_per_sample"]), 0.0, r)

    def test_latency_benchmark_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "latency.csv")
            printed = run("bench_latency.py", "--rates", "48e3", "--seconds", "0.8",
                          "--cases", "fir_filter_fff", "--csv", path)
            with open(path) as f:
                rows = list(csv.DictReader(f))
        # The plain block and the three-block chain, each beside gr-filter's.
        self.assertEqual([(r["case"], r["side"]) for r in rows],
                         [("fir_filter_fff", "gpufilter"), ("fir_filter_fff", "reference"),
                          ("fir_filter_fff x3 chain", "gpufilter"),
                          ("fir_filter_fff x3 chain", "reference")])
        for r in rows:
            self.assertEqual(r["rate"], "48000", r)
            self.assertGreater(int(r["outputs"]), 0, r)
            self.assertLess(float(r["first_output_s"]), 0.8, r)
        self.assertEqual(printed.count("first_output"), 2, printed)

    def test_block_times_name_every_block(self):
        out = run("bench_block_times.py", "--items", "2e5", "--taps", "64")
        titles = [line for line in out.splitlines() if "MS/s of input" in line]
        self.assertEqual(len(titles), 4, out)
        for name in ("fir_filter_ccf #3", "head", "file_source",
                     "gpu_freq_xlating_fir_filter_ccc", "gpu_quadrature_demod_cf"):
            self.assertIn(name, out)
        self.assertEqual(out.count("host CPU:"), 4, out)
        # Each chain's blocks made calls and produced items.
        for line in out.splitlines():
            if line.startswith("  fir_filter_ccf #"):
                work_s, share, calls, per_call = line.split()[-4:]
                self.assertGreater(float(calls), 0, line)
                self.assertGreater(float(per_call), 0, line)

    def test_resampler_benchmark_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "resamplers.csv")
            printed = run("bench_resamplers.py", "--items", "2e5", "--repeat", "1",
                          "--csv", path)
            with open(path) as f:
                rows = list(csv.DictReader(f))
        self.assertEqual([r["case"].split(",")[0] for r in rows],
                         ["rational_resampler_ccf 3/2", "rational_resampler_ccf 147/160",
                          "rational_resampler_ccf 1/10", "interp_fir_filter_ccf x4",
                          "interp_fir_filter_ccf x4", "GRC low-pass fir_filter_ccf D=1",
                          "GRC low-pass fir_filter_ccf D=10"])
        for r in rows:
            self.assertEqual(int(r["items"]), 200_000, r)
            for column in ("gpufilter_msps", "grfilter_msps", "copy_msps"):
                self.assertGreater(float(r[column]), 0.0, r)
            self.assertIn(f"| {r['case']} |", printed)  # the Markdown table
        if not all(int(r["on_gpu"]) for r in rows):
            self.assertIn("CPU fallback", printed)

    def test_fir2d_flowgraph_benchmark_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "fir2d.csv")
            printed = run("bench_fir2d_flowgraph.py", "--samples", "4e4", "--repeat", "1",
                          "--vlens", "64,128", "--kernels", "3,9", "--csv", path)
            with open(path) as f:
                rows = list(csv.DictReader(f))
        self.assertEqual([(r["vlen"], r["kernel"], r["kind"]) for r in rows],
                         [(v, k, kind) for v in ("64", "128") for k in ("3x3", "9x9")
                          for kind in ("random", "gaussian")])
        for r in rows:
            self.assertGreater(float(r["gpufilter_msps"]), 0.0, r)
            self.assertGreater(float(r["copy_msps"]), 0.0, r)
            self.assertIn(r["method"], ("direct", "separable", "fft", "cpu"), r)
        self.assertIn("blocks.copy", printed)


if __name__ == "__main__":
    gr_unittest.run(qa_bench_apps)
