#include <distarray/io/detail/checksum/splitmix64.hpp>
#include <distarray/io/detail/durability/journal_image.hpp>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace distarray::detail {

namespace {

// Magic, device, inode, [format 3: birth, generation,] step, length, entry
// count; then the entries and the hash.
constexpr char magic_v2[8] = {'D', 'A', 'J', 'O', 'U', 'R', 'N', '2'};
constexpr char magic[8] = {'D', 'A', 'J', 'O', 'U', 'R', 'N', '3'};
constexpr std::size_t header_bytes = 64, header_bytes_v2 = 48;

std::size_t header_bytes_of(const std::vector<char>& image) {
  return std::memcmp(image.data(), magic_v2, 8) == 0 ? header_bytes_v2 : header_bytes;
}

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

std::uint64_t word_at(const std::vector<char>& image, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, image.data() + at, 8);
  return v;
}

/// Calls f(offset, bytes, first byte) for each entry of a checked image; false when one overruns it.
template <class F>
bool for_each_entry(const std::vector<char>& image, F&& f) {
  const std::size_t header = header_bytes_of(image);
  const std::uint64_t entries = word_at(image, header - 8);
  const std::size_t end = image.size() - 8;
  std::size_t at = header;
  for (std::uint64_t e = 0; e < entries; ++e) {
    if (at + 16 > end) return false;
    const std::uint64_t offset = word_at(image, at), bytes = word_at(image, at + 8);
    at += 16;
    if (bytes > end - at) return false;
    if (!f(offset, bytes, image.data() + at)) return false;
    at += bytes;
  }
  return at == end;
}

}  // namespace

bool identity_of(int fd, FileIdentity& id) {
  struct statx sx {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_BTIME, &sx) != 0) return false;
  id.device = std::uint64_t(::makedev(sx.stx_dev_major, sx.stx_dev_minor));
  id.inode = sx.stx_ino;
  id.birth =
      sx.stx_mask & STATX_BTIME ? std::uint64_t(sx.stx_btime.tv_sec) * 1000000000u + sx.stx_btime.tv_nsec : 0;
  int generation = 0;
  id.generation = ::ioctl(fd, FS_IOC_GETVERSION, &generation) == 0 ? std::uint32_t(generation) : 0;
  return true;
}

std::string differs(const FileIdentity& journal, const FileIdentity& file) {
  if (journal.device != file.device || journal.inode != file.inode)
    return "it was written for another file (device " + std::to_string(journal.device) + ", inode " +
           std::to_string(journal.inode) + "; this file is " + std::to_string(file.device) + ", " +
           std::to_string(file.inode) + ")";
  // Format 2 journals, and file systems that keep neither, leave these 0.
  if ((journal.birth && file.birth && journal.birth != file.birth) ||
      (journal.generation && file.generation && journal.generation != file.generation))
    return "it was written for another file (an earlier one on the same inode: born at " +
           std::to_string(journal.birth) + " ns, generation " + std::to_string(journal.generation) +
           "; this file was born at " + std::to_string(file.birth) + " ns, generation " +
           std::to_string(file.generation) + ")";
  return "";
}

std::string journal_image(int file_fd, const JournalHeader& header, const Extents& data,
                          std::vector<char>& out) {
  out.assign(magic, magic + 8);
  const FileIdentity& f = header.file;
  for (const std::uint64_t v :
       {f.device, f.inode, f.birth, f.generation, header.step, header.length, std::uint64_t(0)})
    put(out, v);
  std::uint64_t entries = 0, at = 0;
  const auto copy = [&](std::uint64_t from, std::uint64_t to) {
    if (to <= from) return true;
    put(out, from);
    put(out, to - from);
    const std::size_t base = out.size();
    out.resize(base + (to - from));
    ++entries;
    return ::pread(file_fd, out.data() + base, to - from, off_t(from)) == ssize_t(to - from);
  };
  for (const auto& [offset, bytes] : data) {
    if (!copy(at, std::min(offset, header.length))) return "cannot read its metadata";
    at = std::max(at, offset + bytes);
  }
  if (!copy(at, header.length)) return "cannot read its metadata";
  std::memcpy(out.data() + header_bytes - 8, &entries, 8);
  put(out, hash_of(out, out.size()));
  return "";
}

std::string read_journal_header(const std::vector<char>& image, JournalHeader& header) {
  if (image.size() < header_bytes_v2 + 8 ||
      (std::memcmp(image.data(), magic, 8) != 0 && std::memcmp(image.data(), magic_v2, 8) != 0))
    return "it is not a distarray step journal";
  if (image.size() < header_bytes_of(image) + 8 ||
      word_at(image, image.size() - 8) != hash_of(image, image.size() - 8) ||
      !for_each_entry(image, [](auto...) { return true; }))
    return "it is damaged";
  if (header_bytes_of(image) == header_bytes_v2)
    header = {{word_at(image, 8), word_at(image, 16), 0, 0}, word_at(image, 24), word_at(image, 32)};
  else
    header = {{word_at(image, 8), word_at(image, 16), word_at(image, 24), word_at(image, 32)},
              word_at(image, 40),
              word_at(image, 48)};
  return "";
}

std::string write_back(int file_fd, const std::vector<char>& image) {
  JournalHeader header;
  if (std::string problem = read_journal_header(image, header); !problem.empty()) return problem;
  const bool written =
      for_each_entry(image, [&](std::uint64_t offset, std::uint64_t bytes, const char* from) {
        return ::pwrite(file_fd, from, bytes, off_t(offset)) == ssize_t(bytes);
      });
  if (!written) return std::string("cannot write it: ") + std::strerror(errno);
  if (::ftruncate(file_fd, off_t(header.length)) != 0 || ::fsync(file_fd) != 0)
    return std::string("cannot restore its length: ") + std::strerror(errno);
  return "";
}

}  // namespace distarray::detail
