#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/gpu_host_check.sh: where its logs go (--out, else the variable OUT, else
./gpu_host_check_out), its usage errors, and the staged-bundle flow (a checkout that
carries .gpu/gr-runtime.tar.xz), with a stand-in bundle and demo so that no GPU is
needed."""

import os
import shutil
import stat
import subprocess
import tarfile
import tempfile

from gnuradio import gr_unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.normpath(os.path.join(HERE, "..", "..", "scripts", "gpu_host_check.sh"))

ENV_SH = """GR_RUNTIME="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PATH="$GR_RUNTIME/stage/bin:$PATH"
"""
FAKE_SMI = "#!/bin/sh\necho 'name, driver_version'\necho 'Stand-in GPU, 0'\n"
FAKE_DEMO = "print('stand-in demo ran')\n"
# Stand-ins that say how they were called.
FAKE_ARGS = "import sys\nprint('stand-in', *sys.argv)\n"
FAKE_DEVBUF = ("import sys\na = sys.argv[1:]\npath = a.pop(a.index('--csv') + 1)\n"
               "a.remove('--csv')\nopen(path, 'w').write('case,items\\ncopy ' + ' '.join(a)"
               " + '\\n')\nprint('stand-in log line')\n")


def write(path, text, executable=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if executable:
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class qa_gpu_host_check(gr_unittest.TestCase):
    def setUp(self):
        # A checkout of its own: the script, a stand-in demo and a stand-in bundle.
        self.tmp = tempfile.mkdtemp(prefix="qa_gpu_host_check_")
        self.checkout = os.path.join(self.tmp, "checkout")
        write(os.path.join(self.checkout, "scripts", "gpu_host_check.sh"),
              open(SCRIPT).read(), executable=True)
        write(os.path.join(self.checkout, "apps", "gpufilter_fir_demo.py"), FAKE_DEMO)
        write(os.path.join(self.checkout, "apps", "gpufilter_fm_rx"), FAKE_ARGS)
        write(os.path.join(self.checkout, "apps", "gpufilter_fm_band_rx"), FAKE_ARGS)
        write(os.path.join(self.checkout, "apps", "bench_device_buffers.py"), FAKE_DEVBUF)
        runtime = os.path.join(self.tmp, "pack", "gr-runtime")
        write(os.path.join(runtime, "env.sh"), ENV_SH)
        write(os.path.join(runtime, "stage", "bin", "nvidia-smi"), FAKE_SMI, True)
        os.makedirs(os.path.join(self.checkout, ".gpu"))
        with tarfile.open(os.path.join(self.checkout, ".gpu", "gr-runtime.tar.xz"),
                          "w:xz") as t:
            t.add(runtime, "gr-runtime")
        self.unpack = os.path.join(self.tmp, "unpack")
        os.makedirs(self.unpack)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_check(self, args, out_env=None, cwd=None):
        env = {k: v for k, v in os.environ.items() if k != "OUT"}
        env["GPUFILTER_BUNDLE_DIR"] = self.unpack
        env["TMPDIR"] = self.tmp   # band's WAV folders
        if out_env:
            env["OUT"] = out_env
        return subprocess.run(["bash", os.path.join(self.checkout, "scripts",
                                                    "gpu_host_check.sh"), *args],
                              capture_output=True, text=True, env=env, timeout=120,
                              cwd=cwd or self.tmp)

    def check_logs(self, out, run):
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        with open(os.path.join(out, "demo.log")) as f:
            self.assertIn("stand-in demo ran", f.read())
        with open(os.path.join(out, "gpu.txt")) as f:
            self.assertIn("Stand-in GPU", f.read())

    def test_001_out_variable(self):
        """The maintainers' flow: `bash scripts/gpu_host_check.sh demo` with OUT set,
        from a checkout that carries the bundle."""
        out = os.path.join(self.tmp, "from_env")
        self.check_logs(out, self.run_check(["demo"], out_env=out))
        self.assertTrue(os.path.isfile(os.path.join(self.unpack, "gr-runtime", "env.sh")))

    def test_002_out_option_wins(self):
        out = os.path.join(self.tmp, "from_option")
        run = self.run_check(["--out", "from_option", "demo"],
                             out_env=os.path.join(self.tmp, "from_env"))
        self.check_logs(out, run)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "from_env")))

    def test_003_default_out(self):
        self.check_logs(os.path.join(self.tmp, "gpu_host_check_out"), self.run_check(["demo"]))

    def test_004_usage_errors(self):
        for args in (["nonsense"], ["--frobnicate", "demo"], ["--out"]):
            with self.subTest(args=args):
                run = self.run_check(args)
                self.assertEqual(run.returncode, 2, run.stdout + run.stderr)
                self.assertIn("Usage:", run.stderr)
        run = self.run_check(["--help"])
        self.assertEqual(run.returncode, 0)
        self.assertIn("--out DIR", run.stderr)
        for mode in ("tests", "fm", "devbuf", "bench", "sanitize", "nlms", "soak"):
            self.assertIn(f"  {mode} ", run.stderr)

        self.assertIn("--python PY", run.stderr)   # the whole usage text

    def test_005_fm_runs_both_buffers(self):
        """fm: each chain as it runs by default (device buffers) and with
        --host-buffers, then the benchmark (which times both kinds of buffer
        itself)."""
        out = os.path.join(self.tmp, "fm_out")
        run = self.run_check(["--out", out, "fm"])
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        for chain in ("wbfm", "classic"):
            with open(os.path.join(out, f"fm_rx_{chain}.log")) as f:
                calls = [line for line in f if line.startswith("stand-in")]
            self.assertEqual(len(calls), 2, calls)
            self.assertNotIn("-buffers", calls[0])
            self.assertIn(f"--chain {chain} ", calls[0])
            self.assertIn(f"fm_{chain}.wav", calls[0])
            self.assertIn("--host-buffers", calls[1])
            self.assertIn(f"fm_{chain}_hostbuf.wav", calls[1])
        with open(os.path.join(out, "fm_bench_classic.log")) as f:
            bench = f.read()
        self.assertIn("--benchmark", bench)
        self.assertIn("fm_bench_classic.csv", bench)

    def test_005b_band(self):
        """band: the default receiver (device buffers, with the plot), --host-buffers
        and --cpu, each for the seconds given, each in a log of its own."""
        out = os.path.join(self.tmp, "band_out")
        run = self.run_check(["--out", out, "band", "3"])
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("GPU (device buffers, the default), 3 s", run.stdout)
        self.assertIn("GPU, --host-buffers, 3 s", run.stdout)
        want = {"gpu": "--plot", "hostbuf": "--host-buffers", "cpu": "--cpu"}
        for variant, flag in want.items():
            with open(os.path.join(out, f"band_rx_{variant}.log")) as f:
                calls = [line for line in f if line.startswith("stand-in")]
            self.assertEqual(len(calls), 1, calls)
            self.assertIn("--seconds 3 ", calls[0])
            self.assertIn(flag, calls[0])
            for other in want.values():
                if other != flag:
                    self.assertNotIn(other, calls[0])

    def test_006_devbuf(self):
        """devbuf: apps/bench_device_buffers.py with the arguments after the mode,
        its CSV in the out folder."""
        out = os.path.join(self.tmp, "devbuf_out")
        run = self.run_check(["--out", out, "devbuf", "--quick"])
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        with open(os.path.join(out, "bench_device_buffers.csv")) as f:
            self.assertEqual(f.read(), "case,items\ncopy --quick\n")


if __name__ == "__main__":
    gr_unittest.run(qa_gpu_host_check)
