#include <distarray/core/detail/collective.hpp>
#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/detail/durability/temporary_file.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include "hdf5_types.hpp"
#include "same_arguments.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace distarray::detail {

namespace {

/// HDF5 prints its own error stack to stderr by default; we raise exceptions instead.
void silence_hdf5() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

/// Selects the union of the products of per-dimension pieces in `space`.
void select(hid_t space, const std::vector<std::vector<SlabPiece>>& pieces) {
  H5Sselect_none(space);
  const std::size_t d = pieces.size();
  std::vector<std::size_t> sizes(d);
  for (std::size_t k = 0; k < d; ++k) sizes[k] = pieces[k].size();
  std::vector<hsize_t> start(d), stride(d), count(d), block(d);
  for_each_tuple(sizes, [&](const std::vector<std::size_t>& pos) {
    for (std::size_t k = 0; k < d; ++k) {
      const SlabPiece& s = pieces[k][pos[k]];
      start[k] = s.start;
      stride[k] = s.stride;
      count[k] = s.count;
      block[k] = s.block;
    }
    H5Sselect_hyperslab(space, H5S_SELECT_OR, start.data(), stride.data(), count.data(), block.data());
  });
}

/// The memory dataspace of a row-major local block (all of it, or nothing if empty).
H5Id memory_space(const std::vector<index_t>& extents) {
  std::vector<hsize_t> dims;
  bool empty = false;
  for (index_t e : extents) {
    dims.push_back(hsize_t(std::max<index_t>(e, 1)));
    empty = empty || e == 0;
  }
  H5Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
  if (empty) H5Sselect_none(space.get());
  return space;
}

}  // namespace

std::string dataset_path(const std::string& name) {
  const std::size_t first = name.find_first_not_of('/');
  if (first == std::string::npos) throw CheckpointError("dataset name '" + name + "' is empty");
  return name.substr(first);
}

void Hdf5File::fail(const std::string& what) const {
  throw CheckpointError("checkpoint '" + path_ + "': " + what);
}

void Hdf5File::agree(bool failed, const std::string& what) const {
  detail::agree<CheckpointError>(comm_, failed, "checkpoint '" + path_ + "': " + what);
}

// OpenMPI's OMPIO copies the path and a suffix into fixed buffers (its
// shared-file-pointer component aborts with "buffer overflow detected" for a
// 400-byte path or a file name near NAME_MAX): a long path goes to MPI-IO as
// this process's own descriptor of the file, a short /proc/self/fd/N path.
std::string Hdf5File::mpi_io_name(const std::string& path, bool writable) {
  constexpr std::size_t longest_passed = 100;
  if (path.size() <= longest_passed) return path;
  long_name_ = Descriptor(::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC));
  agree(long_name_.get() < 0, std::string("cannot open it: ") + std::strerror(errno));
  return "/proc/self/fd/" + std::to_string(long_name_.get());
}

Hdf5File Hdf5File::create(const std::string& path, MPI_Comm comm) {
  agree_same_arguments(comm, "checkpoint '" + path + "'", {{"the file", path}});
  silence_hdf5();
  Hdf5File f;
  f.path_ = path;
  f.comm_ = comm;
  f.open_noting_descriptors(f.mpi_io_name(path, true), H5F_ACC_TRUNC, true);  // TemporaryFile made it
  f.agree(f.file_.get() < 0, "cannot create the file");
  return f;
}

Descriptor::~Descriptor() {
  if (fd_ >= 0) ::close(fd_);
}

Hdf5File Hdf5File::open(const std::string& path, MPI_Comm comm, bool writable) {
  agree_same_arguments(comm, "checkpoint '" + path + "'", {{"the file", path}});
  silence_hdf5();
  require_regular_file(path, comm);
  Hdf5File f;
  f.path_ = path;
  f.comm_ = comm;
  f.open_noting_descriptors(f.mpi_io_name(path, writable), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, false);
  f.agree(f.file_.get() < 0, "cannot be opened as HDF5 (not an HDF5 file, or truncated or damaged)");
  return f;
}

void Hdf5File::agree_on_dataset(const std::string& name, const std::vector<index_t>& shape,
                                const std::string& type, const std::vector<std::uint64_t>& chunk,
                                int level) const {
  std::string chunks;
  for (const auto c : chunk) chunks += std::to_string(c) + " ";
  agree_same_arguments(
      comm_, "checkpoint '" + path_ + "'",
      {{"the dataset's name", name},
       {"dataset '" + name + "''s shape", extents_text(shape)},
       {"dataset '" + name + "''s element type", type},
       {"dataset '" + name + "''s compression", "chunks " + chunks + "level " + std::to_string(level)}});
}

