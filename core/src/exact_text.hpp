#pragma once
// A double as text that reads back to the same bits (std::to_chars' shortest
// such form), for text that must tell any two values apart: arguments agreed
// between ranks (same_arguments.hpp), the wisdom file's costs.

#include <charconv>
#include <string>

namespace distarray::detail {

inline std::string exact_text(double v) {
  char text[32];  // the longest such form, "-2.2250738585072014e-308", has 24
  return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

}  // namespace distarray::detail
