#!/usr/bin/env bash
# Installs what is missing (scripts/install-deps.sh) and builds vksort, its tests and samples
# (Release) into build/. Used by scripts/demo.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
