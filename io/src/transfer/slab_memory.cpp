#include <distarray/io/detail/transfer/slab_memory.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace distarray::detail {

namespace {
// Transparent huge pages are used only for ranges aligned to their size.
constexpr std::size_t huge_page = std::size_t(2) << 20;
}  // namespace

std::shared_ptr<void> slab_memory(std::size_t bytes) {
  const bool huge = bytes >= huge_page;
  const std::size_t mapped = huge ? bytes + huge_page : std::max<std::size_t>(bytes, 1);
  void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<std::uintptr_t>(base);
  if (huge) {
    start = (start + huge_page - 1) & ~std::uintptr_t(huge_page - 1);
#ifdef MADV_HUGEPAGE  // a request only: nothing changes where it is refused
    ::madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);
#endif
  }
  return {reinterpret_cast<void*>(start), [base, mapped](void*) { ::munmap(base, mapped); }};
}

}  // namespace distarray::detail
