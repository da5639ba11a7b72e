#pragma once
// ArrayBase: a DistArray of any element type, rank and storage order, as
// Python sees it.  TypedArray<T, D, Order> holds the C++ array, in the
// memory of the build's default execution space (ArraySpace): host memory on
// Serial and OpenMP builds, where Python reads and writes the local block
// through numpy views of the same memory (no copy), and GPU memory on CUDA
// or HIP builds, where it goes through DLPack (dlpack.hpp) to CuPy or
// PyTorch.  Either way DLPack exports the block without a copy and copies
// into it from another array in the same memory.

#include "dispatch.hpp"
#include "dlpack.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace distarray::python {

namespace py = pybind11;

using ArraySpace = Kokkos::DefaultExecutionSpace::memory_space;
constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ArraySpace>::accessible;

class ArrayBase {
 public:
  virtual ~ArrayBase() = default;
  virtual DType dtype() const = 0;
  virtual int ndim() const = 0;
  virtual std::string order() const = 0;
  virtual AnyLayout layout() const = 0;
  virtual MPI_Comm comm() const = 0;
  /// The local block as a numpy array over its memory; `owner` (the Python
  /// object of this array) is kept alive by it.  Host memory only.
  virtual py::array local(py::handle owner) = 0;
  virtual std::vector<index_t> local_shape() const = 0;
  /// The local block as a DLPack capsule over its memory, keeping `owner` alive.
  virtual py::capsule dlpack(py::handle owner) = 0;
  /// Copies `values` (host memory, of the local shape) into the local block.
  virtual void assign_host(const py::array& values) = 0;
  /// Copies the DLPack tensor of `source` (in the array's memory, of the
  /// local shape and the array's dtype, any non-negative strides) into the local block.
  virtual void assign_dlpack(const py::object& source) = 0;
  /// Per dimension, the global index of every local element (numpy int64
  /// arrays of the local shape and order).
  virtual py::tuple global_indices() const = 0;
  /// The whole array on `root` as a numpy array of the global shape, None elsewhere.
  virtual py::object gather(int root) const = 0;
};

template <class T, int D, class Order>
class TypedArray final : public ArrayBase {
 public:
  using Array = DistArray<T, D, ArraySpace, Order>;
  using Data = typename Array::view_type::data_type;

  explicit TypedArray(Array a) : a_(std::move(a)) {}
  Array& array() { return a_; }
  const Array& array() const { return a_; }

  DType dtype() const override;
  int ndim() const override { return D; }
  std::string order() const override { return Array::storage_order == StorageOrder::row_major ? "C" : "F"; }
  AnyLayout layout() const override { return {a_.layout()}; }
  MPI_Comm comm() const override { return a_.comm(); }

  py::array local(py::handle owner) override {
    if constexpr (!host_memory) {
      throw UsageError("this build's arrays live in GPU memory: read a local block through DLPack");
    } else {
      std::vector<py::ssize_t> shape(D), strides(D);
      for (int d = 0; d < D; ++d) {
        shape[std::size_t(d)] = py::ssize_t(a_.local_extents()[d]);
        strides[std::size_t(d)] = py::ssize_t(a_.local().stride(std::size_t(d)) * sizeof(T));
      }
      return py::array(py::dtype::of<T>(), shape, strides, a_.local().data(), owner);
    }
  }
  std::vector<index_t> local_shape() const override {
    return {a_.local_extents().begin(), a_.local_extents().end()};
  }

  py::capsule dlpack(py::handle owner) override {
    std::vector<std::int64_t> shape(D), strides(D);
    for (int d = 0; d < D; ++d) {
      shape[std::size_t(d)] = a_.local_extents()[d];
      strides[std::size_t(d)] = std::int64_t(a_.local().stride(std::size_t(d)));
    }
    return dl::export_tensor(a_.local().data(), dl::device_of<ArraySpace>(), dl::type_of<T>(), shape, strides,
                             py::reinterpret_borrow<py::object>(owner));
  }

  void assign_host(const py::array& values) override {
    constexpr int contiguous =
        Array::storage_order == StorageOrder::row_major ? py::array::c_style : py::array::f_style;
    const auto v = py::array_t<T, contiguous | py::array::forcecast>::ensure(values);
    if (!v) throw UsageError("the values do not convert to " + std::string(dtype_name(dtype())));
    check_shape(std::vector<std::int64_t>(v.shape(), v.shape() + v.ndim()));
    using Host = Kokkos::View<Data, Order, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const Host host(const_cast<T*>(v.data()), a_.local().layout());  // the block's extents, on the host
    py::gil_scoped_release release;
    Kokkos::deep_copy(a_.local(), host);
  }

  void assign_dlpack(const py::object& source) override;

