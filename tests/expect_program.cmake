# expect_program(PROGRAM CODE PATTERN ARGS...): runs PROGRAM ARGS in WORK_DIR and fails the test
# unless it exits with CODE and its output (stdout and stderr) matches PATTERN.
function(expect_program program code pattern)
  execute_process(COMMAND ${program} ${ARGN} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL code OR NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "${program} ${ARGN}: exit ${rc} (want ${code}), output:\n${out}${err}")
  endif()
endfunction()
