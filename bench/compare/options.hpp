#pragma once
// The options bench_compare and bench_plan_build share: which sizes, element
// types and cases, and how many repetitions; a driver names its own options,
// whose values it reads from the support::Options returned.

#include <distarray/support/options.hpp>

#include <climits>
#include <set>
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

/// The table options (--sizes, --types, --reps, --cases) into `o`; the
/// returned options hold the values of the driver's own `extra` keys.
inline distarray::support::Options parse_options(int argc, char** argv, TableOptions& o,
                                                 const std::vector<std::string>& extra = {}) {
  std::set<std::string> keys = {"sizes", "types", "reps", "cases"};
  keys.insert(extra.begin(), extra.end());
  distarray::support::Options args(argc, argv, keys);
  if (args.has("sizes")) o.sizes = split(args.text("sizes"));
  if (args.has("types")) o.types = split(args.text("types"));
  o.reps = int(args.integer("reps", o.reps, 1, INT_MAX));
  o.only = args.text("cases", o.only);
  return args;
}

}  // namespace compare
