#!/usr/bin/env bash
# On the GPU machine (README, "Performance"): the test suite, the demo, vksort's benchmark, then
# CUB's (samples/bench/cub, built where CUDA is found) with the same modes and sizes, one after
# the other, with the SM clock logged throughout. Expects a Release build in build/ (with
# build/compare.py from ../shared/bench) and .gl/ from ../shared/tools/gpu-setup.sh. Results go
# to $OUT (default: ./gpu-results). VKSORT_BENCH_ARGS adds to both benchmarks' arguments.
set -uo pipefail
out=${OUT:-gpu-results}
mkdir -p "$out"
source .gl/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$out/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 > "$out/clocks.csv" &
logger=$!
VKSORT_REQUIRE_DEVICE=1 build/tests/vksort_tests 2>&1 | tail -40 > "$out/tests.log"; echo "tests exit ${PIPESTATUS[0]}" | tee -a "$out/tests.log"
VKSORT_TUNING=algorithm=2 VKSORT_REQUIRE_DEVICE=1 build/tests/vksort_tests 2>&1 | tail -40 > "$out/tests-rts.log"
echo "reduce-then-scan tests exit ${PIPESTATUS[0]}" | tee -a "$out/tests-rts.log"
build/samples/demo/vksort_demo 10000000 | tee "$out/demo.txt"
args="--modes ${VKSORT_BENCH_MODES:-keys32,pairs32,keys64,pairs64v32,pairs64v64,keysf32,pairs32b16} --sizes 100000,1000000,3000000,6000000 ${VKSORT_BENCH_ARGS:-}"
build/samples/bench/vksort_bench --profile 1 $args | tee "$out/vksort.csv"
build/samples/bench/vksort_cub_bench $args | tee "$out/cub.csv"   # after ours: never time Vulkan while CUDA runs
kill $logger
grep -v '^copy,' "$out/vksort.csv" > "$out/vksort-only.csv"
grep '^copy,' "$out/vksort.csv" > "$out/copy-only.csv"
python3 build/compare.py "$out/vksort-only.csv" "$out/cub.csv" | tee "$out/compare.txt"
echo "# vksort against the copy of its own bytes (speedup < 1: slower than one copy)"
python3 build/compare.py "$out/vksort-only.csv" "$out/copy-only.csv" | tail -3
