#pragma once
// Element types a checkpoint holds, by the names the format uses
// (docs/checkpoint-format.md), and the format version this library writes.

#include <distarray/core/element_types.hpp>

#include <cstdint>
#include <string>

namespace distarray {

/// The checkpoint format version this library writes; it reads every
/// version up to this one (2: the checksum covers element type and shape;
/// 3: a checksum a restore computes in about half the time; 4: complex
/// double elements are named c128, as numpy's complex128, where earlier
/// formats said c64, which numpy reads as two floats).
inline constexpr std::uint64_t checkpoint_format_version = 5;

/// The name checkpoints give T's elements (core/element_types.hpp).
template <class T>
constexpr const char* element_type_name() {
  static_assert(ElementType<T>::name != nullptr, "checkpoints hold f32, f64, c128, i32 or i64 elements");
  return ElementType<T>::name;
}

/// An element type name as files of format `version` spell it (and hash it
/// into their checksum): c128 was c64 before format 4.
inline std::string element_type_name_in_format(const std::string& type, std::uint64_t version) {
  return type == "c128" && version < 4 ? "c64" : type;
}

/// The name this library uses for a name any format spells (c64: c128).
inline std::string current_element_type_name(const std::string& name) {
  return name == "c64" ? "c128" : name;
}

}  // namespace distarray
