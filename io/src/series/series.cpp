#include <distarray/core/detail/collective.hpp>
#include <distarray/io/series.hpp>

#include "exact_text.hpp"
#include "same_arguments.hpp"
#include "series_steps.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

namespace distarray {

namespace {

/// Whether `path` holds step `step` complete, read by this rank alone; false
/// when the file cannot be read (a step stopped midway may leave it so).
bool committed_on_disk(const std::string& path, std::uint64_t step) {
  try {
    const auto steps = detail::steps_of(detail::Hdf5File::open(path, MPI_COMM_SELF));
    const auto found = steps.find(step);
    return found != steps.end() && found->second.complete;
  } catch (const std::exception&) {
    return false;
  }
}

/// An attribute's value as text, with its type, exactly (its bits decide
/// the comparison) and, where a string, its length: no two lists of
/// attributes read the same (a string holding "'; b=" once read as two).
std::string attribute_text(std::int64_t v) { return "int64 " + std::to_string(v); }
std::string attribute_text(double v) { return "double " + detail::exact_text(v); }
std::string attribute_text(const std::string& v) {
  return "string '" + v + "' (" + std::to_string(v.size()) + " chars)";
}

}  // namespace

std::string step_group(std::uint64_t step) { return "step_" + std::to_string(step); }

Series::Series(std::string path, MPI_Comm comm) : path_(std::move(path)) {
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  try {
    detail::agree_same_arguments(comm_, "series '" + path_ + "'", {{"the file", path_}});
    open_locked();
    const auto committed = [this](std::uint64_t step) { return committed_on_disk(path_, step); };
    if (detail::RollbackJournal::recover(path_, lock_.get(), committed, comm_))
      detail::warn(
          comm_,
          "series '" + path_ +
              "': a step that its writer did not finish was rolled back; the file is as after its last "
              "complete step");
    reopen();
    if (!detail::has_series_attribute(file_))
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

void Series::open_locked() {
  for (int attempt = 0; attempt < 8; ++attempt) {
    int missing = 0;
    struct stat st {};
    if (detail::rank_of(comm_) == 0) missing = ::stat(path_.c_str(), &st) != 0 && errno == ENOENT;
    DISTARRAY_MPI_CHECK(MPI_Bcast(&missing, 1, MPI_INT, 0, comm_));
    if (missing) {  // an empty series, linked into place only where there is still no file
      detail::TemporaryFile temporary(path_, comm_);
      auto created = detail::Hdf5File::create(temporary.path(), comm_);
      detail::ReservedSpace space(temporary.descriptor(), path_);
      space.reserve({0, detail::first_metadata_bytes}, comm_);
      created.set_attribute(created.open_group("/").get(), detail::series_attribute, std::uint64_t(1));
      created.close();
      space.trim(comm_);
      temporary.sync(comm_);
      temporary.commit_new(comm_);  // false: another writer created it first, and we open theirs
    }
    std::string problem;
    int replaced = 0;
    if (detail::rank_of(comm_) == 0) {
      lock_ = detail::Descriptor(::open(path_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
      if (lock_.get() < 0)
        problem = std::string("cannot open it for writing: ") + std::strerror(errno);
      else if (::fstat(lock_.get(), &st) != 0 || !S_ISREG(st.st_mode))
        problem = "not a regular file";
      else if (!detail::lock_exclusive(lock_.get()))
        problem = "another writer has it open";
      else
        replaced = !detail::names(path_, lock_.get(), true);  // renamed over between open and lock
    }
    space_ = detail::ReservedSpace(lock_.get(), path_);
    detail::agree<CheckpointError>(comm_, !problem.empty(), "series '" + path_ + "': " + problem);
    DISTARRAY_MPI_CHECK(MPI_Bcast(&replaced, 1, MPI_INT, 0, comm_));
    if (!replaced) return;
  }
  throw CheckpointError("series '" + path_ + "': the file keeps being replaced while it is opened");
}

Series::~Series() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  try {
    abandon_step();
    file_.close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "distarray: series '%s': %s\n", path_.c_str(), e.what());
  }
  file_ = {};  // discarded if the close failed
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
  if (file_.exists(step_group(*step_) + "/" + name))  // (the same file's metadata on every rank)
    throw UsageError("array '" + name + "' is written in step " + std::to_string(*step_) + " already");
}

void Series::begin_step(std::uint64_t step, const Attributes& attributes) {
  std::string listed;
  for (const auto& [key, value] : attributes)
    listed += "'" + key + "' (" + std::to_string(key.size()) +
              " chars) = " + std::visit([](const auto& v) { return attribute_text(v); }, value) + "; ";
  detail::agree_same_arguments(comm_, "series '" + path_ + "'",
                               {{"the step", std::to_string(step)}, {"the step's attributes", listed}});
  if (step_)
    throw UsageError("step " + std::to_string(*step_) + " of series '" + path_ +
                     "' is open: commit_step() or abandon_step() it first");
  std::set<std::string> keys;
  for (const auto& [key, value] : attributes) {
    if (key.empty() || key.rfind("distarray_", 0) == 0)
      throw UsageError("step attribute name '" + key + "' is empty or starts with the reserved 'distarray_'");
    if (!keys.insert(key).second)  // (HDF5 refused it once the step had begun)
      throw UsageError("step attribute '" + key + "' is given twice");
    if (const auto* text = std::get_if<std::string>(&value); text && text->size() > max_attribute_string)
      throw UsageError("step attribute '" + key + "' is a string of " + std::to_string(text->size()) +
                       " bytes; attributes hold at most " + std::to_string(max_attribute_string));
  }
  const auto steps = detail::steps_of(file_);
  const auto found = steps.find(step);
  if (found != steps.end() && found->second.complete)
    throw CheckpointError("series '" + path_ + "': step " + std::to_string(step) +
                          " is complete in the file already");
  if (found != steps.end() && !found->second.damage.empty())
    throw CheckpointError("series '" + path_ + "': step " + std::to_string(step) + " is damaged (" +
                          found->second.damage + "); it is not overwritten");
  file_.flush();
  space_.trim(comm_);  // room a killed writer reserved and did not use
  // The step group's metadata, reserved before the journal: a full disk leaves no journal behind.
  step_metadata_ = detail::step_metadata_bound(file_, step_group(step), detail::sizes_of(attributes));
  space_.reserve({0, step_metadata_}, comm_);
  std::uint64_t length = 0;
  struct stat st {};
  if (lock_.get() >= 0 && ::fstat(lock_.get(), &st) == 0) length = std::uint64_t(st.st_size);
  journal_ = detail::RollbackJournal::write(path_, lock_.get(), step, length, file_.data_extents(), comm_);
  step_ = step;
  if (found != steps.end()) file_.remove(found->second.group);  // an unfinished step's leftover
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
  space_.reserve({0, step_metadata_}, comm_);
  file_.set_attribute(file_.open_group(step_group(*step_)).get(), "distarray_complete", std::uint64_t(1));
  sync();
  space_.trim(comm_);  // what was reserved and not used
  journal_.discard(comm_);
  const std::uint64_t step = *step_;
  step_.reset();
  // Saved only if the path still names the file written (a plain save may have renamed over it).
  detail::agree<CheckpointError>(
      comm_, detail::rank_of(comm_) == 0 && !detail::names(path_, lock_.get(), true),
      "series '" + path_ + "': the file was replaced by another program while step " + std::to_string(step) +
          " was written; the step is in the replaced file, not at this path");
}

void Series::abandon_step() {
  if (!step_) return;
  step_.reset();
  file_.discard();  // what HDF5 has not written is not wanted: the journal undoes what it has
  journal_.roll_back(comm_);
  reopen();
}

}  // namespace distarray
