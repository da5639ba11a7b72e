#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/detail/durability/rollback_journal.hpp>
#include <distarray/io/detail/durability/temporary_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace distarray::detail {

namespace {

/// The byte the exclusive locks cover: far past any file's data.
constexpr off_t lock_byte = off_t(1) << 62;

struct flock lock_request(short type) {
  struct flock l {};
  l.l_type = type;
  l.l_whence = SEEK_SET;
  l.l_start = lock_byte;
  l.l_len = 1;
  return l;
}

/// The whole of the file open as `fd`.
bool read_all(int fd, std::vector<char>& image) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  image.resize(std::size_t(st.st_size));
  return ::pread(fd, image.data(), image.size(), 0) == ssize_t(image.size());
}

/// Removes the journal at `path` if it is still the one open as `fd`; "" or why not.
std::string unlink_own(const std::string& path, int fd) {
  if (!names(path, fd)) return "";  // replaced since: not ours to remove
  if (::unlink(path.c_str()) != 0 || !sync_folder_of(path))
    return std::string("cannot remove its step journal: ") + std::strerror(errno);
  return "";
}

/// Why the checked journal `header` does not belong to the file open as `file_fd`, or "".
std::string foreign_to(const JournalHeader& header, int file_fd) {
  struct stat st {};
  FileIdentity file;
  if (::fstat(file_fd, &st) != 0 || !identity_of(file_fd, file))
    return std::string("cannot stat the file: ") + std::strerror(errno);
  if (std::string why = differs(header.file, file); !why.empty()) return why;
  if (header.length > std::uint64_t(st.st_size))
    return "the file is shorter than the journal says it was before step " + std::to_string(header.step);
  return "";
}

/// Rank 0 of recover(): -1 nothing there, 0 removed (stale), 1 rolled back; `problem` when refused.
int recover_here(const std::string& target, int file_fd, const std::function<bool(std::uint64_t)>& committed,
                 std::string& problem) {
  const std::string path = RollbackJournal::path_of(target);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const Descriptor journal(::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (journal.get() < 0 && errno == ENOENT) return -1;
    if (journal.get() < 0 || ::fstat(journal.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
      problem = "'" + path + "' is not a step journal this file's writer wrote (" +
                (journal.get() < 0 ? std::string(std::strerror(errno)) : "not a regular file") + ")";
      return -1;
    }
    if (!lock_exclusive(journal.get())) {
      problem = "a step is being written (its journal '" + path + "' is held by a running writer)";
      return -1;
    }
    if (!names(path, journal.get())) continue;  // replaced after we opened it: look again
    std::vector<char> image;
    JournalHeader header;
    if (!read_all(journal.get(), image)) {
      problem = "cannot read its step journal '" + path + "': " + std::strerror(errno);
      return -1;
    }
    std::string why = read_journal_header(image, header);
    if (why.empty()) why = foreign_to(header, file_fd);
    if (!why.empty()) {
      problem = "its step journal '" + path + "' was not applied: " + why +
                "; remove it if no writer of this file was stopped inside a step";
      return -1;
    }
    if (committed(header.step)) {  // its writer stopped after the marker, before removing the journal
      problem = unlink_own(path, journal.get());
      return 0;
    }
    problem = write_back(file_fd, image);
    if (problem.empty()) problem = unlink_own(path, journal.get());
    return 1;
  }
  problem = "its step journal '" + path + "' keeps being replaced";
  return -1;
}

}  // namespace

bool lock_exclusive(int fd) {
  struct flock l = lock_request(F_WRLCK);
  return ::fcntl(fd, F_OFD_SETLK, &l) == 0;
}

bool locked_elsewhere(int fd) {
  struct flock l = lock_request(F_WRLCK);
  return ::fcntl(fd, F_OFD_GETLK, &l) == 0 && l.l_type != F_UNLCK;
}

bool names(const std::string& path, int fd, bool follow) {
  struct stat at {
  }, open{};
  return (follow ? ::stat(path.c_str(), &at) : ::lstat(path.c_str(), &at)) == 0 && ::fstat(fd, &open) == 0 &&
         at.st_dev == open.st_dev && at.st_ino == open.st_ino && open.st_nlink > 0;
}

