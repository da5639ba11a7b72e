# distarray_program_test and the CLI's shorthands for it, for the files of
# tests/cli/ that tests/CMakeLists.txt includes (paths relative to tests/:
# include() keeps its directories).
# distarray_program_test(NAME TARGET RANKS STATUS REGEX args...): TARGET on
# RANKS ranks (0: no mpiexec) exits with STATUS (0 or non-zero) printing REGEX.
function(distarray_program_test name target ranks expect_status regex)
  set(launch "")
  if(ranks GREATER 0)
    set(launch "${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};${ranks};")
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECT_STATUS=${expect_status} "-DEXPECT_REGEX=${regex}"
                   "-DCOMMAND=${launch}$<TARGET_FILE:${target}>;${ARGN}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.cmake)
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT}")
endfunction()
function(distarray_cli_mpi_test name ranks expect_status regex)
  distarray_program_test(cli.${name} distarray_cli ${ranks} ${expect_status} "${regex}" ${ARGN})
endfunction()
function(distarray_cli_test name expect_status regex)
  distarray_cli_mpi_test(${name} 0 ${expect_status} "${regex}" ${ARGN})
endfunction()
