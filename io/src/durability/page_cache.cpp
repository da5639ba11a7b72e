#include <distarray/io/detail/durability/page_cache.hpp>

#include <fcntl.h>
#include <unistd.h>

namespace distarray::detail {

PageCacheHints::PageCacheHints(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}

PageCacheHints::~PageCacheHints() {
  if (fd_ >= 0) ::close(fd_);
}

void PageCacheHints::start_write_back(std::uint64_t offset, std::uint64_t bytes) const {
#ifdef SYNC_FILE_RANGE_WRITE  // Linux
  if (fd_ >= 0 && bytes > 0) ::sync_file_range(fd_, off_t(offset), off_t(bytes), SYNC_FILE_RANGE_WRITE);
#else
  (void)offset;
  (void)bytes;
#endif
}

}  // namespace distarray::detail