RollbackJournal RollbackJournal::write(const std::string& target, int file_fd, std::uint64_t step,
                                       std::uint64_t length, const Extents& data, MPI_Comm comm) {
  RollbackJournal j;
  j.target_ = target;
  j.file_fd_ = file_fd;
  std::string problem;
  if (rank_of(comm) == 0) {
    std::vector<char> image;
    JournalHeader header{{}, step, length};
    if (!identity_of(file_fd, header.file)) problem = std::string("cannot stat it: ") + std::strerror(errno);
    if (problem.empty()) problem = journal_image(file_fd, header, data, image);
    const std::string partial = path_of(target) + "-partial", final_path = path_of(target);
    if (problem.empty()) {
      ::unlink(partial.c_str());  // a killed writer's; the file's lock makes it nobody else's
      j.fd_ = Descriptor(::open(partial.c_str(), O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0666));
      errno = 0;
      const bool written = j.fd_.get() >= 0 && lock_exclusive(j.fd_.get()) &&
                           ::write(j.fd_.get(), image.data(), image.size()) == ssize_t(image.size()) &&
                           ::fsync(j.fd_.get()) == 0;
      if (!written) {
        problem = "cannot write its step journal '" + final_path +
                  "': " + std::strerror(errno ? errno : ENOSPC);  // a short write sets no errno
        ::unlink(partial.c_str());
      } else if (std::rename(partial.c_str(), final_path.c_str()) != 0 || !sync_folder_of(final_path)) {
        problem = "cannot move its step journal into place: " + std::string(std::strerror(errno));
      }
    }
  }
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target + "': " + problem);
  return j;
}

void RollbackJournal::discard(MPI_Comm comm) {
  std::string problem;
  if (rank_of(comm) == 0) problem = unlink_own(path_of(target_), fd_.get());
  fd_ = Descriptor();
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target_ + "': " + problem);
}

void RollbackJournal::roll_back(MPI_Comm comm) {
  std::string problem;
  if (rank_of(comm) == 0) {
    std::vector<char> image;
    problem = read_all(fd_.get(), image) ? write_back(file_fd_, image) : "cannot read its step journal";
    if (problem.empty()) problem = unlink_own(path_of(target_), fd_.get());
  }
  fd_ = Descriptor();
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target_ + "': rolling back a step: " + problem);
}

bool RollbackJournal::recover(const std::string& target, int file_fd,
                              const std::function<bool(std::uint64_t)>& committed, MPI_Comm comm) {
  int outcome = -1;
  std::string problem;
  if (rank_of(comm) == 0) outcome = recover_here(target, file_fd, committed, problem);
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target + "': " + problem);
  DISTARRAY_MPI_CHECK(MPI_Bcast(&outcome, 1, MPI_INT, 0, comm));
  return outcome == 1;
}

RollbackJournal::Finding RollbackJournal::inspect(const std::string& target, MPI_Comm comm) {
  Finding f;
  if (rank_of(comm) == 0) {
    const Descriptor journal(::open(path_of(target).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    const Descriptor file(::open(target.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    std::vector<char> image;
    JournalHeader header;
    if (journal.get() < 0 && errno == ENOENT) {
      f.kind = Finding::none;
    } else if (journal.get() < 0 || ::fstat(journal.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
      f.kind = Finding::foreign, f.why = "it is not a regular file";
    } else if (locked_elsewhere(journal.get())) {
      f.kind = Finding::in_progress;
    } else if (!read_all(journal.get(), image)) {
      f.kind = Finding::foreign, f.why = std::string("it cannot be read: ") + std::strerror(errno);
    } else if (f.why = read_journal_header(image, header); !f.why.empty()) {
      f.kind = Finding::foreign;
    } else if (f.why = file.get() < 0 ? "the file cannot be opened" : foreign_to(header, file.get());
               !f.why.empty()) {
      f.kind = Finding::foreign;
    } else {
      f.kind = Finding::unfinished;
    }
    f.step = header.step;
  }
  std::uint64_t shared[2] = {std::uint64_t(f.kind), f.step};
  DISTARRAY_MPI_CHECK(MPI_Bcast(shared, 2, MPI_UINT64_T, 0, comm));
  f.kind = Finding::Kind(shared[0]), f.step = shared[1];
  return f;
}

}  // namespace distarray::detail
