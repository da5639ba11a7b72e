#include <distarray/io/checkpoint.hpp>

#include <cstdio>

namespace distarray {

CheckpointWriter::CheckpointWriter(std::string path, MPI_Comm comm)
    : path_(std::move(path)), temporary_(path_ + ".distarray-partial") {
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  file_ = detail::Hdf5File::create(temporary_, comm_);
}

CheckpointWriter::~CheckpointWriter() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (!committed_) {
    try {
      file_.close();
    } catch (const Error&) {  // the file is abandoned anyway
    }
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);  // a destructor must not throw; rank stays 0 on failure
    if (rank == 0) std::remove(temporary_.c_str());
  }
  MPI_Comm_free(&comm_);
}

void CheckpointWriter::commit() {
  file_.close();
  detail::commit_file(temporary_, path_, comm_);
  committed_ = true;
}

std::string CheckpointWriter::library_version() { return DISTARRAY_VERSION; }

DatasetInfo checkpoint_info(const std::string& path, const std::string& name, MPI_Comm comm) {
  auto file = detail::Hdf5File::open(path, comm);
  const auto ds = file.open_dataset(name);
  DatasetInfo info{file.shape_of(ds.get(), name), file.type_of(ds.get(), name), {}};
  file.get_attribute(ds.get(), "distarray_layout", info.saved_layout);
  return info;
}

}  // namespace distarray
