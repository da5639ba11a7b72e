#pragma once
// Element types a checkpoint holds, by the names the format uses
// (docs/checkpoint-format.md), and the format version this library writes.

#include <complex>
#include <cstdint>
#include <type_traits>

namespace distarray {

/// The checkpoint format version this library writes; it reads every
/// version up to this one (2: the checksum covers element type and shape;
/// 3: a checksum a restore computes in about half the time).
inline constexpr std::uint64_t checkpoint_format_version = 3;

/// "f32", "f64", "c64", "i32" or "i64".
template <class T>
constexpr const char* element_type_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, double>) return "f64";
  if constexpr (std::is_same_v<T, std::complex<double>>) return "c64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "i64";
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, std::int64_t>,
                "checkpoints hold f32, f64, c64, i32 or i64 elements");
  return "";
}

}  // namespace distarray
