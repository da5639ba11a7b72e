# Checkpoints and series through the distarray command: rank counts and
# layouts both ways, h5py both ways, ROMIO, killed writers, and nothing
# lost or hung on full disks, concurrent saves and crafted files.
# Checkpoints: saved by 4 ranks, restored by 1, 2, 3 and 6 ranks in other layouts.
distarray_cli_mpi_test(save_np4 4 0 "saved 'u' to" save --shape 130x71 --type f64 --from "cyclic(5),block on 2x2"
                       --file ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5 --dataset u)
set_tests_properties(cli.save_np4 PROPERTIES FIXTURES_SETUP saved_np4)
foreach(ranks 1 2 3 6)
  distarray_cli_mpi_test(restore_np${ranks} ${ranks} 0 "verify ok, every element"
                         restore --file ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5 --dataset u
                         --to "block,cyclic(3) on ${ranks}x1" --verify)
  set_tests_properties(cli.restore_np${ranks} PROPERTIES FIXTURES_REQUIRED saved_np4)
endforeach()
distarray_cli_test(restore_missing_dataset 1 "checkpoint '.*saved_np4.h5': no dataset 'v'"
                   restore --file ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5 --dataset v --to "block,block on 1x1")
set_tests_properties(cli.restore_missing_dataset PROPERTIES FIXTURES_REQUIRED saved_np4)
distarray_cli_mpi_test(restore_step_of_checkpoint 2 1 "saved_np4.h5': the file is not a distarray series"
                       restore --file ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5 --array u --to "block,block on 2x1")
set_tests_properties(cli.restore_step_of_checkpoint PROPERTIES FIXTURES_REQUIRED saved_np4)
# ls of a plain checkpoint: its arrays; a checkpoint is never saved over a series.
distarray_cli_mpi_test(ls_checkpoint 2 0 "saved_np4.h5: a checkpoint \\(not a series\\), 1 array\n  u  f64 130x71  saved from \"cyclic\\(5\\),block on 2x2\" \\(row-major\\)\n"
                       ls ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5)
