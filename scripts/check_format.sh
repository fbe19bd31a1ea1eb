#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a C++/CUDA file drifts from .clang-format (GNU Radio's style).
#
#   scripts/check_format.sh [--fix] [BUILD_DIR]
#
# clang-format versions format the same file differently (Debian 12 has 14, Debian 13
# has 19), so the lint runs one version everywhere: clang-format 14.0.6, Debian 12's.
# A clang-format of that version on PATH is used as it is; otherwise the PyPI package
# of that version is installed once into a virtual environment in BUILD_DIR (default
# <repo>/build), which needs python3-venv and access to PyPI the first time.
# --fix reformats the files in place with that version instead of checking them.
set -euo pipefail

pinned=14.0.6

fix=0
if [[ ${1:-} == --fix ]]; then
    fix=1
    shift
fi
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-$repo_root/build}
cd "$repo_root"

version_of() { "$1" --version 2>/dev/null | sed -n 's/.*clang-format version \([0-9.]*\).*/\1/p'; }

clang_format=
if command -v clang-format >/dev/null && [[ $(version_of clang-format) == "$pinned" ]]; then
    clang_format=$(command -v clang-format)
else
    venv=$build_dir/clang-format-$pinned
    if [[ $(version_of "$venv/bin/clang-format") != "$pinned" ]]; then
        echo "installing clang-format $pinned from PyPI into $venv"
        rm -rf "$venv"
        /usr/bin/python3 -m venv "$venv" || {
            echo "check_format: cannot make a virtual environment: install python3-venv" >&2
            exit 1
        }
        "$venv/bin/pip" install --quiet --disable-pip-version-check \
            "clang-format==$pinned" || {
            echo "check_format: cannot install clang-format $pinned from PyPI" >&2
            rm -rf "$venv"
            exit 1
        }
    fi
    clang_format=$venv/bin/clang-format
fi

files=()
while IFS= read -r f; do
    files+=("$f")
done < <(git ls-files '*.h' '*.cc' '*.cu' '*.cuh' | grep -v '^docs/doxygen/')

if [[ $fix -eq 1 ]]; then
    "$clang_format" -i "${files[@]}"
    echo "clang-format $pinned: reformatted ${#files[@]} files"
    exit 0
fi

bad=0
for f in "${files[@]}"; do
    if ! "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "clang-format $pinned would change: $f"
        bad=1
    fi
done
[[ $bad -eq 0 ]] && echo "clang-format $pinned: no drift in ${#files[@]} files"
exit "$bad"
