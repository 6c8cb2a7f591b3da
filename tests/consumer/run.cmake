# CTest driver: builds tests/consumer against vksort (MODE=package: install vksort's build into
# a prefix first and use find_package; MODE=subdirectory: add_subdirectory of the source tree;
# MODE=fetchcontent: FetchContent of the source tree), then runs it. Variables: MODE, SOURCE_DIR,
# BUILD_DIR (vksort's), WORK_DIR.
cmake_minimum_required(VERSION 3.21)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}")
  endif()
endfunction()
# The host's own build type (not vksort's default): a guest must keep it.
set(args -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=RelWithDebInfo
         -DCONSUMER_BUILD_TYPE=RelWithDebInfo -DCONSUME=${MODE})
if(MODE STREQUAL "package")
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  if(NOT EXISTS ${WORK_DIR}/prefix/share/doc/vksort/LICENSE)
    message(FATAL_ERROR "the package does not install the licence")
  endif()
  run(${CMAKE_COMMAND} ${args} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  run(${CMAKE_COMMAND} ${args} -DVKSORT_SOURCE_DIR=${SOURCE_DIR})
endif()
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j 2)
run(${WORK_DIR}/build/consumer 100000 3)
