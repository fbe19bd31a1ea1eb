#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# For a GPU machine without GNU Radio (docs/developing.md): builds for its GPU
# (CUDA_ARCH, default 90) and packs Debian's GNU Radio runtime plus this build into
# .gpu/gr-runtime.tar.xz, which scripts/gpu_host_check.sh unpacks there. Needs the
# runtime packer in ../shared/gr-runtime, beside this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
arch="${CUDA_ARCH:-90}"
pack=../shared/gr-runtime/pack
[[ -x $pack ]] || { echo "stage_for_gpu_host: no runtime packer at $pack" >&2; exit 1; }
build=.gpu/build
cmake -S . -B "$build" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    -DPYTHON_EXECUTABLE=/usr/bin/python3 -DCMAKE_INSTALL_PREFIX=/usr/local >/dev/null
cmake --build "$build" -j"$(nproc)"
rm -rf .gpu/stage
cmake --install "$build" --prefix "$PWD/.gpu/stage" >/dev/null
# C++ test and benchmark binaries are not installed by the project; the check runs them.
mkdir -p .gpu/stage/bin
find "$build" -maxdepth 4 -type f -executable \( -name 'test_*' -o -name 'bench_*' \) \
    -exec cp {} .gpu/stage/bin/ \;
# The test suite's fault-injection module (built for tests, never installed) goes
# beside the staged gnuradio package, where the Python tests import it from.
module_dir=$(find .gpu/stage -type d -path '*/gnuradio/gpufilter' | head -1)
site_dir=$(dirname "$(dirname "$module_dir")")
cp "$build"/test_modules/gpufilter_test_hooks*.so "$site_dir/"
# The property-based tests need Hypothesis, which the GPU machine lacks: Debian's
# copy (python3-hypothesis, pure Python) and the packages it imports go there too.
for package in hypothesis sortedcontainers attr attrs; do
    source_dir=/usr/lib/python3/dist-packages/$package
    [[ -d $source_dir ]] || { echo "stage_for_gpu_host: $source_dir missing \
(apt-get install python3-hypothesis)" >&2; exit 1; }
    cp -r "$source_dir" "$site_dir/"
done
../shared/gr-runtime/pack --stage .gpu/stage --out .gpu/gr-runtime.tar.xz
ls -la .gpu/gr-runtime.tar.xz
