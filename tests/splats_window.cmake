# The splats sample's window (CTest: vksort.splats_window): under Xvfb (a virtual X server) both
# renderers open a GLFW window, draw and present 3 frames with validation on, and close. A
# failure to open, present or validate exits non-zero. Variables: SPLATS (the executable),
# XVFB_RUN (xvfb-run; empty to use the display there is).
cmake_minimum_required(VERSION 3.21)
set(run)
if(XVFB_RUN)
  set(run ${XVFB_RUN} -a -s "-screen 0 640x480x24")
elseif(NOT DEFINED ENV{DISPLAY} AND NOT DEFINED ENV{WAYLAND_DISPLAY})
  message(FATAL_ERROR "no display and no xvfb-run (Debian: xvfb) to make one")
endif()
foreach(renderer quads tiles)
  execute_process(COMMAND ${run} ${SPLATS} --window --frames 3 --splats 2000 --size 160x120 --validate
                          --renderer ${renderer}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "presented 3 frames to a 160x120 window \\(${renderer},")
    message(FATAL_ERROR "vksort_splats --window --renderer ${renderer}: exit ${rc}, output:\n${out}${err}")
  endif()
  message(STATUS "${renderer}: ${out}")
endforeach()
