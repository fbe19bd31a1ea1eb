#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks and benchmarks on a machine with an NVIDIA GPU, from a checkout of this
# repository. Every test runs with GPUFILTER_REQUIRE_GPU=1, so a missing GPU is a
# failure, not a silent CPU run. See docs/benchmarks.md ("Running it").
#
# Usage: scripts/gpu_host_check.sh [--out DIR] [--build DIR] [--python PY] MODE [args]
#   MODE  tests  the whole test suite with GPUFILTER_REQUIRE_GPU=1
#         demo   apps/gpufilter_fir_demo.py
#         all    tests, then demo
#         fm     the FM receiver on both chains, as it runs by default (device
#                buffers) and with --host-buffers, then its benchmark: CPU chain, GPU
#                chain with host and with device buffers, blocks.copy reference
#                (minutes)
#         band   the whole-band FM receiver (apps/gpufilter_fm_band_rx) on the built-in
#                20 MS/s band: GPU as it runs by default (device buffers), GPU with
#                --host-buffers, and --cpu, each for the seconds given after "band"
#                (default 10); logs, tables and the spectrum plot in the out folder,
#                WAVs in /tmp
#         devbuf apps/bench_device_buffers.py (args after "devbuf" go to it, e.g.
#                --quick) into bench_device_buffers.csv
#         bench  bench_fir (args after "bench" go to it), then apps/bench_cupy.py and
#                the plots (minutes)
#         sanitize  NVIDIA compute-sanitizer (memcheck, racecheck, synccheck,
#                initcheck) over the engine tests and a flowgraph of each block
#                family (scripts/sanitize_flowgraphs.py); fails on any reported error
#                (GPUFILTER_SANITIZE_TOOLS="racecheck ..." runs only those tools;
#                GPUFILTER_SANITIZE_TIMEOUT: seconds per run, default 600)
#         nlms   apps/bench_nlms.py (args after "nlms" go to it), then the echo
#                canceller app and its ensemble plot (minutes)
#         latency  apps/bench_latency.py --fm (args after "latency" go to it) into
#                bench_latency.csv: first output and steady lag of every block family
#                on throttled streams beside gr-filter's; then its --throughput rows
#                (default against infinite max_latency, unthrottled) into
#                bench_latency_throughput.csv (minutes)
#         soak   scripts/soak.py (args after "soak" go to it, e.g. --samples 1e10):
#                long runs with retunes and tap changes, checked at checkpoints
#   --out DIR     where logs, CSVs and plots go (default: the folder in the
#                 environment variable OUT when it is set, else
#                 ./gpu_host_check_out)
#   --build DIR   the build to check (default: build/, as scripts/quickstart.sh makes it)
#   --python PY   the Python that has CuPy, for bench_cupy.py (default: the first
#                 python3 on PATH that can import cupy; none: no CuPy rows)
#
# Where the machine has no GNU Radio, a GNU Radio runtime bundle packed by
# scripts/stage_for_gpu_host.sh (.gpu/gr-runtime.tar.xz in the checkout) is unpacked
# into /tmp (or $GPUFILTER_BUNDLE_DIR) and used instead of --build: see
# docs/developing.md.
set -uo pipefail

