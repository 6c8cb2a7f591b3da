#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite with core and synchronization validation:
# three times on lavapipe, at subgroup sizes 4, 8 and 16 (LP_NATIVE_VECTOR_WIDTH 128, 256, 512),
# once more built with AddressSanitizer and UndefinedBehaviorSanitizer, then on the default
# device when that is another one (a GPU), once per algorithm. Nothing may skip. The consumer
# tests (packaging) run in the first lavapipe round.
# The sorter's own choice is Onesweep on every device, lavapipe too: its look-back falls back
# rather than wait on a workgroup lavapipe has not run (glsl/lookback.glsl). Reduce-then-scan runs
# where suites force it (the algorithms suite compares both). Then the sorting suites again with
# workgroups that loop over tiles (persistent, NVIDIA's tuning) on 1 and 2 lavapipe threads, where
# workgroups wait on ones no thread runs. Every suite has a timeout (tests/CMakeLists.txt).
# Every lavapipe round names its vector width (LP_NATIVE_VECTOR_WIDTH): llvmpipe's own choice
# follows the CPU, AVX-512 or not, and what runs here must not.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
export VKSORT_REQUIRE_DEVICE=1
# Suites run side by side, one per core: on a cold shader cache lavapipe spends most of the time
# compiling pipelines, one thread per process.
jobs=(-j "$(nproc)")
# The consumer tests build the package and the source tree into projects of their own, and the
# AMD pipelines compile on RADV's null devices whatever the round's device: once.
consumer='^$'
# The soak's random configurations: 250 per lavapipe round, 100 in the sanitizer round (it looks
# for memory errors, which the first configurations show as well as the last), 500 on a GPU.
lavapipe_soak=${VKSORT_SOAK_COUNT:-250}
sanitizer_soak=${VKSORT_SOAK_COUNT:-100}
for width in 128 256 512; do
  echo "== lavapipe, LP_NATIVE_VECTOR_WIDTH=$width"
  # At 512 bits llvmpipe's LLVM 15 (Debian 12's Mesa 22.3.6) crashes compiling the splats
  # sample's draw pipelines, on CPUs with AVX-512 and without (different LLVM passes, both
  # SIGSEGV); its compute kernels compile. So the splat programs, which draw, run in the 128- and
  # 256-bit rounds only, whatever the CPU: subgroup size is nothing to them (tune_cli draws a
  # frame with tuning data too).
  splats='^$'  # a regex that excludes nothing
  if [ "$width" = 512 ]; then
    echo "   (vksort.splats, splats_cli, splats_window, splats_without_glfw, tune_cli: 128 and 256 bits only, llvmpipe cannot draw them at 512)"
    splats='vksort\.(splats|tune_cli)'
  fi
  VKSORT_SOAK_COUNT=$lavapipe_soak LP_NATIVE_VECTOR_WIDTH=$width VKSORT_DEVICE=llvmpipe \
    ctest --test-dir build "${jobs[@]}" --output-on-failure \
    -E "$splats|$consumer"
  consumer='consumer|radv_pipelines'
done
for threads in 1 2; do
  echo "== lavapipe, LP_NUM_THREADS=$threads, persistent workgroups"
  VKSORT_TUNING=persistent=1 LP_NUM_THREADS=$threads VKSORT_DEVICE=llvmpipe \
    ctest --test-dir build "${jobs[@]}" --output-on-failure -R '^vksort\.(sort|indirect|portions|fallback)$'
done
# Sanitizers: memory errors and undefined behaviour in vksort and its tests. Leak checks
# are off: the only leaks reported come from driver and layer modules already unloaded, where
# nothing can be attributed or suppressed. The consumer tests are left out here (they link this
# instrumented library into an uninstrumented project), and so are the programs' command-line
# tests (demo, benchmark, splats, vksort_tune), the AMD pipelines, the splats window and headless start, the
# benchmark's workloads and depth keys, and the GPU-AV reproduction (none of those programs is built
# here). Only the test binaries are built (the samples they test are libraries they
# link); the Release build above compiled everything else. The constant-pass, algorithms and
# tiles suites are left out too: what they test is kernels' choices, their host code is the other
# suites' (gpuSort; reduce-then-scan's recording runs in the setup and shared-memory suites; the
# tiers, fitting and plans of every vendor's tables in the tuning suite), and under the
# sanitizers they took most of that round's time (tiles 446 s of 827, algorithms 647).
echo "== lavapipe, AddressSanitizer + UndefinedBehaviorSanitizer"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$sanitize" \
      -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize"
cmake --build build-sanitize -j "$(nproc)" --target vksort_tests vksort_tuning_tests
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 VKSORT_SOAK_COUNT=$sanitizer_soak LP_NATIVE_VECTOR_WIDTH=256 \
  VKSORT_DEVICE=llvmpipe \
  ctest --test-dir build-sanitize "${jobs[@]}" --output-on-failure -E "consumer|radv_pipelines|demo_describe|demo_bench_cli|gpu_av|splats_cli|splats_window|splats_without_glfw|bench_workloads|bench_depth_keys|tune_cli|constant_passes|algorithms|tiles"

if command -v vulkaninfo >/dev/null && vulkaninfo --summary 2>/dev/null | grep -q 'PHYSICAL_DEVICE_TYPE_\(DISCRETE\|INTEGRATED\)_GPU'; then
  echo "== default device"
  ctest --test-dir build --output-on-failure
  echo "== default device, reduce-then-scan"
  VKSORT_TUNING=algorithm=2 ctest --test-dir build --output-on-failure -E 'consumer|radv_pipelines'
fi
