# Installs the build tree to PREFIX, then configures, builds and runs the
# consumer project against it with find_package(distarray), with the build's
# compiler (CXX_COMPILER) and Kokkos (KOKKOS_DIR).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}")
  endif()
endfunction()
file(REMOVE_RECURSE ${PREFIX} ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX} --config ${CONFIG})
# The same compiler and Kokkos as the build: another Kokkos on the system
# (Debian's 3.4 beside an upstream OpenMP or CUDA build) must not be found instead.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DKokkos_DIR=${KOKKOS_DIR})
run(${CMAKE_COMMAND} --build ${WORK_DIR})
foreach(program consumer consumer_core consumer_redist consumer_io)
  execute_process(COMMAND ${WORK_DIR}/${program} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${program}")
  endif()
endforeach()
