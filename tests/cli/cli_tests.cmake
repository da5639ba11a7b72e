# The distarray command: the papers' tables, plans through every engine and
# storage order, explain, and options parsed strictly.
# Hsu-Chung Fig. 2(a), source side: BLOCK-CYCLIC(10) of A[1:30] over 3 processes.
distarray_cli_test(show_fig2a_source 0 "P0 +\\| +1 +2 +3 +4 +5 +6 +7 +8 +9 +10\n"
                   show --shape 30 --layout "cyclic(10) on 3" --index-base 1)
# Hsu-Chung Fig. 2(a), destination side: BLOCK-CYCLIC(2).
distarray_cli_test(show_fig2a_dest 0 "P0 +\\| +1 +2 +7 +8 +13 +14 +19 +20 +25 +26\nP1 +\\| +3 +4 +9 +10 +15 +16 +21 +22 +27 +28\nP2 +\\| +5 +6 +11 +12 +17 +18 +23 +24 +29 +30"
                   show --shape 30 --layout "cyclic(2) on 3" --index-base 1)
distarray_cli_test(show_default_2d 0 "layout cyclic\\(2\\),block\\(4\\) on 3x3   shape 14x10" show)
distarray_cli_test(show_svg 0 "wrote .*show.svg"
                   show --shape 9x7 --layout "block,cyclic(2) on 2x2" --svg ${CMAKE_CURRENT_BINARY_DIR}/show.svg)
distarray_cli_test(bad_kind 1 "unknown distribution 'blok'" show --shape 18 --layout "blok on 3")
distarray_cli_test(bad_block_size 1 "block size must be >= 1 in 'cyclic\\(0\\)'" show --shape 18 --layout "cyclic(0) on 3")
distarray_cli_test(bad_block_m 1 "'block\\(4\\)' over 3 processes covers fewer than the 18 elements"
                   show --shape 18 --layout "block(4) on 3")
distarray_cli_test(bad_dims 1 "2 distributions for a 1-dimensional shape" show --shape 18 --layout "block,block on 3x1")
distarray_cli_test(bad_garbage 1 "unknown distribution '%'" show --shape 18 --layout "%%% on 3")
# distarray's own usage first; Kokkos' options only under --kokkos-help.
distarray_cli_test(help_usage_first 0 "^usage: distarray <command>.*distarray --kokkos-help\n" --help)
distarray_cli_test(h_usage_first 0 "^usage: distarray <command>" -h)
# A command's --help: its own usage, status 0 (an option it does not know would be an error).
distarray_cli_test(redist_help 0 "^usage: distarray redist \\[options\\]\n  redist .*--exchange auto.*layout text:" redist --help)
distarray_cli_test(save_help_among_options 0 "^usage: distarray save \\[options\\]\n  save  " save --shape 4x4 -h)
# A usage error shows the command's usage.
distarray_cli_test(redist_bad_option_usage 1 "error: unknown option '--bogus'.*usage: distarray redist \\[options\\]" redist --bogus)
distarray_cli_test(kokkos_help 0 "Kokkos command line arguments" --kokkos-help)
distarray_cli_test(bad_option 1 "unknown option '--frobnicate'" show --frobnicate 3)
distarray_cli_test(redist_default 0 "verify +ok, every element" redist --shape 96x80 --verify)
distarray_cli_test(redist_3d 0 "strategy +indirect.*verify +ok" redist --shape 9x8x7 --type c128
                   --from "cyclic(2),block,* on 1x1x1" --to "block,cyclic,* on 1x1x1" --method indirect --verify)
distarray_cli_test(redist_grid_too_large 1 "grid 'on 8x1' needs ranks 0..7 but the communicator has 1 ranks"
                   redist --shape 16x16 --from "block,* on 8x1" --to "*,block on 1x1")
distarray_cli_test(redist_bad_type 1 "unknown element type 'f16'" redist --type f16)
# c64 was complex<double>'s name in checkpoints before format 4; to numpy it is two floats: refused.
distarray_cli_test(redist_c64_refused 1 "unknown element type 'c64' \\(f32, f64, c128, i32, i64\\)" redist --type c64)
# A --json file that cannot be written is refused before the run.
distarray_cli_mpi_test(redist_json_unwritable 2 1 "distarray: error: cannot write JSON file '[^']*/no-such-folder/r.json': No such file or directory\n"
                       redist --shape 16x16 --json ${CMAKE_CURRENT_BINARY_DIR}/no-such-folder/r.json)
distarray_cli_test(redist_bad_engine 1 "unknown exchange engine 'carrier-pigeon'" redist --exchange carrier-pigeon)
# Kaushik's example with start-ups dominating: a two-phase route wins.
distarray_cli_mpi_test(explain_kaushik 8 0 "direct: 1 phase.*at most 7 messages.*\\* multiphase\\(d0: block -> cyclic\\(6\\) -> cyclic\\(3\\)\\)"
                       explain --shape 192 --from "block on 8" --to "cyclic(3) on 8" --ts 1e-3 --te 0)
