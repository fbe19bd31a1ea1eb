#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The FM receiver on the generated band: each chain on each backend gives back each
station's audio (correlation >= 0.9 after delay alignment) and not its neighbours';
the IQ file formats; apps/gpufilter_fm_rx's bad-input errors, its default (device
buffers) against --host-buffers, and Ctrl-C. Device buffers in the chains and the
benchmark's series: qa_fm_device_buffers."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import wave

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio.gpufilter import fm_band, fm_receiver

try:
    from gpu_test_support import gpu_count, skip_without_gpu
except ImportError:  # run from elsewhere than this directory
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gpu_test_support import gpu_count, skip_without_gpu

HERE = os.path.dirname(os.path.abspath(__file__))
APPS = os.path.normpath(os.path.join(HERE, "..", "..", "apps"))
APP = os.path.join(APPS, "gpufilter_fm_rx")
RATE = 2.4e6
STATIONS = (-600e3, -200e3, 300e3)
SECONDS = 0.5          # of band per case: CI has 2 cores
MIN_CORRELATION = 0.9
MAX_NEIGHBOUR = 0.3


def aligned_correlation(y, ref):
    """Largest normalised correlation of audio y with the periodic reference over all
    delays (the chains delay the audio by their filters' group delays)."""
    y = np.asarray(y, np.float64)
    y = y[len(y) // 10:]            # filter start-up
    y = y - y.mean()
    n, period = len(y), len(ref)
    assert n <= period
    c = np.fft.irfft(np.conj(np.fft.rfft(y, period)) * np.fft.rfft(ref), period)
    d = int(np.argmax(c))         # y[i] ~ ref[i + d]
    r = ref[(np.arange(n) + d) % period]
    r = r - r.mean()
    return float(np.dot(y, r) / (np.linalg.norm(y) * np.linalg.norm(r) + 1e-30))


class qa_fm_receiver(gr_unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # One band for every case, played from a file (fast to load into a flowgraph).
        cls.tmp = tempfile.mkdtemp(prefix="qa_fm_receiver_")
        cls.band, cls.refs = fm_band.band_samples(SECONDS, RATE, STATIONS, snr_db=30,
                                                  pilot=True, seed=3, period=1.0)
        cls.cf32 = os.path.join(cls.tmp, "band.cf32")
        cls.band.tofile(cls.cf32)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def receive_all(self, chain, backend, source=None):
        """Audio of every station, one receiver each, all fed by one source."""
        tb = gr.top_block()
        src = source or blocks.file_source(gr.sizeof_gr_complex, self.cf32, False)
        receivers, sinks = [], []
        for f in STATIONS:
            rx = fm_receiver.fm_receiver(RATE, f, chain, 256, backend)
            sink = blocks.vector_sink_f()
            tb.connect(src, rx, sink)
            receivers.append(rx)
            sinks.append(sink)
        tb.run()
        return receivers, [np.array(s.data()) for s in sinks]

    def check_chain(self, chain, backend, source=None):
        receivers, audio = self.receive_all(chain, backend, source)
        for i, y in enumerate(audio):
            self.assertEqual(len(y), int(SECONDS * fm_receiver.AUDIO_RATE))
            corr = [aligned_correlation(y, ref) for ref in self.refs]
            print(f"{chain} {backend} station {i} ({STATIONS[i] / 1e3:+g} kHz): "
                  "correlation with each station's audio " + " ".join(f"{c:.3f}" for c in corr))
            self.assertGreaterEqual(corr[i], MIN_CORRELATION, (chain, backend, i, corr))
            for j, c in enumerate(corr):
                if j != i:
                    self.assertLess(abs(c), MAX_NEIGHBOUR, (chain, backend, i, j, corr))
        return receivers

    def test_001_wbfm_gpu(self):
        skip_without_gpu(self)
        receivers = self.check_chain("wbfm", "gpu")
        self.check_our_blocks_up_to_the_audio_filter(receivers, "wbfm")
        for rx in receivers:
            self.assertTrue(rx.on_gpu())

    def test_002_classic_gpu(self):
        skip_without_gpu(self)
        receivers = self.check_chain("classic", "gpu")
        self.check_our_blocks_up_to_the_audio_filter(receivers, "classic")
        for rx in receivers:
            self.assertTrue(rx.on_gpu())

    def check_our_blocks_up_to_the_audio_filter(self, receivers, chain):
        """Every stage from the first filter to the audio decimator is one of our
        blocks (so on a GPU, no CPU block sits between them); the rest is not."""
        for rx in receivers:
            ours = {id(b) for b in rx.gpu_blocks}
            kinds = [id(s) in ours for s in rx.stages]
            n = {"wbfm": 3, "classic": 5}[chain]  # xlate .. audio FIR
            self.assertEqual(kinds[:n], [True] * n, (chain, rx.stages))
            self.assertFalse(any(kinds[n:]), (chain, rx.stages))
            self.assertEqual(rx.stages[n - 1].name(), "gpu_fir_filter_fff")

    def test_003_wbfm_cpu_fallback(self):
        receivers = self.check_chain("wbfm", "fallback")
        self.check_our_blocks_up_to_the_audio_filter(receivers, "wbfm")

    def test_004_classic_cpu_fallback(self):
        receivers = self.check_chain("classic", "fallback")
        self.check_our_blocks_up_to_the_audio_filter(receivers, "classic")

    def test_005_wbfm_gr_filter(self):
        self.check_chain("wbfm", "cpu")

    def test_006_classic_gr_filter(self):
        self.check_chain("classic", "cpu")

    def test_007_file_formats(self):
        """cu8 (rtl_sdr) and cs16 files hold the same band, quantised."""
        iq = np.stack([self.band.real, self.band.imag], axis=1).ravel() / 4  # headroom
        files = {"cu8": np.clip(np.round(iq * 127.5 + 127.5), 0, 255).astype(np.uint8),
                 "cs16": np.clip(np.round(iq * 32768), -32768, 32767).astype("<i2")}
        for fmt, data in files.items():
            path = os.path.join(self.tmp, "band." + fmt)
            data.tofile(path)
            src = fm_receiver.iq_file_source(path)
            self.assertEqual((src.format, src.samples), (fmt, len(self.band)))
            _, audio = self.receive_all("wbfm", "cpu", src)
            corr = aligned_correlation(audio[1], self.refs[1])
            print(f"{fmt}: correlation {corr:.3f}")
            self.assertGreaterEqual(corr, MIN_CORRELATION, fmt)

    def test_008_band_source_block(self):
        """The hier block's stream is the band: power = stations + noise."""
        src = fm_band.fm_band_source(RATE, STATIONS, snr_db=20, seed=3, period=1.0)
        tb = gr.top_block()
        head = blocks.head(gr.sizeof_gr_complex, 200000)
        sink = blocks.vector_sink_c()
        tb.connect(src, head, sink)
        tb.run()
        x = np.array(sink.data())
        noise = fm_band.noise_amplitude(RATE, 20) ** 2
        self.assertAlmostEqual(np.mean(np.abs(x) ** 2), len(STATIONS) + noise, delta=0.2)
        self.assertEqual(len(src.references), len(STATIONS))

    def test_009_wav_station(self):
        """A WAV file's audio is carried by the first station."""
        t = np.arange(48000) / 48000.0
        tone = 0.5 * np.sin(2 * np.pi * 700 * t) * np.sin(2 * np.pi * 2 * t)
        path = os.path.join(self.tmp, "speech.wav")
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(48000)
            w.writeframes((tone * 32767).astype("<i2").tobytes())
        _, refs = fm_band.band_samples(SECONDS, RATE, STATIONS[:1], snr_db=30, wav=path,
                                       period=1.0)
        self.assertEqual(len(refs[0]), len(tone))
        self.assertGreater(abs(np.corrcoef(refs[0], tone)[0, 1]), 0.99)

    def app_env(self):
        # The app runs in the temporary directory: make relative search paths absolute.
        env = dict(os.environ)
        for var in ("PYTHONPATH", "LD_LIBRARY_PATH"):
            if env.get(var):
                env[var] = os.pathsep.join(os.path.abspath(p) if p else p
                                           for p in env[var].split(os.pathsep))
        return env

    def run_app(self, *args):
        return subprocess.run([sys.executable, APP, *args], capture_output=True, text=True,
                              timeout=120, cwd=self.tmp, env=self.app_env())

    def test_010_app_writes_wav(self):
        out = os.path.join(self.tmp, "out.wav")
        run = self.run_app("--seconds", "0.5", "--offset", "-200e3", "--wav", out)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("real time", run.stdout)
        with wave.open(out, "rb") as w:
            self.assertEqual((w.getframerate(), w.getnframes()), (48000, 24000))

    def test_010b_app_buffers(self):
        """The default run (device buffers) and --host-buffers give the same WAV and
        say which buffers they used; on a GPU the default's input crosses PCIe once
        and the audio decimator's output once, with host buffers more."""
        wavs, said = {}, {}
        for name, flags in (("default", []), ("host", ["--host-buffers"])):
            out = os.path.join(self.tmp, f"buffers_{name}.wav")
            run = self.run_app("--chain", "classic", "--seconds", "0.5", *flags,
                               "--wav", out)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            with wave.open(out, "rb") as w:
                self.assertEqual((w.getframerate(), w.getnframes()), (48000, 24000))
                wavs[name] = np.frombuffer(w.readframes(24000), "<i2").astype(int)
            said[name] = run.stdout
        self.assertGreater(np.std(wavs["default"]), 100)   # audio, not silence
        # 16-bit audio from the same chain: at most a rounding step apart.
        self.assertLessEqual(np.max(np.abs(wavs["default"] - wavs["host"])), 1)
        if gpu_count():
            self.assertIn(", device buffers", said["default"])
            self.assertIn("(1.00x the input)", said["default"])
            self.assertIn("(1.00x the audio decimator's output)", said["default"])
            self.assertIn("device buffers: 1.00x each way", said["default"])
            self.assertIn(", host buffers (--host-buffers)", said["host"])
            self.assertNotIn("(1.00x the input)", said["host"])
            self.assertIn("without --host-buffers: 1.00x each way", said["host"])
        else:
            self.assertIn("CPU fallback", said["default"])
            self.assertIn("device buffers unused there", said["default"])
            self.assertIn("CPU fallback", said["host"])
            self.assertNotIn("device buffers", said["host"])

    def test_011_app_bad_inputs(self):
        unknown = os.path.join(self.tmp, "x.iq")  # exists: only its name is wrong
        with open(unknown, "wb") as f:
            f.write(bytes(64))
        cases = [
            (["--input", os.path.join(self.tmp, "missing.cf32"), "--rate", "2.4e6"],
             "does not exist"),
            (["--input", self.cf32, "--format", "wav", "--rate", "2.4e6"], "unknown format"),
            (["--input", unknown, "--rate", "2.4e6"], "cannot tell the format"),
            (["--input", self.cf32, "--rate", "2.4e6", "--offset", "1.5e6"],
             "outside the band"),
            (["--offset", "-1.25e6"], "outside the band"),
            (["--input", self.cf32, "--rate", "100e3", "--offset", "0"], "too low"),
            (["--chain", "classic", "--rate", "300e3", "--offset", "0"], "too low"),
            (["--offset", "1.15e6"], "too low for a station"),
            # Numbers must be finite and in range, sizes within what the chain runs.
            (["--offset", "nan"], "--offset: must be a finite number"),
            (["--offset", "-inf"], "--offset: must be a finite number"),
            (["--input", self.cf32, "--rate", "nan"], "--rate: must be a finite number"),
            (["--seconds", "inf"], "--seconds: must be a finite number"),
            (["--seconds", "0"], "--seconds: 0 is out of range"),
            (["--snr", "nan"], "--snr: must be a finite number"),
            (["--progress", "-1"], "--progress: -1 is out of range"),
            (["--batch-size", "0"], "--batch-size: 0 is out of range"),
            (["--taps", "0"], "--taps: 0 is out of range"),
            (["--taps", "10000000"], "--taps 10000000 is out of range for the wbfm chain"),
            (["--chain", "classic", "--taps", "48001"], "1 to 48000"),
            (["--input", self.cf32, "--rate", "2.4e6", "--taps", "24001"], "1 to 24000"),
            (["--benchmark", "--bench-taps", "16,x"], "--bench-taps: not an integer"),
            (["--benchmark", "--bench-taps", "16,10000000"], "--bench-taps 10000000"),
            (["--benchmark", "--bench-audio-seconds", "nan"], "must be a finite number"),
            (["--benchmark", "--bench-cpu-budget", "0"], "0 is out of range"),
            (["--cpu", "--host-buffers"], "--host-buffers applies to the GPU chain, "
             "not to --cpu"),
            (["--benchmark", "--host-buffers"],
             "--host-buffers does not apply to --benchmark"),
            (["--plot-from", self.cf32, "--plot", "x.png", "--host-buffers"],
             "--host-buffers does not apply to --benchmark or --plot-from"),
        ]
        for args, message in cases:
            run = self.run_app(*args)
            self.assertEqual(run.returncode, 2, (args, run.stdout, run.stderr))
            self.assertIn(message, run.stderr, args)
            self.assertIn("gpufilter_fm_rx: error:", run.stderr, args)
            self.assertNotIn("Traceback", run.stderr, args)
            self.assertEqual(len(run.stderr.strip().splitlines()), 1, (args, run.stderr))

    def test_012_app_ctrl_c(self):
        """Ctrl-C (SIGINT) ends the app within about a second in every mode, with a
        short message and status 130, even with long filters on the CPU."""
        modes = [
            ("wbfm, our blocks", ["--taps", "24000", "--seconds", "600"], "s of audio", 1),
            ("classic, gr-filter", ["--chain", "classic", "--cpu", "--taps", "48000",
                                    "--seconds", "600"], "s of audio", 1),
            # The header comes before the band is generated: wait for a timed run.
            ("benchmark", ["--benchmark", "--bench-taps", "48000",
                           "--bench-audio-seconds", "600"], "speed-up", 5),
        ]
        for name, args, running, delay in modes:
            with self.subTest(mode=name):
                out = os.path.join(self.tmp, "ctrl_c.wav")
                proc = subprocess.Popen(
                    [sys.executable, APP, *args, "--progress", "0.2", "--wav", out],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    cwd=self.tmp, env=self.app_env())
                try:
                    deadline = time.monotonic() + 60
                    seen = ""
                    while running not in seen and time.monotonic() < deadline:
                        line = proc.stdout.readline()
                        if not line:
                            break
                        seen += line
                    self.assertIn(running, seen, f"{name}: it never ran")
                    time.sleep(delay)
                    proc.send_signal(signal.SIGINT)
                    sent = time.monotonic()
                    _, err = proc.communicate(timeout=10)
                    took = time.monotonic() - sent
                finally:
                    if proc.poll() is None:
                        proc.kill()
                        proc.communicate()
                print(f"Ctrl-C, {name}: exit {proc.returncode} after {took:.2f} s")
                self.assertLess(took, 2.0, name)
                self.assertEqual(proc.returncode, 130, (name, err))
                self.assertIn("gpufilter_fm_rx: interrupted", err, name)
                self.assertNotIn("Traceback", err, name)
                self.assertLessEqual(len(err.strip().splitlines()), 2, err)


if __name__ == "__main__":
    gr_unittest.run(qa_fm_receiver)
