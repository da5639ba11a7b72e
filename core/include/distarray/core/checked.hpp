#pragma once
// Size arithmetic that cannot wrap: element and byte counts of shapes that a
// user types (2^32 x 2^32 is 2^64 elements, 0 after wrapping) become a
// LayoutError naming the sizes instead of a silent wrong answer or a crash.

#include <distarray/core/types.hpp>

#include <array>
#include <cstddef>
#include <string>

namespace distarray {

/// a * b; LayoutError (naming `what`) when the product does not fit in index_t.
index_t checked_multiply(index_t a, index_t b, const char* what);

/// a + b; LayoutError (naming `what`) when the sum does not fit in index_t.
index_t checked_add(index_t a, index_t b, const char* what);

/// The product of `extents`; LayoutError when it does not fit in 63 bits.
template <std::size_t D>
index_t checked_element_count(const std::array<index_t, D>& extents) {
  index_t n = 1;
  for (index_t e : extents) n = checked_multiply(n, e, "element count");
  return n;
}

/// Bytes of `count` elements of `element_bytes` each; LayoutError on overflow.
inline index_t checked_bytes(index_t count, std::size_t element_bytes) {
  return checked_multiply(count, index_t(element_bytes), "byte count");
}

/// "1.5 GiB" style text of a byte count, for error messages.
std::string byte_text(index_t bytes);

}  // namespace distarray
