# The examples at small sizes, each checked against its own reference; and
# one benchmark's usage (`-h`), as the benchmarks share the examples' option parser.
if(TARGET scalapack_dropin_distarray)
  add_test(NAME examples.scalapack_dropin
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/scalapack_dropin.sh ${MPIEXEC_EXECUTABLE}
                   $<TARGET_FILE:scalapack_dropin_reference> $<TARGET_FILE:scalapack_dropin_distarray>)
  set_tests_properties(examples.scalapack_dropin PROPERTIES ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT}"
                       PASS_REGULAR_EXPRESSION "drop-in checks passed")
endif()
if(TARGET adi_heat)
  distarray_program_test(examples.adi_help adi_heat 0 0 "^usage: adi_heat \\[--checkpoint VALUE\\] " --help)
  distarray_program_test(examples.adi_convergence adi_heat 2 0 "second-order convergence: ok" --convergence)
  distarray_program_test(examples.adi_run_np4 adi_heat 4 0 "ADI heat: N = 64, 4 ranks, 3 fields, steps 0..25"
                         --n 64 --steps 25 --checkpoint ${CMAKE_CURRENT_BINARY_DIR}/adi_checkpoint.h5
                         --checkpoint-every 10 --save ${CMAKE_CURRENT_BINARY_DIR}/adi_final.h5)
  set_tests_properties(examples.adi_run_np4 PROPERTIES FIXTURES_SETUP adi_run)
  distarray_program_test(examples.adi_restart_np3 adi_heat 3 0 "restarted .* at step 20.*bit-for-bit equal"
                         --n 64 --steps 25 --restart ${CMAKE_CURRENT_BINARY_DIR}/adi_checkpoint.h5
                         --compare ${CMAKE_CURRENT_BINARY_DIR}/adi_final.h5)
  set_tests_properties(examples.adi_restart_np3 PROPERTIES FIXTURES_REQUIRED adi_run)
endif()
if(TARGET fft2d)
  # --help: the options the shared parser knows, status 0 (driver_main).
  distarray_program_test(examples.fft2d_help fft2d 0 0 "^usage: fft2d \\[--chunks VALUE\\] .*\\[--reps VALUE\\]" --help)
  # One band into column-major columns (the default), and node-shared ones.
  distarray_program_test(examples.fft2d_np3 fft2d 3 0
                         "1 band, column-major columns: max relative difference from serial FFTW .* \\(ok\\)"
                         --n 60 --reps 2)
  distarray_program_test(examples.fft2d_node_shared_np3 fft2d 3 0
                         "1 band, column-major columns: .* \\(ok\\).*exchange shared, 0 unpack launches per band"
                         --n 60 --reps 2 --exchange shared --node-shared)
  # Ragged bands (61 rows in 3 over 4 ranks), and more ranks than rows in a band.
  distarray_program_test(examples.fft2d_bands_np4 fft2d 4 0 "3 bands, row-major columns: max relative difference .* \\(ok\\)"
                         --n 61 --chunks 3 --reps 1)
  distarray_program_test(examples.fft2d_bands_np7 fft2d 7 0 "5 bands, row-major columns: max relative difference .* \\(ok\\)"
                         --n 5 --chunks 5 --reps 1)
  # Bands into node-shared columns: the shared engine's one pass into views of one node-shared block.
  distarray_program_test(examples.fft2d_node_shared_np4 fft2d 4 0
                         "3 bands, row-major columns: .* \\(ok\\).*exchange shared, 0 unpack launches per band"
                         --n 61 --chunks 3 --reps 2 --exchange shared --node-shared)
endif()
if(TARGET grid_to_grid)
  foreach(ranks 1 4)
    distarray_program_test(examples.grid_to_grid_np${ranks} grid_to_grid ${ranks} 0
                           "equals pdgemr2d's element by element: yes" --m 130 --n 97 --reps 2)
  endforeach()
endif()
if(TARGET checkpoint_restart)
  set(state ${CMAKE_CURRENT_BINARY_DIR}/restart_state.h5)
  distarray_program_test(examples.restart_stop_np4 checkpoint_restart 4 0 "stopped at step 80"
                         --steps 200 --stop-at 80 --checkpoint ${state})
  distarray_program_test(examples.restart_resume_np3 checkpoint_restart 3 0 "from step 80"
                         --steps 200 --resume ${state} --final ${CMAKE_CURRENT_BINARY_DIR}/restart_resumed.h5)
  distarray_program_test(examples.restart_straight_np2 checkpoint_restart 2 0 "step 200: bit-for-bit equal"
                         --steps 200 --final ${CMAKE_CURRENT_BINARY_DIR}/restart_straight.h5
                         --expect ${CMAKE_CURRENT_BINARY_DIR}/restart_resumed.h5)
  set_tests_properties(examples.restart_stop_np4 PROPERTIES FIXTURES_SETUP restart_stop)
  set_tests_properties(examples.restart_resume_np3 PROPERTIES FIXTURES_REQUIRED restart_stop FIXTURES_SETUP restart_resumed)
  set_tests_properties(examples.restart_straight_np2 PROPERTIES FIXTURES_REQUIRED restart_resumed)
endif()
if(TARGET bench_pack_kernels)
  distarray_program_test(bench.pack_kernels_help bench_pack_kernels 0 0
                         "^usage: bench_pack_kernels \\[--json VALUE\\] \\[--size VALUE\\] \\[--type VALUE\\]\n" -h)
endif()