usage() {
    sed -n '7,/^#$/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

out=${OUT:-$PWD/gpu_host_check_out}
build=
cupy_python=${GPUFILTER_CUPY_PYTHON:-}
while [[ $# -gt 0 ]]; do
    case $1 in
    --out) [[ $# -ge 2 ]] || usage; out=$2; shift 2 ;;
    --build) [[ $# -ge 2 ]] || usage; build=$2; shift 2 ;;
    --python) [[ $# -ge 2 ]] || usage; cupy_python=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    -*) echo "gpu_host_check: unknown option $1" >&2; usage ;;
    *) break ;;
    esac
done
what=${1:-all}
[[ $# -gt 0 ]] && shift
case $what in
tests | demo | all | fm | band | devbuf | bench | sanitize | nlms | latency | soak) ;;
*) echo "gpu_host_check: unknown mode '$what'" >&2; usage ;;
esac
# Paths given relative to where this was started, before moving to the checkout.
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
if [[ -n $build ]]; then
    build=$(cd "$build" 2>/dev/null && pwd) || {
        echo "gpu_host_check: --build: no such directory" >&2
        exit 2
    }
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
build=${build:-$PWD/build}
echo "gpu_host_check $what: logs in $out"

# Before the bundle's environment changes PYTHONPATH and LD_LIBRARY_PATH: the Python
# with CuPy (it must not see GNU Radio's bundled libraries).
if [[ -z $cupy_python && $what == bench ]]; then
    while read -r candidate; do
        if env -u LD_LIBRARY_PATH -u PYTHONPATH "$candidate" -c "import cupy" 2>/dev/null; then
            cupy_python=$candidate
            break
        fi
    done < <(type -a -p python3 2>/dev/null)
fi

if [[ -f .gpu/gr-runtime.tar.xz ]]; then
    # A staged bundle: GNU Radio, this build installed, and the test binaries.
    unpack=${GPUFILTER_BUNDLE_DIR:-/tmp}
    tar xJf .gpu/gr-runtime.tar.xz -C "$unpack" || exit 1
    bundle=$unpack/gr-runtime
    # shellcheck disable=SC1091
    source "$bundle/env.sh"
    bench_fir=bench_fir
else
    bundle=
    [[ -f $build/CMakeCache.txt ]] || {
        echo "gpu_host_check: no build in $build: run scripts/quickstart.sh test first, \
or give --build DIR" >&2
        exit 1
    }
    export PYTHONPATH=$build/test_modules${PYTHONPATH:+:$PYTHONPATH}
    export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    bench_fir=$build/apps/bench_fir
fi
python=python3
[[ -x /usr/bin/python3 && -z $bundle ]] && python=/usr/bin/python3 # GNU Radio's Python
export GPUFILTER_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
status=0

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm \
    --format=csv | tee "$out/gpu.txt" || status=1

if [[ $what == tests || $what == all ]]; then
    if [[ -n $bundle ]]; then
        for t in "$bundle"/stage/bin/test_*; do
            echo "== $t"
            "$t" 2>&1 | tee "$out/$(basename "$t").log" | tail -4
            [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
        done
        echo "== python QA"
        "$python" -m unittest discover -s python/gpufilter -p 'qa_*.py' -v \
            >"$out/python_qa.log" 2>&1 || status=1
        grep -E "^(Ran|OK|FAILED)|ERROR:|FAIL:" "$out/python_qa.log"
    else
        echo "== ctest in $build"
        (cd "$build" && ctest --output-on-failure) >"$out/ctest.log" 2>&1 || status=1
        tail -3 "$out/ctest.log"
    fi
fi

if [[ $what == demo || $what == all ]]; then
    echo "== apps/gpufilter_fir_demo.py"
    "$python" apps/gpufilter_fir_demo.py 2>&1 | tee "$out/demo.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi

if [[ $what == fm ]]; then
    for chain in wbfm classic; do
        # Device buffers (the default): its PCIe line should read 1.00x the input and
        # 1.00x the audio decimator's output.
        echo "== FM receiver, $chain chain (device buffers)"
        "$python" apps/gpufilter_fm_rx --chain "$chain" --seconds 10 --progress 2 \
            --wav "$out/fm_$chain.wav" 2>&1 | tee "$out/fm_rx_$chain.log"
        [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
        # The same with host buffers, in the same log.
        echo "== FM receiver, $chain chain, --host-buffers" |
            tee -a "$out/fm_rx_$chain.log"
        "$python" apps/gpufilter_fm_rx --chain "$chain" --seconds 10 --progress 2 \
            --host-buffers --wav "$out/fm_${chain}_hostbuf.wav" 2>&1 |
            tee -a "$out/fm_rx_$chain.log"
        [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    done
    echo "== FM receiver benchmark (classic chain; CPU, GPU host buffers, GPU device buffers)"
    "$python" apps/gpufilter_fm_rx --benchmark --chain classic \
        --csv "$out/fm_bench_classic.csv" --plot "$out/fm_bench_classic.png" 2>&1 |
        tee "$out/fm_bench_classic.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    # Without matplotlib here, plot elsewhere from the CSV:
    #   apps/gpufilter_fm_rx --plot-from fm_bench_classic.csv --plot fm_receiver_classic.png
fi

if [[ $what == band ]]; then
    seconds=${1:-10}
    for variant in gpu hostbuf cpu; do
        case $variant in
        gpu) flags=(--plot "$out/band.png") label="GPU (device buffers, the default)" ;;
        hostbuf) flags=(--host-buffers) label="GPU, --host-buffers" ;;
        cpu) flags=(--cpu) label="--cpu" ;;
        esac
        echo "== whole-band FM receiver, $label, $seconds s"
        wavs=$(mktemp -d "${TMPDIR:-/tmp}/band_$variant.XXXXXX")
        "$python" apps/gpufilter_fm_band_rx --seconds "$seconds" --progress 2 \
            --out "$wavs" "${flags[@]}" 2>&1 | tee "$out/band_rx_$variant.log"
        [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
        echo "WAVs: $(find "$wavs" -name 'station_*.wav' | wc -l) in $wavs" |
            tee -a "$out/band_rx_$variant.log"
    done
fi

if [[ $what == devbuf ]]; then
    echo "== apps/bench_device_buffers.py $*"
    "$python" apps/bench_device_buffers.py --csv "$out/bench_device_buffers.csv" "$@" \
        >"$out/bench_device_buffers.log" 2>&1 || status=1
    cat "$out/bench_device_buffers.csv"
    tail -5 "$out/bench_device_buffers.log"
fi

if [[ $what == latency ]]; then
    echo "== apps/bench_latency.py --fm $*"
    "$python" apps/bench_latency.py --fm --csv "$out/bench_latency.csv" "$@" 2>&1 |
        tee "$out/bench_latency.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    echo "== apps/bench_latency.py --throughput"
    "$python" apps/bench_latency.py --throughput --seconds 1 \
        --csv "$out/bench_latency_throughput.csv" 2>&1 | tee -a "$out/bench_latency.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi

if [[ $what == sanitize ]]; then
    cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    tests_dir=${bundle:+$bundle/stage/bin}
    tests_dir=${tests_dir:-$build/lib/cuda/tests}
    # memcheck over whole test binaries. racecheck, synccheck and initcheck are one
    # to two orders slower: over the first type's tests of state across calls and of
    # the host path, and a shorter flowgraph run. The test that provokes a CUDA error
    # on purpose is left out (the sanitizer reports it, rightly); binaries with no GPU
    # code are skipped.
    for tool in ${GPUFILTER_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
        filter='*:-*cuda_failure*'
        samples=40000
        if [[ $tool != memcheck ]]; then
            filter='*/0.*split*:*host_stream*:*_stream_*/0:*pfb_channelizer_test.any_split*'
            filter+=':*pfb_decimator_test.set_taps*:*arb_engine_test.non_finite*'
            filter+=':*pfb_interpolator_test.set_taps*:*pfb_synthesizer_test.fused_and*'
            filter+=':*ring_memory.device_side*:*stream_handoff.writer_waits*'
            filter+=':*fft_fir_test/1.explicit_fft_size*:*fft_fir_test/0.partitioned_path*'
            filter+=':*fft_fir_test/0.cluster_path*:*fft_fir_test/1.cluster_path*'
            filter+=':*fir2d_fft_test/0.every_fused_row_size*'
            filter+=':*pfb_channelizer_test.fused_set_taps*:*pfb_channelizer_test.fused_integer*'
            filter+=':*nlms_engine_test.rows_in_calls_across_step*'
            filter+=':-*cuda_failure*'
            samples=8000
        fi
        for t in "$tests_dir"/test_*; do
            [[ -x $t ]] || continue
            log="$out/sanitize_${tool}_$(basename "$t").log"
            timeout "${GPUFILTER_SANITIZE_TIMEOUT:-600}" "$cs" --tool "$tool" \
                --error-exitcode 3 "$t" \
                --gtest_filter="$filter" >"$log" 2>&1
            rc=$?
            if grep -q "terminated before first instrumented API call" "$log"; then
                echo "$tool $(basename "$t"): nothing run on the GPU, skipped"
                continue
            fi
            echo "$tool $(basename "$t"): exit $rc, $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log"), $(grep -m1 -E '^\[  PASSED  \]' "$log")"
            [[ $rc -eq 0 ]] || status=1
        done
        log="$out/sanitize_${tool}_flowgraphs.log"
        GPUFILTER_SANITIZE_SAMPLES=$samples timeout "${GPUFILTER_SANITIZE_TIMEOUT:-600}" \
            "$cs" --tool "$tool" \
            --error-exitcode 3 "$python" scripts/sanitize_flowgraphs.py >"$log" 2>&1
        rc=$?
        echo "$tool flowgraphs: exit $rc, $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log")"
        [[ $rc -eq 0 ]] || status=1
    done
fi

if [[ $what == bench ]]; then
    echo "== bench_fir $*"
    "$bench_fir" --csv "$out/bench_fir.csv" --json "$out/bench_fir.json" "$@" 2>&1 |
        tee "$out/bench_fir.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    if [[ -n $cupy_python ]]; then
        echo "== apps/bench_cupy.py ($cupy_python)"
        env -u LD_LIBRARY_PATH -u PYTHONPATH "$cupy_python" apps/bench_cupy.py \
            --csv "$out/bench_cupy.csv" 2>&1 | tee "$out/bench_cupy.log"
        [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    else
        echo "== no Python with CuPy on PATH (give --python PY): no CuPy rows"
    fi
    # Plots where matplotlib exists; otherwise plot from the CSVs on another machine.
    plot_python=${cupy_python:-python3}
    env -u LD_LIBRARY_PATH -u PYTHONPATH "$plot_python" apps/plot_benchmarks.py \
        "$out"/bench_*.csv --out "$out/plots" || echo "(no plots here: see above)"
fi
if [[ $what == nlms ]]; then
    echo "== apps/bench_nlms.py $*"
    "$python" apps/bench_nlms.py --csv "$out/nlms_bench.csv" "$@" 2>&1 |
        tee "$out/nlms_bench.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    echo "== apps/gpufilter_aec"
    "$python" apps/gpufilter_aec 2>&1 | tee "$out/aec.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
    "$python" apps/gpufilter_aec --ensemble 256 --signal white --taps 1024 \
        --echo-ms 50 --seconds 4 --csv "$out/aec_ensemble.csv" \
        --plot "$out/aec_ensemble.png" 2>&1 |
        tee -a "$out/aec.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi
if [[ $what == soak ]]; then
    echo "== scripts/soak.py $*"
    "$python" scripts/soak.py "$@" 2>&1 | tee "$out/soak.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi
echo "gpu_host_check: exit status $status"
exit $status
