// distarray ls FILE: what a checkpoint holds — a series' steps with their
// completeness, attributes and arrays, or a plain checkpoint's arrays (shape,
// element type, the layout and storage order saved from, compression) — read
// on rank 0's behalf by all.

#include "commands.hpp"
#include "report_table.hpp"

#include <distarray/io.hpp>
#include <distarray/support/options.hpp>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace distarray::cli {

namespace {

std::string attribute_text(const AttributeValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* x = std::get_if<double>(&v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", *x);
    return buf;
  }
  return "\"" + std::get<std::string>(v) + "\"";
}

std::string array_text(const std::string& name, const DatasetInfo& info) {
  std::string t = "  " + name + "  " + info.element_type + " " + extents_text(info.shape);
  if (!info.saved_layout.empty())
    t += "  saved from \"" + info.saved_layout + "\"" +
         (info.storage_order.empty() ? "" : " (" + info.storage_order + ")");
  if (!info.compression.empty()) t += "  " + info.compression;
  return t;
}

}  // namespace

int run_ls(int argc, char** argv, MPI_Comm comm) {
  const bool positional = argc > 2 && std::string(argv[2]).rfind("--", 0) != 0;
  const support::Options args(argc - (positional ? 2 : 1), argv + (positional ? 2 : 1), {"file"}, {});
  if (!positional && !args.has("file")) throw UsageError("ls needs a file: distarray ls FILE");
  const std::string path = positional ? argv[2] : args.text("file", "");
  const auto steps = list_steps(path, comm);
  std::vector<std::pair<std::string, DatasetInfo>> arrays;  // a plain checkpoint's (it has no steps)
  if (steps.empty()) arrays = list_arrays(path, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return 0;
  if (!arrays.empty()) {
    std::printf("%s: a checkpoint (not a series), %zu array%s\n", path.c_str(), arrays.size(),
                arrays.size() == 1 ? "" : "s");
    for (const auto& [name, info] : arrays) std::printf("%s\n", array_text(name, info).c_str());
    return 0;
  }
  std::size_t complete = 0;
  for (const StepInfo& s : steps) complete += s.complete;
  std::printf("%s: %zu steps, %zu complete\n", path.c_str(), steps.size(), complete);
  for (const StepInfo& s : steps) {
    std::string line = "step " + std::to_string(s.step) +
                       (!s.damage.empty() ? "  DAMAGED (ignored): " + s.damage
                        : s.complete      ? "  complete"
                                          : "  INCOMPLETE (ignored)");
    for (const auto& [key, value] : s.attributes) line += "  " + key + "=" + attribute_text(value);
    std::printf("%s\n", line.c_str());
    for (const auto& [name, info] : s.arrays) std::printf("%s\n", array_text(name, info).c_str());
  }
  return 0;
}

}  // namespace distarray::cli
