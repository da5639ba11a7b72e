// The compiled half of the Python module distarray (distarray._core): the
// error classes, Layout, the array type and the functions registered by the
// other files of this folder.  python/distarray/__init__.py makes the API
// Python users see out of it (mpi4py communicators, defaults, docs).

#include "arrays.hpp"
#include "bindings.hpp"

#include <pybind11/stl.h>

namespace distarray::python {

MPI_Comm comm_at(std::uintptr_t address) { return *reinterpret_cast<MPI_Comm*>(address); }

namespace {

void bind_errors(py::module_& m) {
  // Python classes mirroring the C++ hierarchy; each carries the C++ message.
  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception<LayoutError>(m, "LayoutError", error);
  py::register_exception<ShapeMismatch>(m, "ShapeMismatch", error);
  py::register_exception<MpiError>(m, "MpiError", error);
  py::register_exception<ScheduleError>(m, "ScheduleError", error);
  py::register_exception<CheckpointError>(m, "CheckpointError", error);
  py::register_exception<AllocationError>(m, "AllocationError", error);
  py::register_exception<UsageError>(m, "UsageError", error);
}

template <int D>
Index<D> index_of(const std::vector<index_t>& v, const char* what) {
  if (int(v.size()) != D)
    throw ShapeMismatch(std::string(what) + " has " + std::to_string(v.size()) + " entries for a " +
                        std::to_string(D) + "-dimensional layout");
  Index<D> out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

void bind_layout(py::module_& m) {
  py::class_<AnyLayout>(m, "Layout")
      .def(py::init([](const std::string& text, const std::vector<index_t>& shape) {
             return with_ndim(int(shape.size()), [&]<int D>(std::integral_constant<int, D>) -> AnyLayout {
               return {Layout<D>::parse(text, index_of<D>(shape, "shape"))};
             });
           }),
           py::arg("text"), py::arg("shape"))
      .def_property_readonly("ndim", &AnyLayout::ndim)
      .def_property_readonly("shape",
                             [](const AnyLayout& l) {
                               return std::visit([](const auto& x) { return as_vector(x.shape()); }, l.v);
                             })
      .def_property_readonly(
          "grid_size",
          [](const AnyLayout& l) { return std::visit([](const auto& x) { return x.grid().size(); }, l.v); })
      .def(
          "local_shape",
          [](const AnyLayout& l, int rank) {
            return std::visit(
                [&]<int D>(const Layout<D>& x) {
                  const auto c = x.grid().coord_of(rank);
                  return as_vector(c ? x.local_extents(*c) : Index<D>{});
                },
                l.v);
          },
          py::arg("rank"))
      .def(
          "owner",
          [](const AnyLayout& l, const std::vector<index_t>& index) {
            return std::visit(
                [&]<int D>(const Layout<D>& x) {
                  const Index<D> g = index_of<D>(index, "index");
                  const Index<D> shape = x.shape();
                  for (int d = 0; d < D; ++d)
                    if (g[d] < 0 || g[d] >= shape[d])
                      throw ShapeMismatch("index " + std::to_string(g[d]) + " of dimension " +
                                          std::to_string(d) + " is outside the shape (" +
                                          std::to_string(shape[d]) + ")");
                  return x.owner_rank(g);
                },
                l.v);
          },
          py::arg("index"))
      .def("__str__",
           [](const AnyLayout& l) { return std::visit([](const auto& x) { return x.to_string(); }, l.v); })
      .def("__repr__",
           [](const AnyLayout& l) {
             return std::visit([](const auto& x) { return "Layout('" + x.to_string() + "')"; }, l.v);
           })
      .def("__eq__", [](const AnyLayout& a, const AnyLayout& b) { return a == b; });
}

void bind_array(py::module_& m) {
  py::class_<ArrayBase, std::shared_ptr<ArrayBase>>(m, "Array")
      .def(py::init([](const AnyLayout& layout, const std::string& dtype, std::uintptr_t comm,
                       const std::string& order, bool node_shared) {
             return make_array(layout, dtype_from_name(dtype), comm_at(comm), order, node_shared);
           }),
           py::arg("layout"), py::arg("dtype"), py::arg("comm"), py::arg("order"),
           py::arg("node_shared") = false)
      .def_property_readonly("dtype", [](const ArrayBase& a) { return std::string(dtype_name(a.dtype())); })
      .def_property_readonly("ndim", &ArrayBase::ndim)
      .def_property_readonly("order", &ArrayBase::order)
      .def_property_readonly("layout", &ArrayBase::layout)
      .def_property_readonly("local", [](py::object self) { return self.cast<ArrayBase&>().local(self); })
      .def_property_readonly("local_shape", &ArrayBase::local_shape)
      .def("dlpack", [](py::object self) { return self.cast<ArrayBase&>().dlpack(self); })
      .def("assign_host", &ArrayBase::assign_host, py::arg("values"))
      .def("assign_dlpack", &ArrayBase::assign_dlpack, py::arg("source"))
      .def("global_indices", &ArrayBase::global_indices)
      .def("gather", &ArrayBase::gather, py::arg("root"));
}

}  // namespace

}  // namespace distarray::python

PYBIND11_MODULE(_core, m) {
  using namespace distarray::python;
  m.doc() = "distarray's compiled core; use the distarray package";
  // Kokkos is initialized once per process, here unless the embedding
  // program did it, and finalized after the interpreter (Py_AtExit): by then
  // every array and plan has let its Kokkos memory go, which Kokkos requires.
  if (!Kokkos::is_initialized()) {
    Kokkos::initialize();
    Py_AtExit([] { Kokkos::finalize(); });
  }
  // Where the arrays live: host memory (numpy views), or a GPU (DLPack only).
  const dl::Device device = dl::device_of<ArraySpace>();
  m.attr("host_memory") = host_memory;
  m.attr("dlpack_device") = py::make_tuple(device.device_type, device.device_id);
  m.def("dlpack_dtype",
        [](const py::object& source) { return dl::type_name(dl::ImportedTensor(source).tensor().dtype); });
  bind_errors(m);
  bind_layout(m);
  bind_array(m);
  bind_plans(m);
  bind_io(m);
  bind_transform(m);
}
