#pragma once
// The options bench_compare and bench_plan_build share: which sizes, element
// types and cases, and how many repetitions; a driver's own options go to
// its callback, which returns false for an option it does not know.

#include <distarray/core/error.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace compare {

struct TableOptions {
  std::vector<std::string> sizes, types{"double", "complex"};
  int reps = 10;
  std::string only;  ///< cases whose name contains this
};

inline std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> v;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) v.push_back(item);
  return v;
}

/// Parses "--key value" pairs into `o` (--sizes, --types, --reps, --cases)
/// or through own(key, value).
template <class Own>
void parse_options(int argc, char** argv, TableOptions& o, Own&& own) {
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) throw distarray::UsageError("option '" + key + "' needs a value");
    const std::string value = argv[i + 1];
    if (key == "--sizes")
      o.sizes = split(value);
    else if (key == "--types")
      o.types = split(value);
    else if (key == "--reps")
      o.reps = std::stoi(value);
    else if (key == "--cases")
      o.only = value;
    else if (!own(key, value))
      throw distarray::UsageError("unknown option '" + key + "'");
  }
  if (o.reps < 1) throw distarray::UsageError("--reps must be at least 1");
}

}  // namespace compare
