#!/usr/bin/env bash
# On the GPU machine (docs/PERFORMANCE.md, "Tuned on the device"): vksort_tune for a splat
# renderer's sorts and for every tile class, then the benchmark with the built-in tables and with
# the device's own tuning data, alternating (A B A B), then CUB's benchmark of the same rows,
# then the test suite with that tuning data (VKSORT_TUNING_DATA).
# Expects a Release build in build/ (and the CUB reference at build/cub/vksort_cub_bench), and
# .gl/env.sh where the machine lacks a Vulkan loader (CONTRIBUTING.md, "Measuring"). Results go to $OUT (default ./gpu-results): gpu.txt,
# clocks.csv, tune.txt, vksort.csv, cub.csv, tuning.bin, tests.log.
set -uo pipefail
out=${OUT:-gpu-results}
mkdir -p "$out"
[ -f .gl/env.sh ] && source .gl/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$out/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -lms 200 > "$out/clocks.csv" &
logger=$!
# The budgets of the device-tuning targets: a renderer's sorts in 10 s, every class in 60 s.
build/samples/tune/vksort_tune --sorts renderer --budget 10 --out "$out/renderer.bin" 2>/dev/null > "$out/tune.txt"
build/samples/tune/vksort_tune --sorts all --budget 60 --out "$out/tuning.bin" 2>/dev/null >> "$out/tune.txt"
rm -f "$out/renderer.bin"
args="--modes ${VKSORT_BENCH_MODES:-pairs32,pairs64v32,keys32,keys64} --min-log2 12 --max-log2 26 --step-log2 2
      --dists 4,16 --dist-log2 24 --warmup-ms 300 --copy 0 ${VKSORT_BENCH_ARGS:-}"
for round in 1 2; do
  build/samples/bench/vksort_bench $args | sed "s/^vksort,/builtin$round,/" >> "$out/vksort.csv"
  build/samples/bench/vksort_bench $args --tuning "$out/tuning.bin" | sed "s/^vksort,/tuned$round,/" >> "$out/vksort.csv"
done
build/cub/vksort_cub_bench ${args/--copy 0/} > "$out/cub.csv"   # after ours: never time Vulkan while CUDA runs
kill $logger
VKSORT_TUNING_DATA="$out/tuning.bin" VKSORT_REQUIRE_DEVICE=1 timeout 200 build/tests/vksort_tests \
  --test-suite=${VKSORT_TUNED_SUITES:-sort,keys,indirect,portions,tiles,tuner,contract,c_api} 2>&1 | tail -25 > "$out/tests.log"
echo "tests with tuning data: exit ${PIPESTATUS[0]}" | tee -a "$out/tests.log" "$out/gpu.txt"
