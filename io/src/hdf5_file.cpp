#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/detail/hdf5_file.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace distarray::detail {

namespace {

/// HDF5 prints its own error stack to stderr by default; we raise exceptions instead.
void silence_hdf5() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

H5Id access_list(MPI_Comm comm) {
  H5Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL);
  return fapl;
}

/// The in-memory HDF5 type of an element type name.
H5Id memory_type(const std::string& type) {
  if (type == "f32") return H5Id(H5Tcopy(H5T_NATIVE_FLOAT), H5Tclose);
  if (type == "f64") return H5Id(H5Tcopy(H5T_NATIVE_DOUBLE), H5Tclose);
  if (type == "i32") return H5Id(H5Tcopy(H5T_NATIVE_INT32), H5Tclose);
  if (type == "i64") return H5Id(H5Tcopy(H5T_NATIVE_INT64), H5Tclose);
  if (type == "c64") {  // complex<double> as h5py writes it: fields r and i
    H5Id c(H5Tcreate(H5T_COMPOUND, 16), H5Tclose);
    H5Tinsert(c.get(), "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(c.get(), "i", 8, H5T_NATIVE_DOUBLE);
    return c;
  }
  throw CheckpointError("unsupported element type '" + type + "'");
}

/// Selects the union of the products of per-dimension pieces in `space`.
void select(hid_t space, const std::vector<std::vector<SlabPiece>>& pieces) {
  H5Sselect_none(space);
  const std::size_t d = pieces.size();
  for (const auto& p : pieces)
    if (p.empty()) return;
  std::vector<std::size_t> pos(d, 0);
  std::vector<hsize_t> start(d), stride(d), count(d), block(d);
  while (true) {
    for (std::size_t k = 0; k < d; ++k) {
      const SlabPiece& s = pieces[k][pos[k]];
      start[k] = s.start;
      stride[k] = s.stride;
      count[k] = s.count;
      block[k] = s.block;
    }
    H5Sselect_hyperslab(space, H5S_SELECT_OR, start.data(), stride.data(), count.data(), block.data());
    std::size_t k = d;
    while (k-- > 0) {
      if (++pos[k] < pieces[k].size()) break;
      pos[k] = 0;
    }
    if (k == std::size_t(-1)) return;
  }
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

void Hdf5File::fail(const std::string& what) const {
  throw CheckpointError("checkpoint '" + path_ + "': " + what);
}

Hdf5File Hdf5File::create(const std::string& path, MPI_Comm comm) {
  silence_hdf5();
  Hdf5File f;
  f.path_ = path;
  f.comm_ = comm;
  const H5Id fapl = access_list(comm);
  f.file_ = H5Id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
  if (f.file_.get() < 0) f.fail("cannot create the file");
  return f;
}

Hdf5File Hdf5File::open(const std::string& path, MPI_Comm comm) {
  silence_hdf5();
  require_file(path, comm);
  Hdf5File f;
  f.path_ = path;
  f.comm_ = comm;
  const H5Id fapl = access_list(comm);
  f.file_ = H5Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (f.file_.get() < 0) f.fail("cannot be opened as HDF5 (not an HDF5 file, or truncated or damaged)");
  return f;
}

H5Id Hdf5File::create_dataset(const std::string& name, const std::vector<index_t>& shape,
                              const std::string& type) {
  const H5Id mtype = memory_type(type);
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  const H5Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
  const H5Id lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  // Every element is written by the save: fill values would be a wasted pass.
  const H5Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER);
  H5Id ds(
      H5Dcreate2(file_.get(), name.c_str(), mtype.get(), space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT),
      H5Dclose);
  if (ds.get() < 0) fail("cannot create dataset '" + name + "' (does it exist already?)");
  return ds;
}

H5Id Hdf5File::open_dataset(const std::string& name) const {
  // Check each link of the path, so that a missing group is not an HDF5 error.
  std::string prefix;
  for (std::size_t from = 0; from <= name.size();) {
    const std::size_t slash = std::min(name.find('/', from), name.size());
    prefix += (prefix.empty() ? "" : "/") + name.substr(from, slash - from);
    if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) fail("no dataset '" + name + "'");
    from = slash + 1;
  }
  H5Id ds(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (ds.get() < 0) fail("'" + name + "' is not a dataset");
  return ds;
}

std::vector<index_t> Hdf5File::shape_of(hid_t dataset, const std::string& name) const {
  const H5Id space(H5Dget_space(dataset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("dataset '" + name + "' has no simple dataspace");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return std::vector<index_t>(dims.begin(), dims.end());
}

std::string Hdf5File::type_of(hid_t dataset, const std::string& name) const {
  const H5Id t(H5Dget_type(dataset), H5Tclose);
  const H5T_class_t cls = H5Tget_class(t.get());
  const std::size_t size = H5Tget_size(t.get());
  if (cls == H5T_FLOAT && size == 4) return "f32";
  if (cls == H5T_FLOAT && size == 8) return "f64";
  if (cls == H5T_INTEGER && H5Tget_sign(t.get()) == H5T_SGN_2 && size == 4) return "i32";
  if (cls == H5T_INTEGER && H5Tget_sign(t.get()) == H5T_SGN_2 && size == 8) return "i64";
  if (cls == H5T_COMPOUND && size == 16 && H5Tget_nmembers(t.get()) == 2) return "c64";
  fail("dataset '" + name + "' has an element type distarray does not read (class " +
       std::to_string(int(cls)) + ", " + std::to_string(size) + " bytes)");
}

void Hdf5File::write(hid_t dataset, const std::string& type,
                     const std::vector<std::vector<SlabPiece>>& pieces,
                     const std::vector<index_t>& local_extents, const void* data) const {
  const H5Id mtype = memory_type(type);
  const H5Id file_space(H5Dget_space(dataset), H5Sclose);
  if (H5Sget_simple_extent_npoints(file_space.get()) == 0) return;  // an empty array: nothing to transfer
  select(file_space.get(), pieces);
  const H5Id mem_space = memory_space(local_extents);
  const H5Id dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE);
  if (H5Dwrite(dataset, mtype.get(), mem_space.get(), file_space.get(), dxpl.get(), data) < 0)
    fail("writing a dataset failed");
}

void Hdf5File::read(hid_t dataset, const std::string& name, const std::string& type,
                    const std::vector<std::vector<SlabPiece>>& pieces,
                    const std::vector<index_t>& local_extents, void* data) const {
  const H5Id mtype = memory_type(type);
  const H5Id file_space(H5Dget_space(dataset), H5Sclose);
  if (H5Sget_simple_extent_npoints(file_space.get()) == 0) return;
  select(file_space.get(), pieces);
  const H5Id mem_space = memory_space(local_extents);
  const H5Id dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE);
  int ok = H5Dread(dataset, mtype.get(), mem_space.get(), file_space.get(), dxpl.get(), data) >= 0;
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm_));
  if (!ok) fail("reading dataset '" + name + "' failed (truncated or damaged file?)");
}

