#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite with core and synchronization validation:
# three times on lavapipe, at subgroup sizes 4, 8 and 16 (LP_NATIVE_VECTOR_WIDTH 128, 256, 512),
# then once on the default device when that is another one (a GPU). Nothing may skip.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
export VKSORT_REQUIRE_DEVICE=1
for width in 128 256 512; do
  echo "== lavapipe, LP_NATIVE_VECTOR_WIDTH=$width"
  LP_NATIVE_VECTOR_WIDTH=$width VKSORT_DEVICE=llvmpipe ctest --test-dir build --output-on-failure
done
if command -v vulkaninfo >/dev/null && vulkaninfo --summary 2>/dev/null | grep -q 'PHYSICAL_DEVICE_TYPE_\(DISCRETE\|INTEGRATED\)_GPU'; then
  echo "== default device"
  ctest --test-dir build --output-on-failure
fi
