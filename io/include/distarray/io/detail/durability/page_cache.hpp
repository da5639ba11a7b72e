#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/durability/page_cache.hpp is internal: include <distarray/io.hpp>"
#endif
// A hint to the operating system that lets a checkpoint save overlap its
// disk time with the checksum: start writing each band of the file back as
// soon as it is written (Linux sync_file_range), so that the commit's fsync
// finds less to do.  A hint only: where the file cannot be opened or the
// system lacks it, nothing happens.

#include <cstdint>
#include <string>

namespace distarray::detail {

class PageCacheHints {
 public:
  /// Opens `path` read-only for the hints (none where it cannot).
  explicit PageCacheHints(const std::string& path);
  ~PageCacheHints();
  PageCacheHints(const PageCacheHints&) = delete;
  PageCacheHints& operator=(const PageCacheHints&) = delete;

  /// Starts writing the dirty pages of [offset, offset + bytes) to disk, without waiting.
  void start_write_back(std::uint64_t offset, std::uint64_t bytes) const;

 private:
  int fd_ = -1;
};

}  // namespace distarray::detail