distarray_cli_test(explain_needs_layouts 1 "explain needs --shape, --from and --to" explain --shape 10)
# The same through mpiexec on 4 ranks, every engine.
foreach(engine alltoallv p2p encoded datatype shared)
  distarray_cli_mpi_test(redist_np4_${engine} 4 0 "verify +ok, every element"
                         redist --shape 130x70 --type f32 --from "cyclic(3),block on 2x2"
                         --to "block(40),cyclic on 4x1" --exchange ${engine} --verify)
endforeach()
# The shared engine on two emulated "nodes" of two ranks: windows within, MPI between.
distarray_cli_mpi_test(redist_np4_shared_two_nodes 4 0 "exchange shared.*verify +ok, every element"
                       redist --shape 130x70 --type f32 --from "cyclic(3),block on 2x2"
                       --to "block(40),cyclic on 4x1" --exchange shared --verify)
set_property(TEST cli.redist_np4_shared_two_nodes APPEND PROPERTY ENVIRONMENT DISTARRAY_EMULATED_NODES=2)
# Into a node-shared destination: one pass, nothing unpacked.
distarray_cli_mpi_test(redist_np4_shared_one_pass 4 0
                       "to .*\\(node-shared\\).*exchange shared.*0 unpack.*verify +ok, every element"
                       redist --shape 130x70 --type f32 --from "cyclic(3),block on 2x2"
                       --to "block(40),cyclic on 4x1" --exchange shared --node-shared --verify)
# explain cannot see the arrays: it says when the shared engine goes in one pass.
distarray_cli_mpi_test(explain_shared_one_pass 2 0 "engine: shared, as asked.*node_shared on every rank of a node: one pass"
                       explain --shape 64x64 --from "block,* on 2x1" --to "*,block on 1x2" --exchange shared)
# The FFT-style transpose into column-major local blocks, and the other two order pairs.
foreach(orders "row-major;column-major" "column-major;row-major" "column-major;column-major")
  list(GET orders 0 from_order)
  list(GET orders 1 to_order)
  distarray_cli_mpi_test(redist_np3_${from_order}_to_${to_order} 3 0
                         "verify +ok, every element"
                         redist --shape 70x45 --type c128 --from-order ${from_order} --to-order ${to_order}
                         --from "block,* on 3x1" --to "*,block on 1x3" --verify)
endforeach()
distarray_cli_test(redist_bad_order 1 "--to-order takes row-major or column-major, not 'diagonal'"
                   redist --to-order diagonal)
# 1-D blocks are the same in either order (one plan type serves both), and
# the order is still checked.
distarray_cli_mpi_test(redist_np3_1d_column_major 3 0 "verify +ok, every element"
                       redist --shape 100 --type i32 --from "block on 3" --to "cyclic(4) on 3"
                       --from-order column-major --to-order column-major --verify)
distarray_cli_test(redist_1d_bad_order 1 "--from-order takes row-major or column-major, not 'diagonal'"
                   redist --shape 40 --from "block on 1" --to "cyclic on 1" --from-order diagonal)
distarray_cli_mpi_test(redist_np2_median 2 0 "total +[0-9.]+ ms +\\(mean\\).*execution +median +[0-9.]+ ms, fastest +[0-9.]+ ms"
                       redist --shape 64x40 --repeat 3)
distarray_cli_mpi_test(redist_np4_multiphase 4 0 "strategy +multiphase.*verify +ok, every element"
                       redist --shape 400 --from "block on 4" --to "cyclic(2) on 4" --method multiphase --verify)

# Sizes that overflow, allocations that fail, numbers parsed strictly.
distarray_cli_test(shape_2_to_the_64 1 "does not fit in 63 bits"
                   save --shape 4294967296x4294967296 --from "block,* on 1x1" --file never.h5)
distarray_cli_test(shape_above_2_to_the_63 1 "does not fit in 63 bits"
                   redist --shape 4294967296x4294967295x3 --from "block,*,* on 1x1x1" --to "*,block,* on 1x1x1")
distarray_cli_mpi_test(explain_bytes_overflow 2 1 "byte count [0-9]+ x 8 does not fit in 63 bits"
                       explain --shape 4611686018427387904 --from "block on 2" --to "cyclic on 2")
distarray_cli_test(allocation_too_large 1 "cannot allocate the 8.0 TiB \\(8796093022208 bytes\\) local block"
                   redist --shape 1099511627776 --from "block on 1" --to "cyclic on 1")
foreach(bad_ts "abc" "1e999" "5abc" "-1")
  string(MAKE_C_IDENTIFIER "ts_${bad_ts}" name)
  distarray_cli_test(${name} 1 "option '--ts' needs a finite number >= 0 \\(seconds\\), got '${bad_ts}'"
                     explain --shape 10 --from "block on 1" --to "cyclic on 1" --ts "${bad_ts}")
