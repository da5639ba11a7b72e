// The DLPack capsules of the Python module (dlpack.hpp).

#include "dlpack.hpp"

#include "dispatch.hpp"

#include <distarray/core/error.hpp>

namespace distarray::python::dl {

namespace {

constexpr const char* fresh_name = "dltensor";
constexpr const char* used_name = "used_dltensor";

/// What an exported tensor owns: its shape and strides, and the Python
/// object whose memory it shows.
struct Exported {
  ManagedTensor managed{};
  std::vector<std::int64_t> shape, strides;
  py::object owner;
};

void delete_exported(ManagedTensor* self) {
  auto* e = static_cast<Exported*>(self->manager_ctx);
  py::gil_scoped_acquire gil;  // consumers may let go of it from any thread, with or without the GIL
  delete e;
}

}  // namespace

std::string device_name(std::int32_t device_type) {
  switch (device_type) {
    case cpu:
      return "CPU";
    case cuda:
      return "CUDA";
    case cuda_host:
      return "CUDA host";
    case rocm:
      return "ROCm";
    case rocm_host:
      return "ROCm host";
    case cuda_managed:
      return "CUDA managed";
    default:
      return "type " + std::to_string(device_type);
  }
}

std::string type_name(const DataType& t) {
  const int bits = t.bits;
  if (t.lanes == 1 && t.code == int_code && (bits == 32 || bits == 64)) return "int" + std::to_string(bits);
  if (t.lanes == 1 && t.code == float_code && (bits == 32 || bits == 64))
    return "float" + std::to_string(bits);
  if (t.lanes == 1 && t.code == complex_code && (bits == 64 || bits == 128))
    return "complex" + std::to_string(bits);
  throw UsageError("a DLPack array of type code " + std::to_string(t.code) + ", " + std::to_string(bits) +
                   " bits, " + std::to_string(t.lanes) + " lanes: distarray holds " + dtype_names());
}

py::capsule export_tensor(void* data, Device device, DataType dtype, const std::vector<std::int64_t>& shape,
                          const std::vector<std::int64_t>& strides, py::object owner) {
  auto* e = new Exported{{}, shape, strides, std::move(owner)};
  e->managed.dl_tensor = {data, device, std::int32_t(shape.size()), dtype, e->shape.data(), e->strides.data(),
                          0};
  e->managed.manager_ctx = e;
  e->managed.deleter = delete_exported;
  // A capsule nobody consumed still owns the tensor; a consumer renames it.
  return py::capsule(&e->managed, fresh_name, [](PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, fresh_name)) {
      auto* m = static_cast<ManagedTensor*>(PyCapsule_GetPointer(capsule, fresh_name));
      m->deleter(m);
    }
  });
}

ImportedTensor::ImportedTensor(const py::object& source) {
  if (!py::hasattr(source, "__dlpack__"))
    throw UsageError("the object does not speak DLPack (it has no __dlpack__)");
  py::object capsule = source.attr("__dlpack__")();
  if (!PyCapsule_IsValid(capsule.ptr(), fresh_name))
    throw UsageError("__dlpack__ returned no unused \"dltensor\" capsule");
  managed_ = static_cast<ManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), fresh_name));
  PyCapsule_SetName(capsule.ptr(), used_name);  // ours now: the capsule no longer deletes it
}

ImportedTensor::~ImportedTensor() {
  if (managed_ && managed_->deleter) managed_->deleter(managed_);
}

}  // namespace distarray::python::dl