H5Id Hdf5File::create_dataset(const std::string& name, const std::vector<index_t>& shape,
                              const std::string& type, const std::vector<std::uint64_t>& chunk,
                              int level) const {
  const std::string path = dataset_path(name);
  const H5Id mtype = memory_type(type);
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  const H5Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
  const H5Id lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  // Every element is written by the save: fill values would be a wasted pass.
  const H5Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER);
  if (!chunk.empty()) set_compression(dcpl.get(), chunk, level);
  H5Id ds(
      H5Dcreate2(file_.get(), path.c_str(), mtype.get(), space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT),
      H5Dclose);
  agree(ds.get() < 0, "cannot create dataset '" + name + "' (does it exist already?)");
  return ds;
}

H5Id Hdf5File::open_dataset(const std::string& name) const {
  agree_same_arguments(comm_, "checkpoint '" + path_ + "'", {{"the dataset's name", name}});
  const std::string path = dataset_path(name);
  if (!exists(name)) fail("no dataset '" + name + "'");
  H5Id ds(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
  if (ds.get() < 0) fail("'" + name + "' is not a dataset");
  const H5Id dcpl(H5Dget_create_plist(ds.get()), H5Pclose);
  if (H5Pget_layout(dcpl.get()) == H5D_VIRTUAL)
    fail("dataset '" + name +
         "' is a virtual dataset (it maps other files); distarray reads only stored data");
  return ds;
}

std::pair<std::uint64_t, std::uint64_t> Hdf5File::storage_of(hid_t dataset) const {
  const haddr_t offset = H5Dget_offset(dataset);
  if (offset == HADDR_UNDEF) return {0, 0};
  return {offset, H5Dget_storage_size(dataset)};
}

std::vector<index_t> Hdf5File::shape_of(hid_t dataset, const std::string& name) const {
  const H5Id space(H5Dget_space(dataset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("dataset '" + name + "' has no simple dataspace");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  std::vector<index_t> shape;
  index_t count = 1;
  for (hsize_t e : dims) {
    if (e > hsize_t(INT64_MAX) || __builtin_mul_overflow(count, index_t(e), &count))
      fail("dataset '" + name + "' has more elements than fit in 63 bits");
    shape.push_back(index_t(e));
  }
  return shape;
}

std::string Hdf5File::type_of(hid_t dataset, const std::string& name) const {
  const H5Id t(H5Dget_type(dataset), H5Tclose);
  const std::string type = element_type_of(t.get());
  if (type.empty())
    fail("dataset '" + name + "' has an element type distarray does not read (" + describe_type(t.get()) +
         "); it reads f32, f64, i32, i64 and c128 (a compound of float64 members 'r' and 'i')");
  return type;
}

void Hdf5File::write(hid_t dataset, const std::string& type,
                     const std::vector<std::vector<SlabPiece>>& pieces,
                     const std::vector<index_t>& local_extents, const void* data) const {
  const H5Id mtype = memory_type(type);
  const H5Id file_space(H5Dget_space(dataset), H5Sclose);
  if (H5Sget_simple_extent_npoints(file_space.get()) == 0) return;  // an empty array: nothing to transfer
  select(file_space.get(), pieces);
  const H5Id mem_space = memory_space(local_extents);
  // Each rank writes one contiguous range of its own (a file slab): an
  // independent transfer, which OMPIO runs without its two-phase aggregation
  // (as reads below); parallel HDF5 writes filtered (compressed) datasets
  // only collectively.
  const H5Id dcpl(H5Dget_create_plist(dataset), H5Pclose);
  const H5Id dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  H5Pset_dxpl_mpio(dxpl.get(),
                   H5Pget_nfilters(dcpl.get()) > 0 ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT);
  agree(H5Dwrite(dataset, mtype.get(), mem_space.get(), file_space.get(), dxpl.get(), data) < 0,
        "writing a dataset failed");
}

void Hdf5File::read(hid_t dataset, const std::string& name, const std::string& type,
                    const std::vector<std::vector<SlabPiece>>& pieces,
                    const std::vector<index_t>& local_extents, void* data) const {
  const H5Id mtype = memory_type(type);
  const H5Id file_space(H5Dget_space(dataset), H5Sclose);
  if (H5Sget_simple_extent_npoints(file_space.get()) == 0) return;
  select(file_space.get(), pieces);
  const H5Id mem_space = memory_space(local_extents);
  // Independent: every rank reads one contiguous range of its own (a file
  // slab), which needs no two-phase aggregation; OpenMPI 4.1's OMPIO runs a
  // collective read of such ranges through its aggregators at a fifth of
  // the speed (bench/checkpoint_io.cpp measures both).
  const H5Id dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_INDEPENDENT);
  agree(H5Dread(dataset, mtype.get(), mem_space.get(), file_space.get(), dxpl.get(), data) < 0,
        "reading dataset '" + name + "' failed (truncated or damaged file?)");
}

void Hdf5File::flush() const {
  agree(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0, "flushing the file failed");
}

void Hdf5File::close() {
  if (file_.get() < 0) return;
  flush();  // then the close has nothing left to write, so it cannot fail
  writable_ = false;
  agree(H5Fclose(file_.release()) < 0, "closing the file failed");
}

}  // namespace distarray::detail
