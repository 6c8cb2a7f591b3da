# vksort_add_shaders(<target> OUTPUT_DIR <dir> SOURCES <x.comp>... [DEFINES <NAME=V>...])
# Compiles each compute shader with glslc to comma-separated SPIR-V words (<name>.spv.inc, to
# #include into a uint32_t array), rebuilds it when any of its includes change (depfile), and
# checks every module with spirv-val. Nothing is written to the source tree.
find_program(GLSLC glslc REQUIRED)
find_program(SPIRV_VAL spirv-val REQUIRED)

function(vksort_add_shaders target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;DEFINES" ${ARGN})
  file(MAKE_DIRECTORY ${ARG_OUTPUT_DIR})
  set(defines)
  foreach(d ${ARG_DEFINES})
    list(APPEND defines -D${d})
  endforeach()
  set(outputs)
  foreach(src ${ARG_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    set(spv ${ARG_OUTPUT_DIR}/${name}.spv)
    set(inc ${ARG_OUTPUT_DIR}/${name}.spv.inc)
    set(glslc ${GLSLC} --target-env=vulkan1.2 -O -Werror -I ${CMAKE_CURRENT_SOURCE_DIR}/glsl
              -I ${PROJECT_SOURCE_DIR}/glsl -I ${PROJECT_SOURCE_DIR}/include -I ${CMAKE_CURRENT_SOURCE_DIR}/shaders ${defines})
    add_custom_command(
      OUTPUT ${inc}
      COMMAND ${glslc} -mfmt=num -MD -MF ${inc}.d -o ${inc} ${abs}
      COMMAND ${glslc} -o ${spv} ${abs}
      COMMAND ${SPIRV_VAL} --target-env vulkan1.2 ${spv}
      DEPENDS ${abs}
      DEPFILE ${inc}.d
      COMMENT "glslc ${name}"
      VERBATIM)
    list(APPEND outputs ${inc})
  endforeach()
  add_custom_target(${target} DEPENDS ${outputs})
endfunction()
