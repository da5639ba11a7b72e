// Reading a series without writing anything: the steps it holds, which
// step a restore takes, and what a step journal beside it means to readers.

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/series.hpp>

#include "same_arguments.hpp"
#include "series_steps.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <optional>
#include <vector>

namespace distarray {

namespace detail {

void warn(MPI_Comm comm, const std::string& text) {
  if (rank_of(comm) == 0) std::fprintf(stderr, "distarray: warning: %s\n", text.c_str());
}

namespace {

/// n for a group name "step_<n>" (decimal, no leading zeros).
std::optional<std::uint64_t> step_of_name(const std::string& name) {
  const std::string digits = name.rfind("step_", 0) == 0 ? name.substr(5) : "";
  if (digits.empty() || digits.size() > 19 || (digits.size() > 1 && digits[0] == '0') ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits);
}

/// Whether this rank reads `path` as a series file (series_attribute at its root).
bool reads_as_series(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  try {
    return has_series_attribute(Hdf5File::open(path, MPI_COMM_SELF));
  } catch (const std::exception&) {
    return false;  // not HDF5, or damaged: no series to keep
  }
}

}  // namespace

bool has_series_attribute(const Hdf5File& file) {
  std::uint64_t version = 0;
  return file.get_attribute(file.open_group("/").get(), series_attribute, version);
}

bool is_series_file(const std::string& path, MPI_Comm comm) {
  int series = rank_of(comm) == 0 && reads_as_series(path);
  DISTARRAY_MPI_CHECK(MPI_Bcast(&series, 1, MPI_INT, 0, comm));
  return series != 0;
}

std::map<std::uint64_t, StepEntry> steps_of(const Hdf5File& file) {
  std::map<std::uint64_t, StepEntry> steps;
  for (const std::string& child : file.children("/")) {
    if (!file.is_group(child)) continue;
    const auto group = file.open_group(child);
    const std::optional<std::uint64_t> named = step_of_name(child);
    std::uint64_t step = 0, complete = 0;
    bool has_step = false;
    std::string damage;
    try {
      has_step = file.get_attribute(group.get(), "distarray_step", step);
      file.get_attribute(group.get(), "distarray_complete", complete);
    } catch (const CheckpointError& e) {  // an attribute of the wrong type or shape
      damage = e.what();
    }
    if (!named && !has_step && damage.empty()) continue;  // not a step group
    if (damage.empty() && !has_step) damage = "it has no distarray_step attribute";
    if (damage.empty() && !named)
      damage =
          "its distarray_step attribute says " + std::to_string(step) + " but it is named '" + child + "'";
    if (damage.empty() && *named != step)
      damage = "its distarray_step attribute says step " + std::to_string(step);
    steps[named.value_or(step)] = {child, damage.empty() && complete == 1, damage};
  }
  return steps;
}

}  // namespace detail

std::vector<StepInfo> list_steps(const std::string& path, MPI_Comm comm) {
  return detail::read_series(path, comm, [](const detail::Hdf5File& file) {
    std::vector<StepInfo> out;
    // A plain checkpoint's groups may be named as steps are ("step_100/u"): not steps.
    if (!detail::has_series_attribute(file)) return out;
    for (const auto& [step, entry] : detail::steps_of(file)) {
      StepInfo info{step, entry.complete, {}, {}, entry.damage};
      if (!entry.damage.empty()) {  // listed as damaged; its contents are not trusted
        out.push_back(std::move(info));
        continue;
      }
      info.attributes = file.user_attributes(file.open_group(entry.group).get());
      for (const std::string& name : file.children(entry.group))
        info.arrays.emplace_back(name, detail::dataset_info(file, entry.group + "/" + name));
      out.push_back(std::move(info));
    }
    return out;
  });
}

StepArrayInfo step_array_info(const std::string& path, const std::string& name, MPI_Comm comm,
                              std::optional<std::uint64_t> step) {
  return detail::read_series(path, comm, [&](const detail::Hdf5File& file) {
    StepArrayInfo out;
    out.array = detail::dataset_info(file, detail::choose_step(file, step, name, out.step) + "/" + name);
    return out;
  });
}

namespace detail {

Hdf5File open_series_for_reading(const std::string& path, MPI_Comm comm, std::string& advice) {
  agree_same_arguments(comm, "series '" + path + "'", {{"the file", path}});
  const std::string where = "series '" + path + "': ";
  const auto found = RollbackJournal::inspect(path, comm);
  const std::string step = std::to_string(found.step), journal = RollbackJournal::path_of(path);
  if (found.kind == RollbackJournal::Finding::in_progress)
    throw CheckpointError(where +
                          "a step is being written (its journal is held by a running writer); read it "
                          "once the step is committed");
  if (found.kind == RollbackJournal::Finding::foreign)
    warn(comm, where + "ignoring '" + journal + "': " + found.why);
  advice.clear();
  if (found.kind != RollbackJournal::Finding::unfinished) return Hdf5File::open(path, comm);
  advice = " (step " + step + " was left unfinished: roll it back with `distarray recover " + path +
           "` or by opening the series to write)";
  try {
    Hdf5File file = Hdf5File::open(path, comm);
    const auto steps = steps_of(file);
    const auto at = steps.find(found.step);
    if (at != steps.end() && at->second.complete)  // its writer stopped after committing it
      warn(comm, where + "'" + journal + "' of step " + step +
                     ", which is complete, is left beside it; the next writer removes it");
    else
      warn(comm, where + "step " + step +
                     " was left unfinished by a writer that stopped inside it; reading the file as it is "
                     "(the next writer, or `distarray recover`, rolls the step back)");
    return file;
  } catch (const CheckpointError& e) {
    throw CheckpointError(e.what() + advice);
  }
}

std::string choose_step(const Hdf5File& file, std::optional<std::uint64_t> step, const std::string& name,
                        std::uint64_t& chosen) {
  const std::string where = "series '" + file.path() + "': ";
  // A plain checkpoint's groups may be named as steps are ("step_100/u"):
  // read as steps, they would be called damaged.
  if (!has_series_attribute(file))
    throw CheckpointError(
        where +
        "the file is not a distarray series (no distarray_series attribute); a checkpoint's "
        "arrays are read with restore");
  const auto steps = steps_of(file);
  if (step) {
    const auto found = steps.find(*step);
    if (found == steps.end()) throw CheckpointError(where + "no step " + std::to_string(*step));
    if (!found->second.damage.empty())
      throw CheckpointError(where + "step " + std::to_string(*step) + " is damaged: " + found->second.damage);
    if (!found->second.complete)
      throw CheckpointError(where + "step " + std::to_string(*step) +
                            " is incomplete (its writer stopped before finishing it)");
    chosen = *step;
    return found->second.group;
  }
  // The latest complete step holding the array; the later ones passed over are named in warnings.
  std::vector<std::string> passed;
  for (auto latest = steps.rbegin(); latest != steps.rend(); ++latest) {
    const StepEntry& e = latest->second;
    const std::string which = "step " + std::to_string(latest->first);
    if (!e.damage.empty()) {
      passed.push_back(which + " is damaged and ignored: " + e.damage);
    } else if (!e.complete) {
      passed.push_back(which + " is incomplete and ignored");
    } else if (!file.exists(e.group + "/" + name)) {
      passed.push_back(which + " holds no array '" + name + "'");
    } else {
      for (const std::string& why : passed)
        warn(file.comm(), where + why + " (restoring step " + std::to_string(latest->first) + ")");
      chosen = latest->first;
      return e.group;
    }
  }
  throw CheckpointError(where + "holds no complete step with an array '" + name + "'");
}

}  // namespace detail

}  // namespace distarray
