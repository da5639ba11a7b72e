#include <distarray/core/collective.hpp>
#include <distarray/io/series.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

namespace distarray {

namespace {

void warn(MPI_Comm comm, const std::string& text) {
  if (detail::rank_of(comm) == 0) std::fprintf(stderr, "distarray: warning: %s\n", text.c_str());
}

/// Step number and completeness of each step group of an open file, by step.
std::map<std::uint64_t, std::pair<std::string, bool>> steps_of(const detail::Hdf5File& file) {
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

void recover_warning(const std::string& path, MPI_Comm comm) {
  if (detail::RollbackJournal::recover(path, comm))
    warn(comm, "series '" + path +
                   "': a step that its writer did not finish was rolled back; the file is as after its last "
                   "complete step");
}

}  // namespace

std::string step_group(std::uint64_t step) { return "step_" + std::to_string(step); }

Series::Series(std::string path, MPI_Comm comm) : path_(std::move(path)) {
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  try {
    int missing = 0;
    struct stat st {};
    if (detail::rank_of(comm_) == 0) missing = ::stat(path_.c_str(), &st) != 0 && errno == ENOENT;
    DISTARRAY_MPI_CHECK(MPI_Bcast(&missing, 1, MPI_INT, 0, comm_));
    if (missing) {  // an empty series, moved into place whole
      detail::TemporaryFile temporary(path_, comm_);
      auto created = detail::Hdf5File::create(temporary.path(), comm_);
      created.set_attribute(created.open_group("/").get(), "distarray_series", std::uint64_t(1));
      created.close();
      temporary.sync(comm_);
      temporary.commit(comm_);
    }
    std::string problem;
    if (detail::rank_of(comm_) == 0) {
      lock_ = detail::Descriptor(::open(path_.c_str(), O_RDWR | O_CLOEXEC));
      if (lock_.get() < 0)
        problem = std::string("cannot open it for writing: ") + std::strerror(errno);
      else if (!detail::lock_exclusive(lock_.get()))
        problem = "another writer has it open";
    }
    detail::agree<CheckpointError>(comm_, !problem.empty(), "series '" + path_ + "': " + problem);
    recover_warning(path_, comm_);
    reopen();
    std::uint64_t version = 0;
    if (!file_.get_attribute(file_.open_group("/").get(), "distarray_series", version))
      throw CheckpointError(
          "series '" + path_ +
          "': the file is not a distarray series (no distarray_series attribute); steps are "
          "appended only to files that Series created");
  } catch (...) {
    file_ = {};
    lock_ = {};
    MPI_Comm_free(&comm_);
    throw;
  }
}

Series::~Series() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  try {
    abandon_step();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "distarray: series '%s': %s\n", path_.c_str(), e.what());
  }
  file_ = {};
  lock_ = {};
  MPI_Comm_free(&comm_);
}

void Series::reopen() { file_ = detail::Hdf5File::open(path_, comm_, true); }

void Series::require_step(const char* what) const {
  if (!step_) throw UsageError(std::string("Series::") + what + " needs an open step: call begin_step first");
}

void Series::check_array_name(const std::string& name) const {
  if (name.empty() || name.find('/') != std::string::npos)
    throw UsageError("array name '" + name + "' must be non-empty and without '/'");
}

void Series::begin_step(std::uint64_t step, const Attributes& attributes) {
  if (step_)
    throw UsageError("step " + std::to_string(*step_) + " of series '" + path_ +
                     "' is open: commit_step() or abandon_step() it first");
  for (const auto& [key, value] : attributes) {
    if (key.empty() || key.rfind("distarray_", 0) == 0)
      throw UsageError("step attribute name '" + key + "' is empty or starts with the reserved 'distarray_'");
    if (const auto* text = std::get_if<std::string>(&value); text && text->size() > max_attribute_string)
      throw UsageError("step attribute '" + key + "' is a string of " + std::to_string(text->size()) +
                       " bytes; attributes hold at most " + std::to_string(max_attribute_string));
  }
  const auto steps = steps_of(file_);
  const auto found = steps.find(step);
  if (found != steps.end() && found->second.second)
    throw CheckpointError("series '" + path_ + "': step " + std::to_string(step) +
                          " is complete in the file already");
  file_.flush();
  std::uint64_t length = 0;
  struct stat st {};
  if (lock_.get() >= 0 && ::fstat(lock_.get(), &st) == 0) length = std::uint64_t(st.st_size);
  journal_ = detail::RollbackJournal::write(path_, length, file_.data_extents(), comm_);
  step_ = step;
  if (found != steps.end()) file_.remove(found->second.first);  // an unfinished step's leftover
  const auto group = file_.create_group(step_group(step));
  file_.set_attribute(group.get(), "distarray_step", step);
  for (const auto& [key, value] : attributes) file_.set_attribute(group.get(), key, value);
}

void Series::commit_step() {
  require_step("commit_step");
  const auto sync = [this] {
    file_.flush();
    detail::agree<CheckpointError>(comm_, lock_.get() >= 0 && ::fsync(lock_.get()) != 0,
                                   "series '" + path_ + "': syncing the file failed");
  };
  sync();  // the arrays are on disk before the marker says so
  file_.set_attribute(file_.open_group(step_group(*step_)).get(), "distarray_complete", std::uint64_t(1));
  sync();
  journal_.discard(comm_);
  step_.reset();
}

void Series::abandon_step() {
  if (!step_) return;
  step_.reset();
  try {
    file_.close();
  } catch (const CheckpointError&) {
    // rolled back below whatever the close left
  }
  journal_.roll_back(comm_);
  reopen();
}

std::vector<StepInfo> list_steps(const std::string& path, MPI_Comm comm) {
  recover_warning(path, comm);
  const auto file = detail::Hdf5File::open(path, comm);
  std::vector<StepInfo> out;
  for (const auto& [step, where] : steps_of(file)) {
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
