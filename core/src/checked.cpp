#include <distarray/core/checked.hpp>
#include <distarray/core/error.hpp>

#include <cstdio>

namespace distarray {

index_t checked_multiply(index_t a, index_t b, const char* what) {
  index_t product = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product))
    throw LayoutError(std::string(what) + " " + std::to_string(a) + " x " + std::to_string(b) +
                      " does not fit in 63 bits");
  return product;
}

index_t checked_add(index_t a, index_t b, const char* what) {
  index_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum))
    throw LayoutError(std::string(what) + " " + std::to_string(a) + " + " + std::to_string(b) +
                      " does not fit in 63 bits");
  return sum;
}

std::string byte_text(index_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace distarray
