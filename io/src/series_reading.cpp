// Reading a series without writing anything: the steps it holds, which
// step a restore takes, and what a step journal beside it means to readers.

#include <distarray/core/collective.hpp>
#include <distarray/io/series.hpp>

#include "series_steps.hpp"

#include <cstdio>

namespace distarray {

namespace detail {

void warn(MPI_Comm comm, const std::string& text) {
  if (rank_of(comm) == 0) std::fprintf(stderr, "distarray: warning: %s\n", text.c_str());
}

std::map<std::uint64_t, std::pair<std::string, bool>> steps_of(const Hdf5File& file) {
  std::map<std::uint64_t, std::pair<std::string, bool>> steps;
  for (const std::string& child : file.children("/")) {
    if (!file.is_group(child)) continue;
    const auto group = file.open_group(child);
    std::uint64_t step = 0, complete = 0;
    if (!file.get_attribute(group.get(), "distarray_step", step)) continue;
    file.get_attribute(group.get(), "distarray_complete", complete);
    steps[step] = {child, complete == 1};
  }
  return steps;
}

}  // namespace detail

std::vector<StepInfo> list_steps(const std::string& path, MPI_Comm comm) {
  const auto file = detail::open_series_for_reading(path, comm);
  std::vector<StepInfo> out;
  for (const auto& [step, where] : detail::steps_of(file)) {
    StepInfo info{step, where.second, file.user_attributes(file.open_group(where.first).get()), {}};
    for (const std::string& name : file.children(where.first)) {
      const std::string dataset = where.first + "/" + name;
      const auto ds = file.open_dataset(dataset);
      const auto meta = detail::read_meta(file, ds.get(), dataset);
      info.arrays.emplace_back(name, DatasetInfo{meta.shape, meta.element_type, meta.saved_layout,
                                                 meta.storage_order, meta.compression});
    }
    out.push_back(std::move(info));
  }
  return out;
}

namespace detail {

Hdf5File open_series_for_reading(const std::string& path, MPI_Comm comm) {
  const std::string where = "series '" + path + "': ";
  const auto found = RollbackJournal::inspect(path, comm);
  const std::string step = std::to_string(found.step), journal = RollbackJournal::path_of(path);
  if (found.kind == RollbackJournal::Finding::in_progress)
    throw CheckpointError(where + "a step is being written (its journal is held by a running writer); read it "
                                  "once the step is committed");
  if (found.kind == RollbackJournal::Finding::foreign) warn(comm, where + "ignoring '" + journal + "': " + found.why);
  const bool unfinished = found.kind == RollbackJournal::Finding::unfinished;
  Hdf5File file;
  try {
    file = Hdf5File::open(path, comm);
  } catch (const CheckpointError& e) {
    if (!unfinished) throw;
    throw CheckpointError(std::string(e.what()) + " (step " + step +
                          " was left unfinished: roll it back with `distarray recover " + path +
                          "` or by opening the series to write)");
  }
  if (unfinished) {
    const auto steps = steps_of(file);
    const auto at = steps.find(found.step);
    if (at != steps.end() && at->second.second)  // its writer stopped after committing it
      warn(comm, where + "'" + journal + "' of step " + step +
                     ", which is complete, is left beside it; the next writer removes it");
    else
      warn(comm, where + "step " + step +
                     " was left unfinished by a writer that stopped inside it; reading the file as it is "
                     "(the next writer, or `distarray recover`, rolls the step back)");
  }
  return file;
}

std::string choose_step(const Hdf5File& file, std::optional<std::uint64_t> step, std::uint64_t& chosen) {
  const auto steps = steps_of(file);
  const std::string where = "series '" + file.path() + "': ";
  if (step) {
    const auto found = steps.find(*step);
    if (found == steps.end()) throw CheckpointError(where + "no step " + std::to_string(*step));
    if (!found->second.second)
      throw CheckpointError(where + "step " + std::to_string(*step) +
                            " is incomplete (its writer stopped before finishing it)");
    chosen = *step;
    return found->second.first;
  }
  auto latest = steps.rbegin();
  while (latest != steps.rend() && !latest->second.second) ++latest;
  if (latest == steps.rend()) throw CheckpointError(where + "holds no complete step");
  for (auto later = steps.rbegin(); later != latest; ++later)
    warn(file.comm(), where + "step " + std::to_string(later->first) +
                          " is incomplete and ignored (restoring step " + std::to_string(latest->first) +
                          ")");
  chosen = latest->first;
  return latest->second.first;
}

}  // namespace detail

}  // namespace distarray