  py::tuple global_indices() const override {
    std::vector<py::ssize_t> shape(D);
    for (int d = 0; d < D; ++d) shape[std::size_t(d)] = py::ssize_t(a_.local_extents()[d]);
    py::tuple out(D);
    std::vector<std::int64_t*> data;
    for (int d = 0; d < D; ++d) {
      py::array_t<std::int64_t> idx(shape);  // C order: element i is local_index(i) for row-major blocks
      data.push_back(idx.mutable_data());
      out[std::size_t(d)] = idx;
    }
    const index_t n = a_.local_size();
    const Index<D> ext = a_.local_extents();
    for (index_t i = 0; i < n; ++i) {  // i in row-major order of the local shape, whatever the storage
      const Index<D> g = a_.global_index(storage_index(i, ext, StorageOrder::row_major));
      for (int d = 0; d < D; ++d) data[std::size_t(d)][i] = g[d];
    }
    return out;
  }

  py::object gather(int root) const override {
    std::vector<T> all;
    {
      py::gil_scoped_release release;
      all = a_.gather(root);
    }
    if (a_.grid().rank() != root) return py::none();
    const Index<D> shape = a_.layout().shape();
    std::vector<py::ssize_t> s(shape.begin(), shape.end());
    py::array_t<T> out(s);
    std::copy(all.begin(), all.end(), out.mutable_data());
    return std::move(out);
  }

 private:
  /// ShapeMismatch unless `shape` is this rank's local shape.
  void check_shape(const std::vector<std::int64_t>& shape) const {
    if (shape != std::vector<std::int64_t>(a_.local_extents().begin(), a_.local_extents().end()))
      throw ShapeMismatch("values of shape " + extents_text(shape) + " for a local block of shape " +
                          extents_text(a_.local_extents()));
  }

  Array a_;
};

/// The element type's DType.
template <class T>
DType dtype_of();

template <class T, int D, class Order>
DType TypedArray<T, D, Order>::dtype() const {
  return dtype_of<T>();
}

template <class T, int D, class Order>
void TypedArray<T, D, Order>::assign_dlpack(const py::object& source) {
  const dl::ImportedTensor imported(source);
  const dl::Tensor& t = imported.tensor();
  const dl::Device here = dl::device_of<ArraySpace>();
  if (t.device.device_type != here.device_type || t.device.device_id != here.device_id)
    throw UsageError("a DLPack array on " + dl::device_name(t.device.device_type) + " device " +
                     std::to_string(t.device.device_id) + ", but this build's arrays live on " +
                     dl::device_name(here.device_type) + " device " + std::to_string(here.device_id));
  const dl::DataType want = dl::type_of<T>();
  if (t.dtype.code != want.code || t.dtype.bits != want.bits || t.dtype.lanes != want.lanes)
    throw UsageError("a DLPack array of type code " + std::to_string(t.dtype.code) + ", " +
                     std::to_string(t.dtype.bits) + " bits, for a " + dtype_name(dtype()) + " array");
  const std::vector<std::int64_t> shape(t.shape, t.shape + t.ndim);
  check_shape(shape);
  Kokkos::LayoutStride layout;
  std::int64_t compact = 1;  // null strides: compact row-major
  for (int d = D - 1; d >= 0; --d) {
    const std::int64_t stride = t.strides ? t.strides[d] : compact;
    if (stride < 0) throw UsageError("a DLPack array with negative strides (a reversed view): pass a copy");
    layout.dimension[d] = std::size_t(shape[std::size_t(d)]);
    layout.stride[d] = std::size_t(stride);
    compact *= shape[std::size_t(d)];
  }
  using Strided =
      Kokkos::View<Data, Kokkos::LayoutStride, ArraySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const Strided from(reinterpret_cast<T*>(static_cast<char*>(t.data) + t.byte_offset), layout);
  py::gil_scoped_release release;
  Kokkos::deep_copy(a_.local(), from);
}

/// A new array of `layout` on `comm` (collective); its local block in
/// node-shared memory where `node_shared` (host or device memory: DistArray's).
std::shared_ptr<ArrayBase> make_array(const AnyLayout& layout, DType dtype, MPI_Comm comm,
                                      const std::string& order, bool node_shared = false);

/// `a` as a TypedArray<T, D, Order>, or a ShapeMismatch naming `what` and what it is.
template <class T, int D, class Order>
TypedArray<T, D, Order>& typed(ArrayBase& a, const char* what) {
  if (auto* t = dynamic_cast<TypedArray<T, D, Order>*>(&a)) return *t;
  throw ShapeMismatch(std::string(what) + " is a " + std::to_string(a.ndim()) + "-dimensional " +
                      dtype_name(a.dtype()) + " array in " + a.order() + " order, not a " +
                      std::to_string(D) + "-dimensional " + dtype_name(dtype_of<T>()) + " array in " +
                      (storage_order_of<Order>() == StorageOrder::row_major ? "C" : "F") + " order");
}

}  // namespace distarray::python
