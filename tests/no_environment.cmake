# The shipped library reads no environment variable (configuration is API data:
# SorterDeveloperOptions): no getenv among the symbols it uses. Variables: LIBRARY, NM.
execute_process(COMMAND ${NM} -u ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -u ${LIBRARY} failed (${rc})")
endif()
if(NOT symbols MATCHES "vkGetInstanceProcAddr|memcpy|snprintf")
  message(FATAL_ERROR "${NM} listed none of the symbols vksort is known to use: cannot judge")
endif()
if(symbols MATCHES "getenv")
  message(FATAL_ERROR "libvksort uses getenv: the library must take its configuration as API data")
endif()
