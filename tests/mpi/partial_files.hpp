#pragma once
// The temporary files of a checkpoint being written, found as a user would
// find them: by their names in the target's folder (io/detail/durability/temporary_file.hpp:
// `<first bytes of the name>.<16 hex digits>.distarray-partial`).

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace distarray::testing {

/// The temporaries of writers of `path` (an ASCII name) present now, sorted.
inline std::vector<std::string> partial_files_of(const std::string& path) {
  const std::filesystem::path target = std::filesystem::absolute(path);
  const std::string prefix = target.filename().string().substr(0, 24) + ".";
  const std::string suffix = ".distarray-partial";
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(target.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name.size() == prefix.size() + 16 + suffix.size() && name.starts_with(prefix) &&
        name.ends_with(suffix))
      found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace distarray::testing
