#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs on the GPU host (through the device tool) from a copy of the repository that
# carries .gpu/gr-runtime.tar.xz: every test with GPUFILTER_REQUIRE_GPU=1, then the
# demo. Logs go to $OUT (or /tmp/gpufilter-out).
# Usage: gpu_host_check.sh [tests|demo|all]
#        gpu_host_check.sh bench [bench_fir options]   (not part of all: minutes long)
#        gpu_host_check.sh fm   (not part of all: minutes long) the FM receiver on both
#        chains and its benchmark; draw the plot elsewhere from the CSV if this host has
#        no matplotlib:
#   apps/gpufilter_fm_rx --plot-from fm_bench_classic.csv --plot docs/fm_receiver_classic.png
set -uo pipefail
what="${1:-all}"
[ $# -gt 0 ] && shift
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
if [ "$what" = fm ]; then
    for chain in wbfm classic; do
        echo "== FM receiver, $chain chain"
        python3 apps/gpufilter_fm_rx --chain "$chain" --seconds 10 --progress 2 \
            --wav "$out/fm_$chain.wav" 2>&1 | tee "$out/fm_rx_$chain.log" || status=1
    done
    echo "== FM receiver benchmark (classic chain)"
    python3 apps/gpufilter_fm_rx --benchmark --chain classic --csv "$out/fm_bench_classic.csv" \
        --plot "$out/fm_bench_classic.png" 2>&1 | tee "$out/fm_bench_classic.log" || status=1
fi
if [ "$what" = bench ]; then
    # bench_fir: every family, table on stdout, CSV and JSON for docs/benchmarks.md.
    echo "== bench_fir $*"
    bench_fir --csv "$out/bench_fir.csv" --json "$out/bench_fir.json" "$@" 2>&1 |
        tee "$out/bench_fir.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    # CuPy lives in the host's own Python, which must not see the bundle's libraries.
    cupy_python=/opt/torch/.venv/bin/python3
    [ -x "$cupy_python" ] || cupy_python=python3
    echo "== bench_cupy.py ($cupy_python)"
    env -u LD_LIBRARY_PATH -u PYTHONPATH "$cupy_python" apps/bench_cupy.py \
        --csv "$out/bench_cupy.csv" 2>&1 | tee "$out/bench_cupy.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    # Plots where matplotlib exists (the bundle has none); otherwise plot from the CSVs
    # on the build machine.
    env -u LD_LIBRARY_PATH -u PYTHONPATH "$cupy_python" apps/plot_benchmarks.py \
        "$out"/bench_*.csv --out "$out/plots" || echo "(no plots here: see above)"
fi
echo "gpu_host_check: exit status $status"
exit $status
