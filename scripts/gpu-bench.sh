#!/usr/bin/env bash
# On the GPU machine (docs/PERFORMANCE.md): the test suite per algorithm, the demo, vksort's
# benchmark, then CUB's (samples/bench/cub: configure with -DVKSORT_BUILD_CUB_BENCH=ON where CUDA
# is) with the same modes and sizes, one after the other, with the SM clock logged throughout;
# then reduce-then-scan and the indirect form at small and large sizes, next to CUB again. Expects a Release build in build/, and
# .gl/env.sh where the machine lacks a Vulkan loader (CONTRIBUTING.md, "Measuring"). Results go to $OUT (default: ./gpu-results); the table
# is report.md (scripts/bench_report.py; the plot needs matplotlib, made where it is installed).
# VKSORT_BENCH_MODES and VKSORT_BENCH_ARGS replace / add to the main run's modes and arguments;
# VKSORT_BENCH_TESTS=0 leaves the test suites out (when they ran on the same build already).
# Eight files at most (the device tool returns no more): gpu.txt, tests.log, clocks.csv,
# vksort.csv, cub.csv, forms.csv, cub-forms.csv, report.md.
set -uo pipefail
out=${OUT:-gpu-results}
mkdir -p "$out"
[ -f .gl/env.sh ] && source .gl/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$out/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 > "$out/clocks.csv" &
logger=$!
if [ "${VKSORT_BENCH_TESTS:-1}" != 0 ]; then
  VKSORT_REQUIRE_DEVICE=1 build/tests/vksort_tests 2>&1 | tail -40 > "$out/tests.log"
  echo "tests exit ${PIPESTATUS[0]}" | tee -a "$out/tests.log" "$out/gpu.txt"
  VKSORT_TUNING=algorithm=2 VKSORT_REQUIRE_DEVICE=1 build/tests/vksort_tests 2>&1 | tail -40 >> "$out/tests.log"
  echo "reduce-then-scan tests exit ${PIPESTATUS[0]}" | tee -a "$out/tests.log" "$out/gpu.txt"
fi
build/samples/demo/vksort_demo 10000000 | tee -a "$out/gpu.txt"

# Every power of two from 2^10 to 2^28, 100k/1M/3M/6M, q1..q16 at 2^26; the copy ceiling per row.
args="--modes ${VKSORT_BENCH_MODES:-keys32,pairs32,keys64,pairs64v32,pairs32b16} --step-log2 1 --warmup-ms 400
      --sizes 100000,1000000,3000000,6000000 ${VKSORT_BENCH_ARGS:-}"
build/samples/bench/vksort_bench --profile 1 $args > "$out/vksort.csv"
build/samples/bench/vksort_cub_bench $args > "$out/cub.csv"   # after ours: never time Vulkan while CUDA runs

# The other forms, keys32 and pairs32: reduce-then-scan, the count read from a GPU buffer.
small="--modes keys32,pairs32 --min-log2 24 --max-log2 28 --dists none --warmup-ms 400 --copy 0
       --sizes 1000,4000,16000,64000,100000"
VKSORT_TUNING=algorithm=2 build/samples/bench/vksort_bench $small > "$out/forms.csv"
build/samples/bench/vksort_bench $small --indirect 1 >> "$out/forms.csv"
build/samples/bench/vksort_cub_bench ${small/--copy 0/} > "$out/cub-forms.csv"
kill $logger

python3 scripts/bench_report.py "$out/vksort.csv" "$out/cub.csv" --md "$out/report.md"
cat "$out/report.md"
for form in rts indirect; do
  echo "# vksort-$form against CUB"
  grep "^vksort-$form," "$out/forms.csv" > "$out/form.tmp"
  python3 scripts/bench_report.py "$out/form.tmp" "$out/cub-forms.csv"
  rm "$out/form.tmp"
done
