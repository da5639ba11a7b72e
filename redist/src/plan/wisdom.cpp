// Wisdom (wisdom.hpp): reading, merging and writing the file.

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/wisdom.hpp>

#include "exact_text.hpp"  // core/src

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>

namespace distarray {

namespace {

constexpr const char* magic = "distarray-wisdom";
constexpr int format = 1;
constexpr std::size_t largest_file = 1 << 22;  // 4 MiB: anything longer is not wisdom we wrote

/// What makes wisdom current: the format, distarray's version and the MPI library.
std::string header() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string mpi(library, std::size_t(length));
  mpi = mpi.substr(0, mpi.find_first_of("\r\n,"));
  return std::string(magic) + "\t" + std::to_string(format) + "\t" + DISTARRAY_VERSION + "\t" + mpi;
}

void warn(const std::string& path, const std::string& what) {
  std::fprintf(stderr, "distarray: warning: wisdom file '%s' %s\n", path.c_str(), what.c_str());
}

/// True when `value` is a valid value of an entry of `key`.
bool valid_entry(const std::string& key, const std::string& value) {
  if (key.rfind("cost\t", 0) == 0) {
    std::istringstream in(value);
    double ts = -1, te = -1;
    in >> ts >> te;
    return in && in.eof() && std::isfinite(ts) && std::isfinite(te) && ts >= 0 && te >= 0;
  }
  if (key.rfind("engine\t", 0) == 0) return value == "alltoallv" || value == "datatype" || value == "shared";
  return false;
}

enum class FileState { missing, current, stale, corrupt, foreign };

/// The entries of a wisdom file's text, and what the text is.
FileState parse(const std::string& text, bool exists, std::map<std::string, std::string>& entries) {
  if (!exists) return FileState::missing;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line.rfind(std::string(magic) + "\t", 0) != 0) return FileState::foreign;
  if (line != header()) return FileState::stale;
  std::map<std::string, std::string> read;
  while (std::getline(in, line)) {
    const std::size_t tab = line.rfind('\t');
    if (tab == std::string::npos || !valid_entry(line.substr(0, tab), line.substr(tab + 1)))
      return FileState::corrupt;
    read[line.substr(0, tab)] = line.substr(tab + 1);
  }
  entries = std::move(read);
  return FileState::current;
}

/// Rank 0's reading of the file: {exists, text}.  A file that is not a
/// regular file (a FIFO would block the open, a device stream forever),
/// unreadable or oversized is foreign.
std::pair<bool, std::string> read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {errno != ENOENT, "(unreadable)"};
  struct stat st {};
  std::string text(largest_file + 1, '\0');
  ssize_t got = 0;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    for (ssize_t n = 1; n > 0 && std::size_t(got) < text.size(); got += n)
      n = std::max<ssize_t>(::read(fd, text.data() + got, text.size() - std::size_t(got)), 0);
    text.resize(std::size_t(got));
  } else {
    text = "(not a regular file)";
  }
  ::close(fd);
  if (text.size() > largest_file) text = "(too long)";
  return {true, text};
}

/// Writes `text` to a new file beside `path` under a name nobody can
/// predict, created exclusively and never through a link, and renames it
/// over `path`; false when any of that fails (nothing is left behind).
bool replace_file(const std::string& path, const std::string& text) {
  std::random_device device;
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%08x%08x.tmp", device(), device());
  const std::string temporary = path + suffix;
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  const bool closed = ::close(fd) == 0;
  if (written && closed && std::rename(temporary.c_str(), path.c_str()) == 0) return true;
  ::unlink(temporary.c_str());
  return false;
}

}  // namespace

Wisdom::Wisdom(std::string path, MPI_Comm comm) : path_(std::move(path)) {
  const int rank = detail::rank_of(comm);
  auto [exists, text] = rank == 0 ? read_file(path_) : std::pair<bool, std::string>{};
  long size[2] = {exists, long(text.size())};
  DISTARRAY_MPI_CHECK(MPI_Bcast(size, 2, MPI_LONG, 0, comm));
  text.resize(std::size_t(size[1]));
  DISTARRAY_MPI_CHECK(MPI_Bcast(text.data(), int(size[1]), MPI_CHAR, 0, comm));
  const FileState state = parse(text, size[0] != 0, entries_);
  if (rank != 0) return;
  if (state == FileState::stale) warn(path_, "was written by another distarray or MPI library: ignored");
  if (state == FileState::corrupt) warn(path_, "has a line that is not wisdom: ignored");
  if (state == FileState::foreign) warn(path_, "is not a wisdom file: ignored, and it will not be written");
}

std::string Wisdom::path_for(const PlanOptions& options) {
  if (!options.wisdom.empty()) return options.wisdom;
  const char* env = std::getenv("DISTARRAY_WISDOM");
  return env ? env : "";
}

std::shared_ptr<Wisdom> Wisdom::for_options(const PlanOptions& options, MPI_Comm comm) {
  const std::string path = path_for(options);
  return path.empty() ? nullptr : std::make_shared<Wisdom>(path, comm);
}

std::optional<std::pair<double, double>> Wisdom::cost(int ranks) const {
  const auto it = entries_.find("cost\t" + std::to_string(ranks));
  if (it == entries_.end()) return std::nullopt;
  std::istringstream in(it->second);
  std::pair<double, double> model;
  in >> model.first >> model.second;
  return model;
}

std::optional<ExchangeEngine> Wisdom::engine(const std::string& key) const {
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return parse_exchange_engine(it->second);
}

void Wisdom::record_cost(int ranks, double ts, double te, MPI_Comm comm) {
  record("cost\t" + std::to_string(ranks), detail::exact_text(ts) + " " + detail::exact_text(te), comm);
}

void Wisdom::record_engine(const std::string& key, ExchangeEngine engine, MPI_Comm comm) {
  record(key, std::string(to_string(engine)), comm);
}

void Wisdom::record(const std::string& key, const std::string& value, MPI_Comm comm) {
  entries_[key] = value;
  if (detail::rank_of(comm) != 0) return;
  // Merged with what the file holds now (another process may have added to it).
  const auto [exists, text] = read_file(path_);
  std::map<std::string, std::string> merged;
  if (parse(text, exists, merged) == FileState::foreign) return;  // warned when read; never overwritten
  for (const auto& [k, v] : entries_) merged[k] = v;
  std::string written = header() + "\n";
  for (const auto& [k, v] : merged) written += k + "\t" + v + "\n";
  if (!replace_file(path_, written)) warn(path_, "could not be written: the measurement is not kept");
}

std::string engine_key(int ranks, std::size_t element_bytes, const std::string& plan, int step) {
  return "engine\t" + std::to_string(ranks) + "\t" + std::to_string(element_bytes) + "\t" + plan + "\t" +
         std::to_string(step);
}

}  // namespace distarray
