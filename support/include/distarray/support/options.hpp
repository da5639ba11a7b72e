#pragma once
// The "--name value" and "--flag" options of the distarray command, the
// examples and the benchmarks, parsed in one place and strictly: an unknown
// or repeated option, a stray word, a missing value, a number with trailing
// text or out of range is a UsageError naming the option, never ignored.
//
//   const distarray::support::Options args(argc, argv, {"n", "reps"});
//   const long long n = args.integer("n", 1024, 1);
//
// A command with sub-commands passes its own words: Options(argc - 1, argv + 1, ...).
// "--help" or "-h" anywhere throws HelpAsked, which is no error:
// driver_main prints its usage and exits 0.

#include <distarray/core/error.hpp>

#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <string>

namespace distarray::support {

/// The command line asked for help; `usage` lists the options, e.g.
/// "[--n VALUE] [--verify]".
struct HelpAsked {
  std::string usage;
};

class Options {
 public:
  /// Parses argv[1..argc): the `valued` options take a value, the `flags` do
  /// not (names without the leading "--").
  Options(int argc, char** argv, const std::set<std::string>& valued,
          const std::set<std::string>& flags = {}) {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") throw HelpAsked{usage(valued, flags)};
      if (arg.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + arg + "'");
      const std::string name = arg.substr(2);
      if (!flags.count(name) && !valued.count(name))
        throw UsageError("unknown option '" + arg + "' (options: " + listed(valued, flags) + ")");
      if (values_.count(name)) throw UsageError("option '" + arg + "' is given more than once");
      if (flags.count(name)) {
        values_[name] = "";
      } else {
        if (i + 1 >= argc) throw UsageError("option '" + arg + "' needs a value");
        values_[name] = argv[++i];
      }
    }
  }

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::string text(const std::string& name, const std::string& fallback = "") const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }
  /// A whole number in [min, max]; UsageError names a malformed or out-of-range value.
  long long integer(const std::string& name, long long fallback, long long min = LLONG_MIN,
                    long long max = LLONG_MAX) const {
    if (!has(name)) return fallback;
    long long v = 0;
    if (!parse(values_.at(name), v) || v < min || v > max) {
      const std::string range = min == LLONG_MIN && max == LLONG_MAX ? std::string()
                                : max == LLONG_MAX
                                    ? " >= " + std::to_string(min)
                                    : " from " + std::to_string(min) + " to " + std::to_string(max);
      throw UsageError("option '--" + name + "' needs an integer" + range + ", got '" + values_.at(name) +
                       "'");
    }
    return v;
  }
  /// A finite number; UsageError names a malformed value.
  double number(const std::string& name, double fallback) const {
    if (!has(name)) return fallback;
    double v = 0;
    if (!parse(values_.at(name), v) || !std::isfinite(v))
      throw UsageError("option '--" + name + "' needs a finite number, got '" + values_.at(name) + "'");
    return v;
  }
  /// A finite number >= 0 of seconds; UsageError names a malformed or absent value.
  double seconds(const std::string& name) const {
    double v = 0;
    if (!has(name) || !parse(values_.at(name), v) || !std::isfinite(v) || v < 0)
      throw UsageError("option '--" + name + "' needs a finite number >= 0 (seconds), got '" + text(name) +
                       "'");
    return v;
  }

 private:
  template <class V>
  static bool parse(const std::string& s, V& v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  }
  static std::string usage(const std::set<std::string>& valued, const std::set<std::string>& flags) {
    std::string s;
    for (const std::string& n : valued) s += (s.empty() ? "[--" : " [--") + n + " VALUE]";
    for (const std::string& n : flags) s += (s.empty() ? "[--" : " [--") + n + "]";
    return s;
  }
  static std::string listed(const std::set<std::string>& valued, const std::set<std::string>& flags) {
    std::string s;
    for (const std::set<std::string>* names : {&valued, &flags})
      for (const std::string& n : *names) s += (s.empty() ? "--" : " --") + n;
    return s;
  }

  std::map<std::string, std::string> values_;
};

}  // namespace distarray::support
