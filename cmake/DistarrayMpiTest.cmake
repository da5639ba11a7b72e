# distarray_add_mpi_test(TARGET RANKS n...): one ctest test per rank count,
# named <TARGET>.np<n>, launched through mpiexec.  The environment lets OpenMPI
# run as root and oversubscribe the two cores of a CI machine; ranks yield when idle.
set(DISTARRAY_MPI_TEST_ENVIRONMENT
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_mpi_yield_when_idle=1")

function(distarray_add_mpi_test target)
  # SUFFIX: appended to the test names; ENVIRONMENT: more variables for these tests.
  cmake_parse_arguments(ARG "" "SUFFIX" "RANKS;ARGS;ENVIRONMENT" ${ARGN})
  foreach(n IN LISTS ARG_RANKS)
    add_test(NAME ${target}.np${n}${ARG_SUFFIX}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS} ${ARG_ARGS})
    set_tests_properties(${target}.np${n}${ARG_SUFFIX} PROPERTIES
                         ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT};${ARG_ENVIRONMENT}"
                         PROCESSORS ${n} TIMEOUT 600)
  endforeach()
endfunction()
