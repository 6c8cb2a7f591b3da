# The splats sample without a window system (CTest: vksort.splats_without_glfw): the executable
# must not need GLFW's library (it loads it only for --window), so that the headless renderer
# starts on a GPU server without X libraries; it once failed there with "libglfw.so.3: cannot
# open shared object file" before reading its arguments. Then a headless frame.
include(${CMAKE_CURRENT_LIST_DIR}/expect_program.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})
file(GET_RUNTIME_DEPENDENCIES EXECUTABLES ${SPLATS} RESOLVED_DEPENDENCIES_VAR resolved
     UNRESOLVED_DEPENDENCIES_VAR unresolved)
foreach(library IN LISTS resolved unresolved)
  if(library MATCHES "glfw")
    message(FATAL_ERROR "${SPLATS} needs ${library}: it must load GLFW only for --window")
  endif()
endforeach()
list(LENGTH resolved found)
if(found EQUAL 0)
  message(FATAL_ERROR "no runtime dependencies found for ${SPLATS}: the check above saw nothing")
endif()
expect_program(${SPLATS} 0 "frame 0:" --splats 200 --frames 1 --size 32x24 --out ${WORK_DIR})
