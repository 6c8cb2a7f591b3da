# The C, C++ and CUDA sources are laid out as .clang-format says (run `clang-format -i FILE` on
# one that is not). The shaders (glsl/, and the splats sample's shader header) are GLSL: not
# checked. Variables: CLANG_FORMAT, SOURCE_DIR.
set(patterns)
foreach(dir src include samples tests tools)
  foreach(ext cpp hpp h c cu)
    list(APPEND patterns ${SOURCE_DIR}/${dir}/*.${ext})
  endforeach()
endforeach()
file(GLOB_RECURSE sources LIST_DIRECTORIES false RELATIVE ${SOURCE_DIR} ${patterns})
list(FILTER sources EXCLUDE REGEX "^samples/splats/shaders/")
list(LENGTH sources count)
if(count LESS 50)
  message(FATAL_ERROR "found ${count} sources under ${SOURCE_DIR}: cannot judge the layout")
endif()
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${sources} WORKING_DIRECTORY ${SOURCE_DIR}
                RESULT_VARIABLE rc ERROR_VARIABLE errors)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sources not laid out as .clang-format says (clang-format -i them):\n${errors}")
endif()
message(STATUS "${count} sources laid out as .clang-format says")