endforeach()
# Threads that would share a core are named once, on rank 0, where the host
# backend has threads: one rank held to one core (taskset, and Open MPI told
# not to bind) with two threads.
find_program(DISTARRAY_TASKSET taskset)
if(DISTARRAY_KOKKOS_BACKENDS MATCHES "OPENMP|THREADS" AND DISTARRAY_TASKSET)
  add_test(NAME cli.threads_share_a_core
           COMMAND ${CMAKE_COMMAND} -DEXPECT_STATUS=0
                   "-DEXPECT_REGEX=warning: 1 of 1 ranks run 2 host threads on 1 core\\(s\\) of their affinity mask.*--bind-to none"
                   "-DCOMMAND=${DISTARRAY_TASKSET};-c;0;${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};1;--bind-to;none;$<TARGET_FILE:distarray_cli>;help"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.cmake)
  set_tests_properties(cli.threads_share_a_core PROPERTIES
                       ENVIRONMENT "${DISTARRAY_MPI_TEST_ENVIRONMENT};OMP_NUM_THREADS=2;OMP_WAIT_POLICY=passive")
endif()
distarray_cli_test(repeat_wraps 1 "option '--repeat' needs an integer from 1 to 10000000, got '4294967297'"
                   redist --repeat 4294967297)
distarray_cli_test(repeated_option 1 "option '--shape' is given more than once" redist --shape 8 --shape 9)
foreach(kokkos_option "--kokkos-threads=abc" "--threads=abc" "--kokkos-numa=x" "--kokkos-device-id=x")
  string(MAKE_C_IDENTIFIER "kokkos_${kokkos_option}" name)
  distarray_cli_mpi_test(${name} 2 1 "Kokkos option '${kokkos_option}' needs '=N'" ${kokkos_option} show)
endforeach()
# Periodic runs are counted, not listed: 1.7e7 runs per rank, explained at once.
distarray_cli_mpi_test(explain_output_sensitive 2 0 "\\* direct: 1 phase"
                       explain --shape 100000000 --from "block on 2" --to "cyclic(3) on 2")
set_tests_properties(cli.explain_output_sensitive PROPERTIES TIMEOUT 20)
# explain says which engine each exchange takes and why: a transposing send
# side is packed, a receive side of 1 KiB runs can move in place, so the two
# engines are timed; runs of one element leave alltoallv alone.
distarray_cli_mpi_test(explain_engine_transpose 2 0 "send side: runs of 1 KiB on average per rank, transposing [^\n]*: packed\n *receive side: runs of 1 KiB on average per rank: long enough to move in place\n *engine: alltoallv, datatype and shared \\(host memory\\) timed"
                       explain --shape 256x256 --from "block,* on 2x1" --to "*,block on 1x2" --to-order column-major)
distarray_cli_mpi_test(explain_engine_row_major 2 0 "send side: runs of 1 KiB[^\n]*: long enough to move in place\n *receive side: runs of 128 KiB"
                       explain --shape 256x256 --from "block,* on 2x1" --to "*,block on 1x2")
distarray_cli_mpi_test(explain_engine_short_runs 2 0 "send side: runs of 8 bytes[^\n]*packed \\(shorter than 512 bytes\\)\n *receive side: runs of 128 bytes[^\n]*\n *engine: alltoallv and shared \\(host memory\\) timed"
                       explain --shape 64 --from "block on 2" --to "cyclic on 2")
# The same on two "nodes" of one rank each: nothing to measure.
distarray_cli_mpi_test(explain_engine_short_runs_apart 2 0 "engine: alltoallv: no side of any rank is worth a datatype, no two ranks share a node"
                       explain --shape 64 --from "block on 2" --to "cyclic on 2")
set_property(TEST cli.explain_engine_short_runs_apart APPEND PROPERTY ENVIRONMENT DISTARRAY_EMULATED_NODES=2)
distarray_cli_mpi_test(explain_engine_asked 2 0 "engine: p2p, as asked"
                       explain --shape 64 --from "block on 2" --to "cyclic on 2" --exchange p2p)
# explain marks what a plan with the same options takes (choose_strategy), not only auto's pick.
distarray_cli_mpi_test(explain_follows_method 4 0 "\\* multiphase\\(d0: cyclic\\(8\\)"
                       explain --shape 64x64 --from "cyclic(8),block on 2x2" --to "cyclic(2),cyclic on 2x2"
                       --method multiphase --ts 1e-5 --te 1e-9)
distarray_cli_mpi_test(hsu_chung_refused_everywhere 3 1 "schedule 'hsu-chung' does not apply to dimension 0"
                       redist --shape 30x30 --from "cyclic(2),block on 3x1" --to "cyclic(3),block on 2x1"
                       --schedule hsu-chung)