void Hdf5File::set_attribute(hid_t object, const std::string& key, const std::string& value) const {
  const H5Id t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t.get(), std::max<std::size_t>(value.size(), 1));
  const H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  const H5Id a(H5Acreate2(object, key.c_str(), t.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (a.get() < 0 || H5Awrite(a.get(), t.get(), value.c_str()) < 0)
    fail("cannot write attribute '" + key + "'");
}

void Hdf5File::set_attribute(hid_t object, const std::string& key, std::uint64_t value) const {
  const H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  const H5Id a(H5Acreate2(object, key.c_str(), H5T_NATIVE_UINT64, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose);
  if (a.get() < 0 || H5Awrite(a.get(), H5T_NATIVE_UINT64, &value) < 0)
    fail("cannot write attribute '" + key + "'");
}

H5Id Hdf5File::open_single_attribute(hid_t object, const std::string& key, H5T_class_t expected,
                                     const char* what) const {
  H5Id a(H5Aopen(object, key.c_str(), H5P_DEFAULT), H5Aclose);
  if (a.get() < 0) fail("cannot open attribute '" + key + "'");
  const H5Id space(H5Aget_space(a.get()), H5Sclose);
  const hssize_t values = H5Sget_simple_extent_npoints(space.get());
  if (values != 1) fail("attribute '" + key + "' holds " + std::to_string(values) + " values, expected one");
  const H5Id t(H5Aget_type(a.get()), H5Tclose);
  if (H5Tget_class(t.get()) != expected) fail("attribute '" + key + "' is not " + what);
  return a;
}

bool Hdf5File::get_attribute(hid_t object, const std::string& key, std::string& value) const {
  if (H5Aexists(object, key.c_str()) <= 0) return false;
  const H5Id a = open_single_attribute(object, key, H5T_STRING, "a fixed-length string");
  const H5Id t(H5Aget_type(a.get()), H5Tclose);
  if (H5Tis_variable_str(t.get()) > 0) fail("attribute '" + key + "' is not a fixed-length string");
  std::string buf(H5Tget_size(t.get()), char(0));
  if (H5Aread(a.get(), t.get(), buf.data()) < 0) fail("cannot read attribute '" + key + "'");
  value = buf.substr(0, buf.find('\0'));
  return true;
}

bool Hdf5File::get_attribute(hid_t object, const std::string& key, std::uint64_t& value) const {
  if (H5Aexists(object, key.c_str()) <= 0) return false;
  const H5Id a = open_single_attribute(object, key, H5T_INTEGER, "an integer");
  if (H5Aread(a.get(), H5T_NATIVE_UINT64, &value) < 0) fail("cannot read attribute '" + key + "'");
  return true;
}

void Hdf5File::close() {
  if (file_.get() >= 0 && H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing failed");
  file_.reset();
}

void commit_file(const std::string& temporary, const std::string& path, MPI_Comm comm) {
  MPI_Barrier(comm);  // every rank has closed the file
  int rank = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  int error = 0;
  if (rank == 0) {
    const int fd = ::open(temporary.c_str(), O_RDONLY);
    if (fd < 0 || ::fsync(fd) != 0) error = errno ? errno : EIO;
    if (fd >= 0) ::close(fd);
    if (!error && std::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
    if (!error) {  // make the rename itself durable
      const std::string dir = std::filesystem::path(path).parent_path().string();
      const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY);
      if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
      }
    }
  }
  DISTARRAY_MPI_CHECK(MPI_Bcast(&error, 1, MPI_INT, 0, comm));
  if (error)
    throw CheckpointError("checkpoint '" + path +
                          "': cannot move the finished file into place: " + std::strerror(error));
}

void require_file(const std::string& path, MPI_Comm comm) {
  int rank = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  int readable = rank == 0 ? ::access(path.c_str(), R_OK) == 0 : 0;
  DISTARRAY_MPI_CHECK(MPI_Bcast(&readable, 1, MPI_INT, 0, comm));
  if (!readable) throw CheckpointError("checkpoint '" + path + "': no such readable file");
}

}  // namespace distarray::detail
