#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/durability/journal_image.hpp is internal: include <distarray/io.hpp>"
#endif
// The bytes of a series' step journal (rollback_journal.hpp): which file
// state it belongs to (the file's identity, the step it undoes, the file's
// length before that step), then the file's metadata bytes as entries
// (offset, count, bytes), then a hash of everything before it.  A journal
// whose header does not name the file it is found beside, or whose hash does
// not match, is not applied.  The identity is the file's device and inode
// and, since format 3, its birth time and inode generation where the file
// system keeps them: a file created later on a recycled inode differs there.
// Format 2 journals (device and inode only) are still applied.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

/// File ranges [offset, offset + bytes), sorted.
using Extents = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// A file's identity: what a later file on the same inode does not share.
struct FileIdentity {
  std::uint64_t device = 0, inode = 0;
  std::uint64_t birth = 0;       ///< nanoseconds since the epoch (statx); 0 where not kept
  std::uint64_t generation = 0;  ///< FS_IOC_GETVERSION; 0 where not kept
};
/// The identity of the file open as `fd`; false when it cannot be read.
bool identity_of(int fd, FileIdentity& id);
/// Why a journal written for `journal` does not name `file`, or "".
std::string differs(const FileIdentity& journal, const FileIdentity& file);

/// The file state a journal undoes to.
struct JournalHeader {
  FileIdentity file;         ///< the series file
  std::uint64_t step = 0;    ///< the step whose writing it undoes
  std::uint64_t length = 0;  ///< the file's length before that step
};

/// The journal of `file_fd`'s first `header.length` bytes outside `data`
/// (raw data, never rewritten) into `out`; "" or why not.
std::string journal_image(int file_fd, const JournalHeader& header, const Extents& data,
                          std::vector<char>& out);

/// Checks that `image` is a whole journal (magic, hash, entries inside it)
/// and reads its header; "" or why it is not one.
std::string read_journal_header(const std::vector<char>& image, JournalHeader& header);

/// Writes a checked image's bytes back into `file_fd` and cuts the file to
/// the header's length, synced; "" or why not.
std::string write_back(int file_fd, const std::vector<char>& image);

}  // namespace distarray::detail
