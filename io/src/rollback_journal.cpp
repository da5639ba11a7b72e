#include <distarray/core/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/detail/rollback_journal.hpp>
#include <distarray/io/detail/splitmix64.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace distarray::detail {

namespace {

// Journal: magic, file length, entry count, entries (offset, bytes, the
// bytes), then a hash of everything before it.
constexpr char magic[8] = {'D', 'A', 'J', 'O', 'U', 'R', 'N', '1'};

std::uint64_t hash_of(const std::vector<char>& bytes, std::size_t size) {
  std::uint64_t h = splitmix64(size);
  for (std::size_t off = 0; off < size; off += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + off, std::min<std::size_t>(8, size - off));
    h = splitmix64(h ^ word);
  }
  return h;
}

void put(std::vector<char>& out, std::uint64_t v) {
  out.insert(out.end(), reinterpret_cast<const char*>(&v), reinterpret_cast<const char*>(&v) + 8);
}

bool sync_folder(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  return ok;
}

/// Reads `target`'s gaps between `data` below `length` into a journal image; "" or why not.
std::string image_of(const std::string& target, std::uint64_t length, const Extents& data,
                     std::vector<char>& out) {
  const Descriptor file(::open(target.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return std::string("cannot read it: ") + std::strerror(errno);
  out.assign(magic, magic + 8);
  put(out, length);
  put(out, 0);  // entry count, set below
  std::uint64_t entries = 0, at = 0;
  const auto copy = [&](std::uint64_t from, std::uint64_t to) {
    if (to <= from) return true;
    put(out, from);
    put(out, to - from);
    const std::size_t base = out.size();
    out.resize(base + (to - from));
    ++entries;
    return ::pread(file.get(), out.data() + base, to - from, off_t(from)) == ssize_t(to - from);
  };
  for (const auto& [offset, bytes] : data) {
    if (!copy(at, std::min(offset, length))) return "cannot read its metadata";
    at = std::max(at, offset + bytes);
  }
  if (!copy(at, length)) return "cannot read its metadata";
  std::memcpy(out.data() + 16, &entries, 8);
  put(out, hash_of(out, out.size()));
  return "";
}

/// Writes the journal image back into `target`; "" or why not.
std::string write_back(const std::string& target, const std::vector<char>& image) {
  if (image.size() < 32 || std::memcmp(image.data(), magic, 8) != 0) return "the journal is not one";
  std::uint64_t length = 0, entries = 0, hash = 0;
  std::memcpy(&length, image.data() + 8, 8);
  std::memcpy(&entries, image.data() + 16, 8);
  std::memcpy(&hash, image.data() + image.size() - 8, 8);
  if (hash != hash_of(image, image.size() - 8)) return "the journal is damaged";
  const Descriptor file(::open(target.c_str(), O_RDWR | O_CLOEXEC));
  if (file.get() < 0) return std::string("cannot open it for writing: ") + std::strerror(errno);
  std::size_t at = 24;
  for (std::uint64_t e = 0; e < entries; ++e) {
    std::uint64_t offset = 0, bytes = 0;
    if (at + 16 > image.size() - 8) return "the journal is damaged";
    std::memcpy(&offset, image.data() + at, 8);
    std::memcpy(&bytes, image.data() + at + 8, 8);
    at += 16;
    if (bytes > image.size() - 8 - at) return "the journal is damaged";
    if (::pwrite(file.get(), image.data() + at, bytes, off_t(offset)) != ssize_t(bytes))
      return std::string("cannot write it: ") + std::strerror(errno);
    at += bytes;
  }
  if (::ftruncate(file.get(), off_t(length)) != 0 || ::fsync(file.get()) != 0)
    return std::string("cannot restore its length: ") + std::strerror(errno);
  return "";
}

/// Rolls `target` back from the journal open as `fd` and removes the journal; "" or why not.
std::string undo(int fd, const std::string& target) {
  std::vector<char> image(std::size_t(std::max<off_t>(::lseek(fd, 0, SEEK_END), 0)));
  if (::pread(fd, image.data(), image.size(), 0) != ssize_t(image.size()))
    return "cannot read its step journal";
  if (std::string problem = write_back(target, image); !problem.empty()) return problem;
  if (::unlink(RollbackJournal::path_of(target).c_str()) != 0 || !sync_folder(target))
    return std::string("cannot remove its step journal: ") + std::strerror(errno);
  return "";
}

}  // namespace

bool lock_exclusive(int fd) {
  struct flock l {};
  l.l_type = F_WRLCK;
  l.l_whence = SEEK_SET;
  return ::fcntl(fd, F_OFD_SETLK, &l) == 0;
}

RollbackJournal RollbackJournal::write(const std::string& target, std::uint64_t length, const Extents& data,
                                       MPI_Comm comm) {
  RollbackJournal j;
  j.target_ = target;
  std::string problem;
  if (rank_of(comm) == 0) {
    std::vector<char> image;
    problem = image_of(target, length, data, image);
    const std::string partial = path_of(target) + "-partial", final_path = path_of(target);
    if (problem.empty()) {
      j.fd_ = Descriptor(::open(partial.c_str(), O_CREAT | O_TRUNC | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0666));
      if (j.fd_.get() < 0 || !lock_exclusive(j.fd_.get()) ||
          ::write(j.fd_.get(), image.data(), image.size()) != ssize_t(image.size()) ||
          ::fsync(j.fd_.get()) != 0 || std::rename(partial.c_str(), final_path.c_str()) != 0 ||
          !sync_folder(final_path))
        problem = "cannot write its step journal '" + final_path + "': " + std::strerror(errno);
    }
  }
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target + "': " + problem);
  j.active_ = true;
  return j;
}

void RollbackJournal::discard(MPI_Comm comm) {
  std::string problem;
  if (rank_of(comm) == 0 && (::unlink(path_of(target_).c_str()) != 0 || !sync_folder(target_)))
    problem = std::string("cannot remove its step journal: ") + std::strerror(errno);
  fd_ = Descriptor();
  active_ = false;
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target_ + "': " + problem);
}

void RollbackJournal::roll_back(MPI_Comm comm) {
  std::string problem;
  if (rank_of(comm) == 0) problem = undo(fd_.get(), target_);
  fd_ = Descriptor();
  active_ = false;
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target_ + "': rolling back a step: " + problem);
}

bool RollbackJournal::recover(const std::string& target, MPI_Comm comm) {
  int found = 0;
  std::string problem;
  if (rank_of(comm) == 0) {
    const Descriptor journal(::open(path_of(target).c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC));
    if (journal.get() >= 0) {
      found = 1;
      problem = lock_exclusive(journal.get()) ? undo(journal.get(), target)
                                              : "a step is being written (its journal '" + path_of(target) +
                                                    "' is held by a running writer)";
    }
  }
  agree<CheckpointError>(comm, !problem.empty(), "series '" + target + "': " + problem);
  DISTARRAY_MPI_CHECK(MPI_Bcast(&found, 1, MPI_INT, 0, comm));
  return found != 0;
}

}  // namespace distarray::detail
