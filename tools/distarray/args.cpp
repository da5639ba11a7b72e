#include "args.hpp"

#include <distarray/core/error.hpp>

#include <charconv>
#include <cmath>

namespace distarray::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& valued,
           const std::set<std::string>& flags) {
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + arg + "'");
    const std::string name = arg.substr(2);
    if (!flags.count(name) && !valued.count(name)) throw UsageError("unknown option '" + arg + "'");
    if (values_.count(name)) throw UsageError("option '" + arg + "' is given more than once");
    if (flags.count(name)) {
      values_[name] = "";
    } else {
      if (i + 1 >= argc) throw UsageError("option '" + arg + "' needs a value");
      values_[name] = argv[++i];
    }
  }
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

long long Args::get_int(const std::string& name, long long fallback, long long min, long long max) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  long long v = 0;
  const std::string& s = it->second;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < min || v > max)
    throw UsageError("option '--" + name + "' needs an integer from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got '" + s + "'");
  return v;
}

double Args::get_seconds(const std::string& name) const {
  const std::string s = get(name, "");
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0)
    throw UsageError("option '--" + name + "' needs a finite number >= 0 (seconds), got '" + s + "'");
  return v;
}

}  // namespace distarray::cli
