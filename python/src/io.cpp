// Checkpoints and series for Python: save, restore, Series, list_steps and
// restore_step over the module's arrays.  The file format holds every
// element type but complex64 (a CheckpointError says so).

#include "arrays.hpp"
#include "bindings.hpp"

#include <distarray/io.hpp>

#include <pybind11/stl.h>

namespace distarray::python {

namespace {

/// The element types checkpoints hold, by their names in files and numpy's
/// (core/element_types.hpp): the module's file_types.
py::dict file_types() {
  py::dict types;
  for_each_named_element_type([&]<class T>() { types[ElementType<T>::name] = ElementType<T>::numpy; });
  return types;
}

/// f(typed array) for an array whose element type a checkpoint can hold.
template <class F>
decltype(auto) with_stored_array(ArrayBase& a, F&& f) {
  return with_dtype(a.dtype(), [&]<class T>(Tag<T>) {
    if constexpr (ElementType<T>::name == nullptr) {
      throw CheckpointError("checkpoints hold " + element_type_names(NameColumn::numpy) + ", not " +
                            ElementType<T>::numpy + " arrays");
      return f(typed<double, 1, Kokkos::LayoutRight>(a, "unreachable"));  // the return type
    } else {
      return with_ndim(a.ndim(), [&]<int D>(std::integral_constant<int, D>) {
        return with_order(a.order(), [&]<class O>(Tag<O>) { return f(typed<T, D, O>(a, "the array")); });
      });
    }
  });
}

Compression compression_of(std::optional<int> level) {
  return level ? Compression::deflate(*level) : Compression{};
}

/// A new array of `layout` filled by read(typed C++ array).
template <class Read>
std::shared_ptr<ArrayBase> read_new(const AnyLayout& layout, const std::string& dtype, std::uintptr_t comm,
                                    const std::string& order, Read&& read) {
  std::shared_ptr<ArrayBase> a = make_array(layout, dtype_from_name(dtype), comm_at(comm), order);
  with_stored_array(*a, [&](auto& typed_array) {
    py::gil_scoped_release release;
    read(typed_array.array());
  });
  return a;
}

py::object attribute_value(const AttributeValue& v) {
  return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

Attributes attributes_from(const py::dict& d) {
  Attributes out;
  for (const auto& [key, value] : d) {
    const std::string k = py::str(key);
    if (py::isinstance<py::bool_>(value) || py::isinstance<py::int_>(value))
      out.emplace_back(k, value.cast<std::int64_t>());
    else if (py::isinstance<py::float_>(value))
      out.emplace_back(k, value.cast<double>());
    else if (py::isinstance<py::str>(value))
      out.emplace_back(k, value.cast<std::string>());
    else
      throw UsageError("step attribute '" + k + "' is not an int, a float or a str");
  }
  return out;
}

py::dict info_dict(const DatasetInfo& info) {
  py::dict d;
  d["shape"] = info.shape;
  d["element_type"] = info.element_type;
  d["layout"] = info.saved_layout;
  return d;
}

py::dict step_dict(const StepInfo& s) {
  py::dict d, attributes, arrays;
  d["step"] = s.step;
  d["complete"] = s.complete;
  for (const auto& [k, v] : s.attributes) attributes[py::str(k)] = attribute_value(v);
  d["attributes"] = attributes;
  for (const auto& [name, info] : s.arrays) arrays[py::str(name)] = info_dict(info);
  d["arrays"] = arrays;
  d["damage"] = s.damage;
  return d;
}

}  // namespace

void bind_io(py::module_& m) {
  m.attr("file_types") = file_types();
  m.def(
      "save",
      [](const std::string& path, const std::string& name, ArrayBase& a, std::optional<int> compress) {
        with_stored_array(a, [&](auto& t) {
          py::gil_scoped_release release;
          save(path, name, t.array(), compression_of(compress));
        });
      },
      py::arg("path"), py::arg("name"), py::arg("array"), py::arg("compress"));
  m.def(
      "checkpoint_info",
      [](const std::string& path, const std::string& name, std::uintptr_t comm) {
        DatasetInfo info;
        {
          py::gil_scoped_release release;
          info = checkpoint_info(path, name, comm_at(comm));
        }
        return info_dict(info);
      },
      py::arg("path"), py::arg("name"), py::arg("comm"));
  m.def(
      "step_array_info",
      [](const std::string& path, const std::string& name, std::uintptr_t comm,
         std::optional<std::uint64_t> step) {
        StepArrayInfo info;
        {
          py::gil_scoped_release release;
          info = step_array_info(path, name, comm_at(comm), step);
        }
        return py::make_tuple(info.step, info_dict(info.array));
      },
      py::arg("path"), py::arg("name"), py::arg("comm"), py::arg("step"));
  m.def(
      "restore",
      [](const std::string& path, const std::string& name, const AnyLayout& layout, const std::string& dtype,
         std::uintptr_t comm, const std::string& order, bool verify) {
        RestoreOptions options;
        options.verify_checksum = verify;
        return read_new(layout, dtype, comm, order, [&](auto& into) { restore(path, name, into, options); });
      },
      py::arg("path"), py::arg("name"), py::arg("layout"), py::arg("dtype"), py::arg("comm"),
      py::arg("order"), py::arg("verify"));
  m.def(
      "restore_step",
      [](const std::string& path, const std::string& name, const AnyLayout& layout, const std::string& dtype,
         std::uintptr_t comm, const std::string& order, std::optional<std::uint64_t> step, bool verify) {
        RestoreOptions options;
        options.verify_checksum = verify;
        std::uint64_t chosen = 0;
        auto a = read_new(layout, dtype, comm, order,
                          [&](auto& into) { chosen = restore_step(path, name, into, step, options); });
        return py::make_tuple(a, chosen);
      },
      py::arg("path"), py::arg("name"), py::arg("layout"), py::arg("dtype"), py::arg("comm"),
      py::arg("order"), py::arg("step"), py::arg("verify"));
  m.def(
      "list_arrays",
      [](const std::string& path, std::uintptr_t comm) {
        std::vector<std::pair<std::string, DatasetInfo>> arrays;
        {
          py::gil_scoped_release release;
          arrays = list_arrays(path, comm_at(comm));
        }
        py::dict out;
        for (const auto& [name, info] : arrays) out[py::str(name)] = info_dict(info);
        return out;
      },
      py::arg("path"), py::arg("comm"));
  m.def(
      "list_steps",
      [](const std::string& path, std::uintptr_t comm) {
        std::vector<StepInfo> steps;
        {
          py::gil_scoped_release release;
          steps = list_steps(path, comm_at(comm));
        }
        py::list out;
        for (const StepInfo& s : steps) out.append(step_dict(s));
        return out;
      },
      py::arg("path"), py::arg("comm"));
  py::class_<Series>(m, "Series")
      .def(py::init([](const std::string& path, std::uintptr_t comm) {
             py::gil_scoped_release release;
             return std::make_unique<Series>(path, comm_at(comm));
           }),
           py::arg("path"), py::arg("comm"))
      .def(
          "begin_step",
          [](Series& s, std::uint64_t step, const py::dict& attributes) {
            const Attributes a = attributes_from(attributes);
            py::gil_scoped_release release;
            s.begin_step(step, a);
          },
          py::arg("step"), py::arg("attributes"))
      .def(
          "write",
          [](Series& s, const std::string& name, ArrayBase& a, std::optional<int> compress) {
            with_stored_array(a, [&](auto& t) {
              py::gil_scoped_release release;
              s.write(name, t.array(), compression_of(compress));
            });
          },
          py::arg("name"), py::arg("array"), py::arg("compress"))
      .def("commit_step", &Series::commit_step, py::call_guard<py::gil_scoped_release>())
      .def("abandon_step", &Series::abandon_step, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("path", &Series::path);
}

}  // namespace distarray::python
