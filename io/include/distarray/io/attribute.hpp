#pragma once
// A user attribute of a checkpoint step: an integer, a real number or a
// short string (time, step number, parameters), stored as a scalar HDF5
// attribute that h5py shows as a number or str.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace distarray {

using AttributeValue = std::variant<std::int64_t, double, std::string>;

/// Named attributes in the order they were written.
using Attributes = std::vector<std::pair<std::string, AttributeValue>>;

/// Strings longer than this are refused: attributes are for parameters, not data.
inline constexpr std::size_t max_attribute_string = 4096;

}  // namespace distarray
