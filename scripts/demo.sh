#!/usr/bin/env bash
# Sets up, builds, and runs the demo on the default Vulkan device (lavapipe where there is no
# GPU): sorts N key/value pairs, checks them on the CPU, prints the GPU time.
#   ./scripts/demo.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
./build/samples/demo/vksort_demo "${1:-1000000}"
