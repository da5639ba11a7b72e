#pragma once
// Command-line options of the distarray tool: "--name value" and "--flag".
// Parsing is strict: an option given twice, a number with trailing text or
// out of range is a UsageError naming the option.

#include <map>
#include <set>
#include <string>
#include <vector>

namespace distarray::cli {

class Args {
 public:
  /// Parses argv[first..]; `valued` options take a value, `flags` do not.
  /// Throws UsageError naming an unknown, repeated or valueless option.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued,
       const std::set<std::string>& flags);

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const;
  /// An integer option in [min, max]; UsageError names a malformed or out-of-range value.
  long long get_int(const std::string& name, long long fallback, long long min, long long max) const;
  /// A finite number >= 0 (e.g. seconds); UsageError names a malformed value.
  double get_seconds(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace distarray::cli