set_tests_properties(cli.ls_checkpoint PROPERTIES FIXTURES_REQUIRED saved_np4)
# Interop with h5py, both ways (Debian's python3-h5py serves /usr/bin/python3).
add_test(NAME cli.h5py_reads_a_checkpoint
         COMMAND ${DISTARRAY_H5PY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/h5py_interop.py check
                 ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5 u)
set_tests_properties(cli.h5py_reads_a_checkpoint PROPERTIES FIXTURES_REQUIRED saved_np4)
add_test(NAME cli.h5py_writes_a_dataset
         COMMAND ${DISTARRAY_H5PY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/h5py_interop.py write
                 ${CMAKE_CURRENT_BINARY_DIR}/from_h5py.h5 pattern)
set_tests_properties(cli.h5py_writes_a_dataset PROPERTIES FIXTURES_SETUP from_h5py)
distarray_cli_mpi_test(restore_h5py_dataset 4 0 "restored 'pattern' \\(f64 37x23\\).*verify ok, every element.*not verified"
                       restore --file ${CMAKE_CURRENT_BINARY_DIR}/from_h5py.h5 --dataset pattern
                       --to "cyclic(2),cyclic on 2x2" --verify)
set_tests_properties(cli.restore_h5py_dataset PROPERTIES FIXTURES_REQUIRED from_h5py)
# Series both ways: distarray writes, h5py reads every step; h5py writes, distarray restores and lists.
add_test(NAME cli.series_fresh COMMAND ${CMAKE_COMMAND} -E rm -f ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5
                                     ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5.distarray-journal)
set_tests_properties(cli.series_fresh PROPERTIES FIXTURES_SETUP series_fresh)
distarray_cli_mpi_test(series_save 4 0 "saved 'u' step 5 to"
                       save --shape 45x31 --type c128 --from "cyclic(4),block on 2x2" --compress 2
                       --file ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5 --array u --step 3 --steps 3)
set_tests_properties(cli.series_save PROPERTIES FIXTURES_SETUP series_np4 FIXTURES_REQUIRED series_fresh)
distarray_cli_mpi_test(save_over_series 2 1 "series_np4.h5': the file is a distarray series, and a checkpoint would replace it"
                       save --shape 8x8 --from "block,* on 2x1" --file ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5)
set_tests_properties(cli.save_over_series PROPERTIES FIXTURES_REQUIRED series_np4)
# Compressed series through both MPI-IO components at 1, 2 and 4 ranks (with
# ROMIO, the series' lock must not meet ROMIO's own byte-range locks on the
# same file: it deadlocked at 1 and 2 ranks); one file per test.
foreach(io ompio romio321)
  foreach(ranks 1 2 4)
    set(name series_compressed_${io}_np${ranks})
    set(series_file ${CMAKE_CURRENT_BINARY_DIR}/${name}.h5)
    add_test(NAME cli.${name}_fresh COMMAND ${CMAKE_COMMAND} -E rm -f ${series_file} ${series_file}.distarray-journal)
    set_tests_properties(cli.${name}_fresh PROPERTIES FIXTURES_SETUP ${name})
    distarray_cli_mpi_test(${name} ${ranks} 0 "saved 'u' step 2 to"
                           save --shape 40x30 --from "cyclic(3),block on ${ranks}x1" --compress 3
                           --file ${series_file} --array u --step 0 --steps 3)
    set_tests_properties(cli.${name} PROPERTIES TIMEOUT 60 FIXTURES_REQUIRED ${name}
                         ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT};OMPI_MCA_io=${io}")
  endforeach()
endforeach()
add_test(NAME cli.h5py_reads_a_series
         COMMAND ${DISTARRAY_H5PY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/h5py_interop.py series-check
                 ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5 u)
set_tests_properties(cli.h5py_reads_a_series PROPERTIES FIXTURES_REQUIRED series_np4
                     PASS_REGULAR_EXPRESSION "h5py read step 5: u complex128 \\(45, 31\\) equal to the pattern \\+ 5; attributes \\{'time': 0.005, 'writer': 'distarray save'\\} compression gzip")
distarray_cli_mpi_test(series_restore_step 3 0 "restored 'u' step 4 \\(c128 45x31\\).*verify ok, every element"
                       restore --file ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5 --array u --step 4
                       --to "*,cyclic(2) on 1x3" --verify)
set_tests_properties(cli.series_restore_step PROPERTIES FIXTURES_REQUIRED series_np4)
distarray_cli_mpi_test(series_restore_skipping_checksum 2 0 "restored 'u' step 5 .*verify ok, every element"
                       restore --file ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5 --array u --skip-checksum
                       --to "cyclic,* on 2x1" --verify)
set_tests_properties(cli.series_restore_skipping_checksum PROPERTIES FIXTURES_REQUIRED series_np4)
add_test(NAME cli.h5py_writes_a_series
         COMMAND ${DISTARRAY_H5PY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/h5py_interop.py series-write
                 ${CMAKE_CURRENT_BINARY_DIR}/series_from_h5py.h5 u)
set_tests_properties(cli.h5py_writes_a_series PROPERTIES FIXTURES_SETUP series_from_h5py)
foreach(case_ranks_status_to_regex_args
        "latest|3|0|cyclic(3),block on 3x1|restored 'u' step 1 \\(f64 29x17\\).*verify ok|--array;u"
        "latest_warns|2|0|block,* on 2x1|step 2 is incomplete and ignored \\(restoring step 1\\)|--array;u"
        "named|2|0|block,cyclic on 1x2|restored 'u' step 0 .*verify ok|--array;u;--step;0"
        "complex|2|0|cyclic(2) on 2|restored 'z' step 1 \\(c128 11\\).*verify ok|--array;z"
        "int|4|0|block on 4|restored 'k' step 1 \\(i32 13\\).*verify ok|--array;k"
        "incomplete|2|1|block,* on 2x1|step 2 is incomplete \\(its writer stopped before finishing it\\)|--array;u;--step;2")
  string(REPLACE "|" ";" fields "${case_ranks_status_to_regex_args}")
  list(GET fields 0 case)
  list(GET fields 1 ranks)
  list(GET fields 2 status)
  list(GET fields 3 to)
  list(GET fields 4 regex)
  list(SUBLIST fields 5 -1 extra)
  distarray_cli_mpi_test(series_from_h5py_${case} ${ranks} ${status} "${regex}"
                         restore --file ${CMAKE_CURRENT_BINARY_DIR}/series_from_h5py.h5 ${extra} --to "${to}" --verify)
  set_tests_properties(cli.series_from_h5py_${case} PROPERTIES FIXTURES_REQUIRED series_from_h5py)
endforeach()
distarray_cli_mpi_test(ls_h5py_series 2 0 "3 steps, 2 complete\nstep 0  complete  time=0  note=\"written by h5py\"\n  k  i32 13\n  u  f64 29x17  shuffle\\+deflate\\(4\\), chunks 8x17\n  z  c128 11\n.*step 2  INCOMPLETE \\(ignored\\)"
                       ls ${CMAKE_CURRENT_BINARY_DIR}/series_from_h5py.h5)
set_tests_properties(cli.ls_h5py_series PROPERTIES FIXTURES_REQUIRED series_from_h5py)
add_test(NAME cli.interrupted_save_keeps_the_old_file
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupted_save.sh ${MPIEXEC_EXECUTABLE}
                 $<TARGET_FILE:distarray_cli> ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli.interrupted_save_keeps_the_old_file PROPERTIES
                     ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT}" PASS_REGULAR_EXPRESSION "checkpoint is intact")
# A series writer killed with SIGKILL at random moments: every complete step
# stays restorable, through both MPI-IO components at 1, 2 and 4 ranks.
foreach(io ompio romio321)
  foreach(ranks 1 2 4)
    set(name cli.killed_series_writer_${io}_np${ranks})
    add_test(NAME ${name}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/killed_series_writer.sh ${MPIEXEC_EXECUTABLE}
                     $<TARGET_FILE:distarray_cli> ${CMAKE_CURRENT_BINARY_DIR} 4 ${ranks})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT};OMPI_MCA_io=${io}"
                         TIMEOUT 600 PASS_REGULAR_EXPRESSION "every complete step restorable")
  endforeach()
endforeach()
# Nothing lost, nothing hangs (docs/reliability.md): saves on a full disk,
# concurrent saves, links, long names, FIFOs, crafted files, strict options.
add_test(NAME cli.save_safety
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/save_safety.sh ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:distarray_cli>
                 ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli.save_safety PROPERTIES ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT}"
                     SKIP_RETURN_CODE 77 TIMEOUT 600 PASS_REGULAR_EXPRESSION "all save and restore checks passed")
# Full disks through both MPI-IO components, on a file system with fallocate
# and on one without (a preloaded library makes fallocate fail with EOPNOTSUPP).
# Two of the four pairs: the room is reserved through POSIX, not MPI-IO, so
# each component and each way of reserving is run once (about 90 s each).
add_library(no_fallocate MODULE ${CMAKE_CURRENT_SOURCE_DIR}/cli/no_fallocate.c)
foreach(pair "ompio;with_fallocate" "romio321;no_fallocate")
  list(GET pair 0 io)
  list(GET pair 1 variant)
  set(preload "")
  if(variant STREQUAL "no_fallocate")
    set(preload $<TARGET_FILE:no_fallocate>)
  endif()
  add_test(NAME cli.full_disk_${io}_${variant}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/full_disk.sh ${MPIEXEC_EXECUTABLE}
                   $<TARGET_FILE:distarray_cli> ${CMAKE_CURRENT_BINARY_DIR} ${preload})
  set_tests_properties(cli.full_disk_${io}_${variant} PROPERTIES
                       ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT};OMPI_MCA_io=${io}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600 PASS_REGULAR_EXPRESSION "a full disk loses nothing")
