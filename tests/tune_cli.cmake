# vksort_tune's command line, and the tuning data it writes as the benchmark and the splats sample
# take it (CTest: vksort.tune_cli): --help prints the usage; bad arguments are errors (exit 2);
# a small tuning writes data that --tuning accepts, and data from elsewhere is refused.
# Variables: TUNE, BENCH, SPLATS (the executables), WORK_DIR.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/expect_program.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
expect_program(${TUNE} 0 "usage: vksort_tune" --help)
expect_program(${TUNE} 2 "--budget takes a number of seconds.*usage:" --budget soon)
expect_program(${TUNE} 2 "unknown argument --sorts everything" --sorts everything)
expect_program(${TUNE} 2 "--max-count needs a value" --max-count)
expect_program(${TUNE} 2 "--prepare" --prepare 2)
expect_program(${TUNE} 0 "prepared the sorts as an application does at startup: .*pairs32 +0 .*copy ceiling: .*wrote [0-9]+ bytes of tuning data to t.bin"
               --sorts renderer --max-count 12000 --budget 1 --prepare 1 --out t.bin)
# Into a log (CTest's pipe is no terminal) the progress is a line per step, no carriage returns.
execute_process(COMMAND ${TUNE} --max-count 5000 --budget 1 --out t2.bin WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc ERROR_VARIABLE progress OUTPUT_QUIET)
string(FIND "${progress}" "\r" carriage)
if(NOT rc EQUAL 0 OR NOT carriage EQUAL -1 OR NOT progress MATCHES "(^|\n)1/[0-9]+ [^\n]*\n")
  message(FATAL_ERROR "vksort_tune's progress into a pipe: exit ${rc}, carriage return at ${carriage}:\n${progress}")
endif()
# The smallest counts tune (or have nothing to tune) and copy at least one element: --max-count 1
# once died of a division by zero in the copy ceiling's grid.
expect_program(${TUNE} 0 "copy ceiling: 16 bytes in .*GB/s.*wrote [0-9]+ bytes of tuning data to t1.bin"
               --max-count 1 --budget 1 --out t1.bin)
# The data is in use, or says it changes nothing (a 1 s budget may keep every row).
expect_program(${BENCH} 0 "(tuned|tuning data \\(it changes nothing here\\)), .*pairs32,q1,8192,.*,ok"
               --tuning t.bin --modes pairs32 --min-log2 13 --max-log2 13 --dists none --copy 0 --iterations 2 --warmup-ms 10)
expect_program(${SPLATS} 0 "frame 0:" --tuning t.bin --splats 200 --frames 1 --size 32x24 --out ${WORK_DIR})
file(WRITE ${WORK_DIR}/foreign.bin "not tuning data at all")
expect_program(${BENCH} 1 "createSorter.*tuning data is not vksort's"
               --tuning foreign.bin --modes pairs32 --min-log2 13 --max-log2 13 --dists none --copy 0)
expect_program(${SPLATS} 1 "tuning data is not vksort's" --tuning foreign.bin --splats 200 --frames 1 --size 32x24)
