#pragma once
// ArrayBase: a DistArray of any element type, rank and storage order in host
// memory, as Python sees it.  TypedArray<T, D, Order> holds the C++ array;
// Python reads and writes its local block through numpy views of the same
// memory (no copy), which keep the array alive.

#include "dispatch.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace distarray::python {

namespace py = pybind11;

class ArrayBase {
 public:
  virtual ~ArrayBase() = default;
  virtual DType dtype() const = 0;
  virtual int ndim() const = 0;
  virtual std::string order() const = 0;
  virtual AnyLayout layout() const = 0;
  virtual MPI_Comm comm() const = 0;
  /// The local block as a numpy array over its memory; `owner` (the Python
  /// object of this array) is kept alive by it.
  virtual py::array local(py::handle owner) = 0;
  /// Per dimension, the global index of every local element (numpy int64
  /// arrays of the local shape and order).
  virtual py::tuple global_indices() const = 0;
  /// The whole array on `root` as a numpy array of the global shape, None elsewhere.
  virtual py::object gather(int root) const = 0;
};

template <class T, int D, class Order>
class TypedArray final : public ArrayBase {
 public:
  using Array = DistArray<T, D, Kokkos::HostSpace, Order>;

  explicit TypedArray(Array a) : a_(std::move(a)) {}
  Array& array() { return a_; }
  const Array& array() const { return a_; }

  DType dtype() const override;
  int ndim() const override { return D; }
  std::string order() const override { return Array::storage_order == StorageOrder::row_major ? "C" : "F"; }
  AnyLayout layout() const override { return {a_.layout()}; }
  MPI_Comm comm() const override { return a_.comm(); }

  py::array local(py::handle owner) override {
    std::vector<py::ssize_t> shape(D), strides(D);
    for (int d = 0; d < D; ++d) {
      shape[std::size_t(d)] = py::ssize_t(a_.local_extents()[d]);
      strides[std::size_t(d)] = py::ssize_t(a_.local().stride(std::size_t(d)) * sizeof(T));
    }
    return py::array(py::dtype::of<T>(), shape, strides, a_.local().data(), owner);
  }

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
  Array a_;
};

/// The element type's DType.
template <class T>
DType dtype_of();

template <class T, int D, class Order>
DType TypedArray<T, D, Order>::dtype() const {
  return dtype_of<T>();
}

/// A new array of `layout` on `comm` (collective).
std::shared_ptr<ArrayBase> make_array(const AnyLayout& layout, DType dtype, MPI_Comm comm,
                                      const std::string& order);

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
