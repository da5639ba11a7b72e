#pragma once
// The "--key value" options of the examples and benchmarks, parsed in one
// place, so that every program refuses a mistyped option or a missing value
// the same way (a UsageError naming it) instead of ignoring it.
//
//   const distarray::support::Options args(argc, argv, {"--n", "--reps"});
//   const index_t n = args.integer("--n", 1024);

#include <distarray/core/error.hpp>

#include <cstddef>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace distarray::support {

class Options {
 public:
  /// argv[1..] as "--key value" pairs of the keys in `known`; `flags` are
  /// keys without a value.  UsageError for another word or a missing value.
  Options(int argc, char** argv, const std::vector<std::string>& known,
          const std::vector<std::string>& flags = {})
      : known_(known.begin(), known.end()), flags_(flags.begin(), flags.end()) {
    for (int i = 1; i < argc; ++i) {
      const std::string key = argv[i];
      if (flags_.count(key)) {
        values_[key] = "";
      } else if (known_.count(key)) {
        if (i + 1 >= argc) throw UsageError("option '" + key + "' needs a value");
        values_[key] = argv[++i];
      } else {
        throw UsageError("unknown option '" + key + "' (known: " + names() + ")");
      }
    }
  }

  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::string text(const std::string& key, const std::string& fallback = "") const {
    const auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }
  /// The value of `key` as a whole number; UsageError when it is not one.
  long long integer(const std::string& key, long long fallback) const {
    return convert(key, fallback, [](const std::string& v, std::size_t* end) { return std::stoll(v, end); });
  }
  /// The value of `key` as a number; UsageError when it is not one.
  double number(const std::string& key, double fallback) const {
    return convert(key, fallback, [](const std::string& v, std::size_t* end) { return std::stod(v, end); });
  }

 private:
  template <class V, class Convert>
  V convert(const std::string& key, V fallback, Convert&& to) const {
    if (!has(key)) return fallback;
    const std::string& v = values_.at(key);
    std::size_t end = 0;
    try {
      const V x = to(v, &end);
      if (end == v.size()) return x;
    } catch (const std::logic_error&) {  // std::invalid_argument, std::out_of_range
    }
    throw UsageError("option '" + key + "': '" + v + "' is not a number");
  }
  std::string names() const {
    std::string s;
    for (const std::set<std::string>* keys : {&known_, &flags_})
      for (const std::string& k : *keys) s += (s.empty() ? "" : " ") + k;
    return s;
  }

  std::set<std::string> known_, flags_;
  std::map<std::string, std::string> values_;
};

}  // namespace distarray::support
