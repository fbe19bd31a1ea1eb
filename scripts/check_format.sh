#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a C++/CUDA file drifts from .clang-format (GNU Radio's style).
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
while IFS= read -r f; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "clang-format would change: $f"
        bad=1
    fi
done < <(git ls-files '*.h' '*.cc' '*.cu' '*.cuh' | grep -v '^docs/doxygen/')
[ "$bad" -eq 0 ] && echo "clang-format: no drift"
exit "$bad"
