# The demo's and the benchmark's command lines (CTest: vksort.demo_bench_cli): --help prints the
# usage and exits 0 without sorting; an unknown or malformed argument prints the error and the
# usage and exits 2 (the benchmark once read its arguments in pairs, dropped a lone --help and
# ran its whole default grid; the demo read any word as 0 pairs and called them sorted).
include(${CMAKE_CURRENT_LIST_DIR}/expect_program.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})

foreach(help --help -h)
  expect_program(${DEMO} 0 "^usage: vksort_demo" ${help})
  expect_program(${BENCH} 0 "^usage: vksort_bench" ${help})
endforeach()
expect_program(${DEMO} 2 "unknown argument --bogus\nusage: vksort_demo" --bogus)
expect_program(${DEMO} 2 "not \"12x\"\nusage: vksort_demo" 12x)
expect_program(${DEMO} 2 "not \"0\"" 0)
expect_program(${DEMO} 2 "unknown argument extra" 1000 extra)
expect_program(${DEMO} 2 "unknown key type u16" --describe u16 1000)
expect_program(${DEMO} 2 "needs KEY" --describe)
expect_program(${BENCH} 2 "unknown option --bogus\nusage: vksort_bench" --bogus 1)
expect_program(${BENCH} 2 "--min-log2 needs a value" --min-log2)
expect_program(${BENCH} 2 "--min-log2 takes a whole number from 0 to [0-9]+, not \"x\"" --min-log2 x)
expect_program(${BENCH} 2 "--sizes takes a whole number from 0 to [0-9]+, not \"-5\"" --sizes 100,-5)
expect_program(${BENCH} 2 "--depth-bits takes a whole number from 1 to 24, not \"25\"" --depth-bits 25)
# Names of modes and workloads are checked before a device is made (no device line first).
expect_program(${BENCH} 2 "^vksort_bench: unknown mode foo\nusage: vksort_bench" --modes keys32,foo)
expect_program(${BENCH} 2 "^vksort_bench: unknown workload foo\nusage: vksort_bench" --workloads foo)
# The bucket counter's (a CPU tool beside the benchmark).
expect_program(${MSD} 0 "^usage: vksort_msd_buckets" --help)
expect_program(${MSD} 2 "LOG2 takes a whole number from 1 to 28, not \"40\"\nusage: vksort_msd_buckets" 40)
