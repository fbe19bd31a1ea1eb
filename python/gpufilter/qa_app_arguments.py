#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every numeric argument of the apps is checked for being finite and in range, and a
bad one is one line on stderr with exit status 2 (gpufilter_fm_rx's own cases are in
qa_fm_receiver; bench_fir's in the app_bench_fir_bad_args test)."""

import argparse
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import wave

from gnuradio import gr_unittest
from gnuradio.gpufilter import app_args

HERE = os.path.dirname(os.path.abspath(__file__))
APPS = os.path.normpath(os.path.join(HERE, "..", "..", "apps"))


class qa_app_arguments(gr_unittest.TestCase):
    def test_001_real(self):
        convert = app_args.real(0, 10, lo_open=True)
        self.assertEqual(convert("2.5"), 2.5)
        self.assertEqual(convert("1e1"), 10.0)
        for bad in ("nan", "NaN", "inf", "-inf", "0", "-1", "10.5", "x", ""):
            with self.subTest(text=bad):
                with self.assertRaises(argparse.ArgumentTypeError):
                    convert(bad)
        self.assertEqual(app_args.real()("-200e3"), -200e3)
        with self.assertRaises(argparse.ArgumentTypeError):
            app_args.real()("nan")

    def test_002_integers(self):
        self.assertEqual(app_args.integer(1, 5)("5"), 5)
        self.assertEqual(app_args.integer_list(1)("16, 32,64"), [16, 32, 64])
        for bad in ("0", "6", "1.5", "1e3", "nan", "x"):
            with self.subTest(text=bad):
                with self.assertRaises(argparse.ArgumentTypeError):
                    app_args.integer(1, 5)(bad)
        for bad in ("", ",", "1,0", "1,x"):
            with self.subTest(text=bad):
                with self.assertRaises(argparse.ArgumentTypeError):
                    app_args.integer_list(1)(bad)

    def test_008_files(self):
        with tempfile.TemporaryDirectory() as d:
            text = os.path.join(d, "notes.txt")
            with open(text, "w") as f:
                f.write("not audio\n")
            wav = os.path.join(d, "ok.wav")
            with wave.open(wav, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(48000)
                w.writeframes(b"\0\0" * 10)
            self.assertEqual(app_args.input_file()(text), text)
            self.assertEqual(app_args.input_file("wav")(wav), wav)
            self.assertEqual(app_args.output_file(text), text)  # replaced
            self.assertEqual(app_args.output_folder(os.path.join(d, "a", "b")),
                             os.path.join(d, "a", "b"))
            made = os.path.join(d, "new", "x.png")  # the app makes d/new
            self.assertEqual(app_args.output_file_made_folders(made), made)
            for convert, arg, message in (
                    (app_args.input_file(), os.path.join(d, "none"), "does not exist"),
                    (app_args.input_file(), d, "is a folder"),
                    (app_args.input_file("wav"), text, "is not a PCM WAV file"),
                    (app_args.output_file, d, "is a folder"),
                    (app_args.output_file, os.path.join(d, "no", "x.png"),
                     "does not exist"),
                    (app_args.output_folder, text, "exists and is not a folder"),
                    (app_args.output_file_made_folders, os.path.join(text, "x.png"),
                     "exists and is not a folder"),
                    (app_args.output_folder, os.path.join(text, "sub"), "is a file")):
                with self.subTest(arg=arg, message=message):
                    with self.assertRaisesRegex(argparse.ArgumentTypeError, message):
                        convert(arg)

    def test_009_file_options_of_the_receivers(self):
        """File options are checked with the others: one line naming the option, no
        traceback, before anything runs."""
        with tempfile.TemporaryDirectory() as d:
            text = os.path.join(d, "notes.txt")
            with open(text, "w") as f:
                f.write("not audio\n")
            missing = os.path.join(d, "no", "such")
            self.check_refused("gpufilter_fm_rx", [
                (["--band-wav", text], "--band-wav: '" + text + "' is not a PCM WAV"),
                (["--band-wav", missing], "--band-wav: '" + missing + "' does not exist"),
                (["--input", missing, "--rate", "1e6"], "--input: '"),
                (["--wav", os.path.join(missing, "x.wav")], "--wav: folder"),
                (["--wav", d], "--wav: '" + d + "' is a folder"),
                (["--benchmark", "--csv", os.path.join(missing, "x.csv")], "--csv:"),
                (["--plot-from", missing], "--plot-from: '"),
                (["--plot-from", text, "--plot", os.path.join(d, "x.png")],
                 "--plot-from: " + text + " is not a CSV"),
            ])
            self.check_refused("gpufilter_fm_band_rx", [
                (["--out", text], "--out: '" + text + "' exists and is not a folder"),
                (["--plot", os.path.join(missing, "x.png")], "--plot: folder"),
                (["--input", d, "--rate", "1e6"], "--input: '" + d + "' is a folder"),
                (["--spacing", "2e3", "--seconds", "0.01"], "--spacing"),
            ])
            wav = os.path.join(d, "ok.wav")
            with wave.open(wav, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(16000)
                w.writeframes(b"\0\0" * 10)
            self.check_refused("gpufilter_aec", [
                (["--far", text, "--mic", text], "--far: '" + text + "' is not a PCM"),
                (["--far", wav], "--far and --mic go together"),
                (["--plot-from", text], "--plot-from: " + text + " is not a CSV"),
                (["--ensemble", "2", "--csv", os.path.join(missing, "x.csv")],
                 "--csv: folder"),
            ])

    def check_refused(self, app, cases, one_line=True):
        for args, message in cases:
            with self.subTest(app=app, args=args):
                run = subprocess.run([sys.executable, os.path.join(APPS, app), *args],
                                     capture_output=True, text=True, timeout=120)
                self.assertEqual(run.returncode, 2, (args, run.stdout, run.stderr))
                self.assertIn(message, run.stderr)
                self.assertNotIn("Traceback", run.stderr)
                if one_line:
                    self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)

    def test_003_fir_demo(self):
        self.check_refused("gpufilter_fir_demo.py", [
            (["--samples", "0"], "--samples: 0 is out of range"),
            (["--samples", "nan"], "--samples: not an integer"),
            (["--taps", "63", "inf"], "--taps: not an integer"),
            (["--taps", "10000000"], "--taps: 10000000 is out of range"),
            (["--decimation", "0"], "--decimation: 0 is out of range"),
            (["--device", "-3"], "--device: -3 is out of range"),
            (["--device", "4096"], "no CUDA device 4096"),
            (["--batch-size", "0"], "--batch-size: 0 is out of range"),
        ])

    def test_004_bench_cupy(self):
        # Arguments are checked before CuPy is imported, so this runs without CuPy;
        # argparse's usage text comes first (this app needs no GNU Radio).
        self.check_refused("bench_cupy.py", [
            (["--taps", "0"], "--taps"),
            (["--decimations", "1,nan"], "--decimations"),
            (["--samples", "inf"], "--samples"),
            (["--reps", "0"], "--reps"),
        ], one_line=False)

    def test_006_aec(self):
        self.check_refused("gpufilter_aec", [
            (["--mu", "0"], "--mu: 0 is out of range"),
            (["--mu", "nan"], "--mu: must be a finite number"),
            (["--mu", "2.5"], "--mu: 2.5 is out of range"),
            (["--taps", "0"], "--taps: 0 is out of range"),
            (["--taps", "8193"], "--taps: 8193 is out of range"),
            (["--eps", "0"], "--eps: 0 is out of range"),
            (["--eps", "inf"], "--eps: must be a finite number"),
            (["--seconds", "0"], "--seconds: 0 is out of range"),
            (["--rate", "nan"], "--rate: must be a finite number"),
            (["--echo-ms", "-1"], "--echo-ms: -1 is out of range"),
            (["--delay-ms", "100"], "--delay-ms: 100 must be less than --echo-ms"),
            (["--noise-db", "inf"], "--noise-db: must be a finite number"),
            (["--window", "0"], "--window: 0 is out of range"),
            (["--ensemble", "0"], "--ensemble: 0 is out of range"),
            (["--ensemble", "1.5"], "--ensemble: not an integer"),
            (["--far", "/nonexistent.wav", "--mic", "/nonexistent.wav"],
             "--far: '/nonexistent.wav' does not exist"),
            (["--device", "4096", "--seconds", "0.01"], "4096"),
        ])

    def test_007_bench_nlms(self):
        self.check_refused("bench_nlms.py", [
            (["--taps", "0"], "--taps: 0 is out of range"),
            (["--taps", "8193"], "--taps: 8193 is out of range"),
            (["--filters", "1,0"], "--filters: 0 is out of range"),
            (["--seconds", "nan"], "--seconds: must be a finite number"),
            (["--rate", "inf"], "--rate: must be a finite number"),
            (["--peak-tflops", "0"], "--peak-tflops: 0 is out of range"),
            (["--reps", "0"], "--reps: 0 is out of range"),
        ])

    def test_005_every_option_has_help(self):
        for app in ("gpufilter_fm_rx", "gpufilter_fm_band_rx", "gpufilter_fir_demo.py",
                    "gpufilter_aec",
                    "bench_nlms.py"):
            path = os.path.join(APPS, app)
            loader = importlib.machinery.SourceFileLoader(app.replace(".", "_"), path)
            spec = importlib.util.spec_from_loader(loader.name, loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            for action in module.make_parser()._actions:
                with self.subTest(app=app, option=action.option_strings):
                    self.assertTrue(action.help and action.help != argparse.SUPPRESS)


if __name__ == "__main__":
    gr_unittest.run(qa_app_arguments)
