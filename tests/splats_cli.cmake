# The splats sample's command line (CTest: vksort.splats_cli): --help prints the usage and exits 0
# without rendering; unknown options and bad values are errors (exit 2) that print the usage; --out
# is created when missing. Variables: SPLATS (the executable), WORK_DIR.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/expect_program.cmake)
function(expect code pattern)
  expect_program(${SPLATS} ${code} "${pattern}" ${ARGN})
endfunction()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
expect(0 "usage: vksort_splats.*compressed" --help)
file(GLOB rendered ${WORK_DIR}/*.png)
if(rendered)
  message(FATAL_ERROR "--help rendered ${rendered}")
endif()
expect(2 "unknown option \"--bogus\".*usage:" --bogus)
expect(2 "unknown option \"--splats=10\"" --splats=10)
expect(2 "--frames needs a value" --frames)
expect(2 "--splats takes a whole number from 1 to 4294967295, not \"ten\"" --splats ten)
expect(2 "--size wants WxH" --size 64)
expect(2 "--renderer wants quads, tiles or tiles64, not \"fast\"" --renderer fast)
expect(2 "--y-up and --y-down contradict" --y-up --y-down)
expect(2 "--depth-bits takes a whole number from 0 to 24, not \"25\"" --depth-bits 25)
expect(2 "--warmup-ms takes a whole number from 0 to 600000, not \"-5\"" --warmup-ms -5)
expect(0 "warm-up: frame 0 rendered [1-9][0-9]* times in 200 ms.*frame 0:"
       --splats 200 --frames 1 --size 32x24 --warmup-ms 200 --out ${WORK_DIR})
expect(0 "quads.*frame 0: [0-9]+ visible, [0-9]+ keys sorted, cull [0-9.]+ ms, depth keys [0-9.]+ ms, sort [0-9.]+ ms, draw"
       --splats 500 --frames 1 --size 64x48 --validate --out ${WORK_DIR})
expect(0 "quads.*frame 0: [0-9]+ visible, [0-9]+ keys sorted, cull [0-9.]+ ms, sort [0-9.]+ ms, draw"
       --splats 500 --frames 1 --size 64x48 --depth-bits 0 --validate --out ${WORK_DIR})
expect(2 "--size 99999x99999 exceeds .*largest image" --size 99999x99999 --splats 100 --frames 1)
expect(1 "is a directory: give a .ply file in it" --ply ${WORK_DIR})
expect(0 "frame 0:" --splats 500 --frames 1 --size 64x48 --out ${WORK_DIR}/new/nested)
expect(0 "frame 0:" --splats 200 --frames 1 --size 32x24 --y-down --out ${WORK_DIR})
expect(0 "frame 0:" --splats 200 --frames 1 --size 32x24 --y-up --out ${WORK_DIR})
expect(0 "tiles.*frame 0: [0-9]+ visible, [0-9]+ keys sorted, project [0-9.]+ ms, depth keys [0-9.]+ ms, depth sort [0-9.]+ ms, duplicate [0-9.]+ ms, tile sort [0-9.]+ ms, ranges [0-9.]+ ms, blend [0-9.]+ ms, sorts [0-9.]+ ms.*median of frames 1-1: project"
       --splats 500 --frames 2 --size 64x48 --renderer tiles --validate --out ${WORK_DIR})
expect(0 "tiles.*frame 0: [0-9]+ visible, [0-9]+ keys sorted, project [0-9.]+ ms, depth sort [0-9.]+ ms, duplicate"
       --splats 500 --frames 1 --size 64x48 --renderer tiles --depth-bits 0 --validate --out ${WORK_DIR})
expect(0 "tiles64.*frame 0: [0-9]+ visible, [0-9]+ keys sorted, project [0-9.]+ ms, duplicate [0-9.]+ ms, sort [0-9.]+ ms, ranges [0-9.]+ ms, blend [0-9.]+ ms, sorts"
       --splats 500 --frames 1 --size 64x48 --renderer tiles64 --validate --out ${WORK_DIR})
if(NOT EXISTS ${WORK_DIR}/new/nested/frame_000.png)
  message(FATAL_ERROR "--out ${WORK_DIR}/new/nested was not created with frame_000.png in it")
endif()
