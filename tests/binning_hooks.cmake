# A binning kernel that misses a hook does not build (glsl/binning_switches.glsl, lookback.glsl,
# lookback_fallback.glsl, workgroup_scan.glsl: #error), and one with every hook does. Each case
# compiles a minimal kernel with glslc. Run by CTest: cmake -DGLSLC= -DGLSL_DIR= -DINCLUDE_DIR= -DWORK_DIR=
set(hooks [=[
#define BINNING_KERNEL VKSORT_ONESWEEP_PASS
#define KEYS_IN KeysIn
#define KEYS_OUT KeysOut
#define VALS_IN ValsIn
#define VALS_IN64 ValsIn64
#define VALS_OUT ValsOut
#define VALS_OUT64 ValsOut64
#define LOOKBACK_STATUS pc.status
#define ON_TILE_COUNT(digit, count)
#define BEFORE_COUNT_BARRIER()
#define FALLBACK_KEYS uvec2(pc.keysIn)
#define FALLBACK_TILE_KEYS TILE
#define FALLBACK_KEY_COUNT pc.count
#define FALLBACK_SHIFT pc.shift
#define PASS_INDEX pc.pass
#define PASS_MOVING s_movingPasses
]=])
set(body [=[
#include "binning_switches.glsl"
#include "lookback.glsl"
#include "tile_tickets.glsl"
#include "binning_next_tile.glsl"
#include "lookback_fallback.glsl"
void main() { rankTile(pc.shift); }
]=])

# compile(NAME SOURCE): glslc's exit code and output in ${NAME}_rc, ${NAME}_out.
function(compile name source)
  file(WRITE ${WORK_DIR}/${name}.comp "#version 450\n#include \"common.glsl\"\n${source}")
  execute_process(COMMAND ${GLSLC} --target-env=vulkan1.2 -I ${GLSL_DIR} -I ${INCLUDE_DIR} -o ${WORK_DIR}/${name}.spv ${WORK_DIR}/${name}.comp
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${name}_rc ${rc} PARENT_SCOPE)
  set(${name}_out "${out}${err}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY ${WORK_DIR})
compile(every "${hooks}${body}")
if(NOT every_rc EQUAL 0)
  message(FATAL_ERROR "a kernel with every hook does not build:\n${every_out}")
endif()
foreach(hook BINNING_KERNEL KEYS_IN VALS_OUT64 ON_TILE_COUNT BEFORE_COUNT_BARRIER LOOKBACK_STATUS FALLBACK_SHIFT PASS_INDEX PASS_MOVING)
  string(REGEX REPLACE "#define ${hook}[^\n]*\n" "" without "${hooks}")
  compile(without_${hook} "${without}${body}")
  if(without_${hook}_rc EQUAL 0 OR NOT without_${hook}_out MATCHES "'#error' :[^\n]*${hook}")
    message(FATAL_ERROR "a kernel without ${hook}: exit ${without_${hook}_rc}, want the #error naming it:\n${without_${hook}_out}")
  endif()
endforeach()
