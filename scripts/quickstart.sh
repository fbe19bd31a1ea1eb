#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Build gr-gpufilter from this checkout and run its demo or its tests, on Debian 12 or
# 13 with GNU Radio 3.10 from Debian and a CUDA toolkit in /usr/local/cuda.
#
#   scripts/quickstart.sh demo [receiver options]  build, then the FM receiver
#                                                (apps/gpufilter_fm_rx) on the built-in
#                                                FM band: writes build/fm_demo.wav
#   scripts/quickstart.sh test [ctest options]  build, then the whole ctest suite
#   scripts/quickstart.sh grc [files.grc]       build, then GNU Radio Companion with
#                                                this build's blocks (default: opens
#                                                apps/fm_receiver.grc); needs a display
#
# Safe to run again: packages already there are not reinstalled, and build/ is reused.
# Environment:
#   GPUFILTER_CUDA_ARCHITECTURES  e.g. 90 for an H100 only (faster build); default:
#                                 the project's default list (or what build/ already has)
#   CUDA_HOME                     CUDA toolkit (default /usr/local/cuda)
#   BUILD_DIR                     build directory (default <repo>/build)
#   JOBS                          parallel build jobs (default: all cores)

set -euo pipefail

usage() {
    cat >&2 <<'USAGE'
usage: scripts/quickstart.sh demo [receiver options]  build, then receive a station of
                                                     the built-in FM band into a WAV
       scripts/quickstart.sh test [ctest options]  build, then run the test suite
       scripts/quickstart.sh grc [files.grc]       build, then open GNU Radio Companion
                                                   with this build's blocks
USAGE
    exit 2
}

step() { printf '\n==> %s\n' "$*"; }
die() {
    printf 'quickstart: error: %s\n' "$*" >&2
    exit 1
}

[[ $# -ge 1 ]] || usage
command_name=$1
shift
case "$command_name" in
demo | test | grc) ;;
-h | --help | help) usage ;;
*) printf 'quickstart: unknown command "%s"\n' "$command_name" >&2 && usage ;;
esac

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$repo_root/build}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
jobs=${JOBS:-$(nproc)}
# GNU Radio's Python modules live in the system Python, whatever `python3` is on PATH.
python=/usr/bin/python3

# Packages of Debian 12 and 13 alike: build tools (git also lists the files the lint
# checks), GNU Radio (headers, cmake files, Python modules, grcc), pybind11 and
# pygccxml/castxml for GNU Radio's binding checks, GoogleTest, matplotlib for plots,
# hypothesis for the property tests, xz-utils for gpu_host_check.sh's bundle (tar -J),
# and python3-venv with ca-certificates for the lint, which installs its pinned
# clang-format from PyPI into the build tree (scripts/check_format.sh).
packages=(
    cmake g++ make pkg-config git xz-utils ca-certificates
    gnuradio gnuradio-dev
    pybind11-dev python3-pybind11 python3-numpy python3-pygccxml castxml
    libgtest-dev python3-matplotlib python3-hypothesis python3-venv
)
# GNU Radio Companion's window: GTK 3 through GObject introspection. Debian's gnuradio
# package does not depend on gir1.2-gtk-3.0, so a GNU Radio installed without it
# fails to start GRC ("Namespace Gtk not available").
if [[ $command_name == grc ]]; then
    packages+=(gir1.2-gtk-3.0 python3-gi-cairo)
    [[ -n ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]] || die "GNU Radio Companion needs a \
display: run this in a desktop session (or with ssh -X), where DISPLAY is set"
fi

step "Checking Debian packages"
[[ -r /etc/debian_version ]] ||
    die "this script is for Debian 12 or 13 (no /etc/debian_version)"
debian_version=$(cat /etc/debian_version)
case "$debian_version" in
12.* | 13.*) echo "Debian $debian_version" ;;
*) echo "Debian $debian_version: only 12 and 13 are tested; trying anyway" ;;
esac
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("$p")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
    echo "all ${#packages[@]} packages are installed"
else
    echo "missing: ${missing[*]}"
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null ||
            die "not root and no sudo: install as root: apt-get install ${missing[*]}"
        sudo=(sudo)
    fi
    step "Installing ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"
fi

step "Finding the CUDA toolkit"
nvcc=$cuda_home/bin/nvcc
[[ -x $nvcc ]] || die "no CUDA toolkit: $nvcc not found. Install the CUDA toolkit (12 or \
newer) from https://developer.nvidia.com/cuda-downloads so that it is in /usr/local/cuda, \
or set CUDA_HOME to where it is. Building needs no GPU."
cuda_version=$("$nvcc" --version | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
[[ -n $cuda_version ]] || die "could not read the CUDA version from '$nvcc --version'"
[[ ${cuda_version%%.*} -ge 12 ]] || die "CUDA $cuda_version in $cuda_home: 12 or newer is needed"
echo "nvcc: $nvcc (CUDA $cuda_version)"

step "Configuring into $build_dir"
cmake_args=(-S "$repo_root" -B "$build_dir"
    -DPYTHON_EXECUTABLE="$python"
    -DCMAKE_CUDA_COMPILER="$nvcc")
if [[ -n ${GPUFILTER_CUDA_ARCHITECTURES:-} ]]; then
    cmake_args+=(-DCMAKE_CUDA_ARCHITECTURES="$GPUFILTER_CUDA_ARCHITECTURES")
fi
cmake "${cmake_args[@]}"

step "Building with $jobs jobs"
cmake --build "$build_dir" -j "$jobs"

case "$command_name" in
demo)
    step "Receiving the built-in FM band with apps/gpufilter_fm_rx (from the build tree)"
    export PYTHONPATH=$build_dir/test_modules${PYTHONPATH:+:$PYTHONPATH}
    export LD_LIBRARY_PATH=$build_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    # Options given after "demo" come last, so they override these defaults.
    "$python" "$repo_root/apps/gpufilter_fm_rx" --seconds 5 --offset 300e3 \
        --wav "$build_dir/fm_demo.wav" "$@"
    step "Done: listen to the WAV above (e.g. aplay), or run with --help for more"
    ;;
grc)
    # No install needed: GRC reads the block descriptions from grc/, and the flowgraphs
    # it runs import the module and its library from the build tree.
    step "Starting GNU Radio Companion with the blocks of this build (GPU Filters)"
    export GRC_BLOCKS_PATH=$repo_root/grc${GRC_BLOCKS_PATH:+:$GRC_BLOCKS_PATH}
    export PYTHONPATH=$build_dir/test_modules${PYTHONPATH:+:$PYTHONPATH}
    export LD_LIBRARY_PATH=$build_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    [[ $# -gt 0 ]] || set -- "$repo_root/apps/fm_receiver.grc"
    exec gnuradio-companion "$@"
    ;;
test)
    step "Running the test suite (ctest) in $build_dir"
    cd "$build_dir"
    ctest --output-on-failure "$@"
    step "All tests passed"
    ;;
esac
