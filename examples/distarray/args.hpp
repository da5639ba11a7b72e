#pragma once
// Command-line options of the distarray tool: "--name value" and "--flag".

#include <map>
#include <set>
#include <string>
#include <vector>

namespace distarray::cli {

class Args {
 public:
  /// Parses argv[first..]; `valued` options take a value, `flags` do not.
  /// Throws UsageError naming an unknown option or a missing value.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued,
       const std::set<std::string>& flags);

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const;
  /// A non-negative integer option; UsageError names a malformed value.
  long long get_int(const std::string& name, long long fallback) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace distarray::cli
