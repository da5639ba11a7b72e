// The DType names and the array factory of the Python module.

#include "arrays.hpp"

#include <array>

namespace distarray::python {

namespace {
// In DType's order.
constexpr std::array<const char*, 6> names = {ElementType<float>::numpy,
                                              ElementType<double>::numpy,
                                              ElementType<std::int32_t>::numpy,
                                              ElementType<std::int64_t>::numpy,
                                              ElementType<std::complex<float>>::numpy,
                                              ElementType<std::complex<double>>::numpy};
}  // namespace

DType dtype_from_name(const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (name == names[i]) return DType(i);
  throw UsageError("dtype '" + name + "' is not supported: " + dtype_names());
}

std::string dtype_names() {
  std::string known;
  for (const char* n : names) known += (known.empty() ? "" : ", ") + std::string(n);
  return known;
}

const char* dtype_name(DType t) { return names[std::size_t(t)]; }

template <class T>
DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::float32;
  if constexpr (std::is_same_v<T, double>) return DType::float64;
  if constexpr (std::is_same_v<T, std::int32_t>) return DType::int32;
  if constexpr (std::is_same_v<T, std::int64_t>) return DType::int64;
  if constexpr (std::is_same_v<T, std::complex<float>>) return DType::complex64;
  return DType::complex128;
}
template DType dtype_of<float>();
template DType dtype_of<double>();
template DType dtype_of<std::int32_t>();
template DType dtype_of<std::int64_t>();
template DType dtype_of<std::complex<float>>();
template DType dtype_of<std::complex<double>>();

std::shared_ptr<ArrayBase> make_array(const AnyLayout& layout, DType dtype, MPI_Comm comm,
                                      const std::string& order, bool node_shared) {
  return std::visit(
      [&]<int D>(const Layout<D>& l) -> std::shared_ptr<ArrayBase> {
        return with_dtype(dtype, [&]<class T>(Tag<T>) {
          return with_order(order, [&]<class O>(Tag<O>) -> std::shared_ptr<ArrayBase> {
            using Array = DistArray<T, D, ArraySpace, O>;
            py::gil_scoped_release release;
            if (node_shared)
              return std::make_shared<TypedArray<T, D, O>>(Array(l, comm, distarray::node_shared));
            return std::make_shared<TypedArray<T, D, O>>(Array(l, comm));
          });
        });
      },
      layout.v);
}

}  // namespace distarray::python
