#pragma once
// The subcommands of the distarray tool.  Each parses its own options from
// argv[2..] and returns the process exit code; errors are thrown.

#include <mpi.h>

namespace distarray::cli {

int run_show(int argc, char** argv, MPI_Comm comm);
int run_redist(int argc, char** argv, MPI_Comm comm);
int run_explain(int argc, char** argv, MPI_Comm comm);
int run_save(int argc, char** argv, MPI_Comm comm);
int run_restore(int argc, char** argv, MPI_Comm comm);
int run_ls(int argc, char** argv, MPI_Comm comm);
int run_recover(int argc, char** argv, MPI_Comm comm);

}  // namespace distarray::cli
