#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Install a build into a temporary prefix and check that everything is where the
README says: the Python module (imported from there, not from the build tree), the
library, the public headers, the apps, the GRC blocks and the documentation.

    scripts/check_install.py BUILD_DIR     (ctest runs it as install_to_prefix)

Run it with the Python that GNU Radio's modules belong to (/usr/bin/python3 on
Debian). Exit status 0 when every check passes.
"""

import os
import shutil
import subprocess
import sys
import tempfile


def cached(build, name):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    return None


def documented_python_dir(configured_prefix):
    """The README's rule: /usr/local (the default prefix) installs the module in
    lib/python3.X/dist-packages, any other prefix in lib/python3.X/site-packages."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    where = "dist-packages" if os.path.normpath(configured_prefix) == "/usr/local" \
        else "site-packages"
    return os.path.join("lib", version, where)


def main(argv):
    if len(argv) != 1 or not os.path.isfile(os.path.join(argv[0], "CMakeCache.txt")):
        sys.exit(__doc__)
    build = os.path.abspath(argv[0])
    configured = cached(build, "CMAKE_INSTALL_PREFIX")
    failures = []

    def check(ok, what):
        print(("ok:     " if ok else "FAILED: ") + what)
        if not ok:
            failures.append(what)

    prefix = tempfile.mkdtemp(prefix="gpufilter_install_")
    try:
        run = subprocess.run(["cmake", "--install", build, "--prefix", prefix],
                             capture_output=True, text=True)
        check(run.returncode == 0, f"cmake --install {build} --prefix {prefix}"
              + ("" if run.returncode == 0 else "\n" + run.stdout + run.stderr))
        if run.returncode:
            return 1
        python_dir = os.path.join(prefix, documented_python_dir(configured))
        lib_dir = os.path.join(prefix, "lib", "x86_64-linux-gnu")
        if not os.path.isdir(lib_dir):   # a distribution without multiarch directories
            lib_dir = os.path.join(prefix, "lib")
        check(os.path.isfile(os.path.join(python_dir, "gnuradio", "gpufilter",
                                          "__init__.py")),
              f"module in {python_dir} (configured prefix {configured})")
        # Only the documented variables: nothing of the build tree on the paths.
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "GRC_BLOCKS_PATH")}
        env["PYTHONPATH"] = python_dir
        env["LD_LIBRARY_PATH"] = lib_dir
        probe = ("import gnuradio.gpufilter as g; print(g.__file__); "
                 "b = g.fir_filter_ccf(2, [0.5, 0.5], g.device_cpu); print(b.decimation())")
        run = subprocess.run([sys.executable, "-c", probe], capture_output=True,
                             text=True, env=env, cwd=prefix)
        lines = run.stdout.split()
        check(run.returncode == 0 and lines and lines[0].startswith(python_dir)
              and lines[-1] == "2",
              "import gnuradio.gpufilter with PYTHONPATH=<prefix>/"
              f"{documented_python_dir(configured)} and LD_LIBRARY_PATH=<prefix>/"
              f"{os.path.relpath(lib_dir, prefix)}: {run.stdout.strip()} {run.stderr.strip()}")
        for app in ("gpufilter_fm_rx", "gpufilter_fir_demo.py", "gpufilter_aec"):
            check(os.access(os.path.join(prefix, "bin", app), os.X_OK), f"bin/{app}")
        guide = os.path.join(prefix, "share", "doc", "gr-gpufilter", "docs",
                             "fm_receiver.md")
        for path in ("README.md", "docs/fm_receiver.md", "docs/benchmarks.md",
                     "docs/img/fm_receiver_classic.png", "docs/results/bench_fir.csv"):
            check(os.path.isfile(os.path.join(prefix, "share", "doc", "gr-gpufilter",
                                              path)), f"share/doc/gr-gpufilter/{path}")
        run = subprocess.run([sys.executable, os.path.join(prefix, "bin", "gpufilter_fm_rx"),
                              "--help"], capture_output=True, text=True, env=env)
        check(run.returncode == 0 and guide in run.stdout,
              f"gpufilter_fm_rx --help points to {guide}")
        check(os.path.isfile(os.path.join(prefix, "share", "gnuradio", "grc", "blocks",
                                          "gpufilter_fir_filter_xxx.block.yml")),
              "GRC blocks in share/gnuradio/grc/blocks")
        # The headers by subject compile on their own, and device.h still declares
        # what it declared before they were split from it (users' code includes it).
        compiler = cached(build, "CMAKE_CXX_COMPILER") or "c++"
        include = os.path.join(prefix, "include")
        uses = {
            "filter_method.h": "auto m = gr::gpufilter::parse_filter_method(\"fft\");"
                               " gr::gpufilter::set_default_filter_method(m);",
            "transfer.h": "gr::gpufilter::set_host_transfer("
                          "gr::gpufilter::host_transfer::dma_in_place);"
                          " gr::gpufilter::set_device_buffers(true);",
        }
        uses["device.h"] = ("int d = gr::gpufilter::device_auto + "
                            "gr::gpufilter::cuda_device_count(); (void)d; "
                            + uses["filter_method.h"] + " " + uses["transfer.h"])
        for header, body in uses.items():
            source = (f"#include <gnuradio/gpufilter/{header}>\n"
                      f"void use() {{ {body} }}\n")
            run = subprocess.run([compiler, "-std=c++17", "-fsyntax-only", "-I", include,
                                  "-x", "c++", "-"], input=source, capture_output=True,
                                 text=True)
            check(run.returncode == 0,
                  f"include/gnuradio/gpufilter/{header} compiles on its own"
                  + ("" if run.returncode == 0 else "\n" + run.stderr))
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "the install is as documented")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
