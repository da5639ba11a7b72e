#pragma once
// DLPack (dmlc/dlpack, the "dltensor" capsule protocol of the Python array
// API): how the module hands a local block to CuPy, PyTorch or numpy without
// a copy, and reads one from them.  The structs mirror DLPack 0.8's ABI
// (dlpack.h: DLDevice, DLDataType, DLTensor, DLManagedTensor), which Debian
// does not package; only the fields' layout matters.

#include <pybind11/pybind11.h>

#include <Kokkos_Core.hpp>

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace distarray::python {

namespace py = pybind11;

namespace dl {

enum DeviceType : std::int32_t {
  cpu = 1,
  cuda = 2,
  cuda_host = 3,
  rocm = 10,
  rocm_host = 11,
  cuda_managed = 13
};
enum TypeCode : std::uint8_t { int_code = 0, uint_code = 1, float_code = 2, complex_code = 5 };

struct Device {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DataType {
  std::uint8_t code, bits;
  std::uint16_t lanes;
};
struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null: compact row-major
  std::uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};

/// The DLPack type of element type T.
template <class T>
constexpr DataType type_of() {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return {complex_code, std::uint8_t(8 * sizeof(T)), 1};
  else if constexpr (std::is_floating_point_v<T>)
    return {float_code, std::uint8_t(8 * sizeof(T)), 1};
  else
    return {int_code, std::uint8_t(8 * sizeof(T)), 1};
}

/// The DLPack device of memory space Space: the CPU for host memory, else
/// the GPU the default execution space runs on.
template <class Space>
Device device_of() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Space, Kokkos::CudaSpace>)
    return {cuda, Kokkos::Cuda().cuda_device()};
  else if constexpr (std::is_same_v<Space, Kokkos::CudaUVMSpace>)
    return {cuda_managed, Kokkos::Cuda().cuda_device()};
  else
#endif
#if defined(KOKKOS_ENABLE_HIP)
      if constexpr (std::is_same_v<Space, Kokkos::HIPSpace>)
    return {rocm, Kokkos::HIP().hip_device()};
  else
#endif
  {
    static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible,
                  "the module's arrays live in a memory space DLPack has no device for");
    return {cpu, 0};
  }
}

/// A device type's name in messages.
std::string device_name(std::int32_t device_type);

/// numpy's name of a DLPack type the module holds (float32, ..., complex128),
/// or a UsageError naming it.
std::string type_name(const DataType& t);

/// A "dltensor" capsule over `data` (not copied): `shape` and `strides` in
/// elements; `owner` is kept alive until the consumer lets the tensor go.
py::capsule export_tensor(void* data, Device device, DataType dtype, const std::vector<std::int64_t>& shape,
                          const std::vector<std::int64_t>& strides, py::object owner);

/// A tensor taken from an object's __dlpack__(): valid while this lives,
/// then handed back to its producer.
class ImportedTensor {
 public:
  explicit ImportedTensor(const py::object& source);
  ImportedTensor(const ImportedTensor&) = delete;
  ImportedTensor& operator=(const ImportedTensor&) = delete;
  ~ImportedTensor();
  const Tensor& tensor() const { return managed_->dl_tensor; }

 private:
  ManagedTensor* managed_ = nullptr;
};

}  // namespace dl
}  // namespace distarray::python