endforeach()
add_test(NAME cli.wisdom
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/wisdom.sh ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:distarray_cli>
                 ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(cli.wisdom PROPERTIES ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT}"
                     PASS_REGULAR_EXPRESSION "wisdom checks passed")
add_test(NAME cli.same_exit_status_on_every_rank
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/same_exit_status.sh ${MPIEXEC_EXECUTABLE}
                 $<TARGET_FILE:distarray_cli>)
set_tests_properties(cli.same_exit_status_on_every_rank PROPERTIES
                     ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT}" PASS_REGULAR_EXPRESSION "exit status agreed")
set(crafted ${CMAKE_CURRENT_BINARY_DIR}/crafted)
file(MAKE_DIRECTORY ${crafted})
add_test(NAME cli.h5py_crafts_bad_files
         COMMAND ${DISTARRAY_H5PY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/h5py_craft.py
                 ${CMAKE_CURRENT_BINARY_DIR}/saved_np4.h5 u ${crafted})
set_tests_properties(cli.h5py_crafts_bad_files PROPERTIES FIXTURES_REQUIRED saved_np4 FIXTURES_SETUP crafted)
foreach(case_status_regex
        "compound_ab|1|compound \\{a, b\\} of 16 bytes"
        "compound_rx|1|compound \\{r, x\\} of 16 bytes"
        "retyped|1|stored as f32 but its distarray_element_type attribute says 'f64'"
        "reshaped|1|checksum mismatch"
        "no_checksum|1|has no distarray_checksum attribute, but its distarray_format_version says distarray wrote it"
        "vlen_layout|0|verify ok, every element"
        "virtual|1|is a virtual dataset"
        "huge_chunked|1|cannot allocate the 4.0 TiB \\(4398046511104 bytes\\) local block"
        "long_type_text|1|attribute says '(é)+'")
  string(REPLACE "|" ";" fields "${case_status_regex}")
  list(GET fields 0 case)
  list(GET fields 1 status)
  list(GET fields 2 regex)
  distarray_cli_mpi_test(crafted_${case} 2 ${status} "${regex}"
                         restore --file ${crafted}/${case}.h5 --dataset x --to "block,cyclic on 2x1" --verify)
  set_tests_properties(cli.crafted_${case} PROPERTIES FIXTURES_REQUIRED crafted)
endforeach()
# Series crafted with h5py: a forged step number, a lost one, a latest step without the array.
add_test(NAME cli.h5py_crafts_bad_series
         COMMAND ${DISTARRAY_H5PY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/h5py_craft_series.py
                 ${CMAKE_CURRENT_BINARY_DIR}/series_np4.h5 ${crafted})
set_tests_properties(cli.h5py_crafts_bad_series PROPERTIES FIXTURES_REQUIRED series_np4
                     FIXTURES_SETUP crafted_series)
foreach(case_ranks_status_regex_args
        "forged_ls|series_forged_step|1|0|step 4  DAMAGED \\(ignored\\): its distarray_step attribute says step 5|ls"
        "forged_latest|series_forged_step|2|0|restored 'u' step 5 .*verify ok|restore;--array;u;--to;cyclic,* on 2x1;--verify"
        "forged_named|series_forged_step|2|1|step 4 is damaged|restore;--array;u;--step;4;--to;cyclic,* on 2x1"
        "no_header_ls|series_no_header|1|0|step 4  DAMAGED \\(ignored\\): it has no distarray_step attribute|ls"
        "latest_lacks_u|series_latest_lacks_u|2|0|restored 'u' step 5 .*verify ok|restore;--array;u;--to;block,* on 2x1;--verify")
  string(REPLACE "|" ";" fields "${case_ranks_status_regex_args}")
  list(GET fields 0 name)
  list(GET fields 1 file)
  list(GET fields 2 ranks)
  list(GET fields 3 status)
  list(GET fields 4 regex)
  list(SUBLIST fields 5 -1 args)
  list(GET args 0 command)
  list(REMOVE_AT args 0)
  distarray_cli_mpi_test(crafted_series_${name} ${ranks} ${status} "${regex}"
                         ${command} --file ${crafted}/${file}.h5 ${args})
  set_tests_properties(cli.crafted_series_${name} PROPERTIES FIXTURES_REQUIRED crafted_series)
endforeach()
distarray_cli_test(save_steps_needs_array 1 "--steps needs --array"
                   save --shape 8x8 --from "block,* on 1x1" --file never.h5 --steps 3)
