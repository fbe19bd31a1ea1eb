#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs on the GPU host (through the device tool) from a copy of the repository that
# carries .gpu/gr-runtime.tar.xz: every test with GPUFILTER_REQUIRE_GPU=1, then the
# demo. Logs go to $OUT (or /tmp/gpufilter-out). Usage: gpu_host_check.sh [tests|demo|all]
set -uo pipefail
what="${1:-all}"
out="${OUT:-/tmp/gpufilter-out}"
mkdir -p "$out"
tar xJf .gpu/gr-runtime.tar.xz -C /tmp
# shellcheck disable=SC1091
source /tmp/gr-runtime/env.sh
export GPUFILTER_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
status=0

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm \
    --format=csv | tee "$out/gpu.txt"

if [ "$what" = tests ] || [ "$what" = all ]; then
    for t in /tmp/gr-runtime/stage/bin/test_*; do
        echo "== $t"
        "$t" 2>&1 | tee "$out/$(basename "$t").log" | tail -4
        [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    done
    echo "== python QA"
    python3 -m unittest discover -s python/gpufilter -p 'qa_*.py' -v >"$out/python_qa.log" 2>&1 \
        || status=1
    grep -E "^(Ran|OK|FAILED)|ERROR:|FAIL:" "$out/python_qa.log"
fi

if [ "$what" = demo ] || [ "$what" = all ]; then
    for demo in apps/gpufilter_fir_demo.py; do
        [ -f "$demo" ] || continue
        echo "== $demo"
        python3 "$demo" 2>&1 | tee "$out/demo.log" || status=1
    done
fi
echo "gpu_host_check: exit status $status"
exit $status
