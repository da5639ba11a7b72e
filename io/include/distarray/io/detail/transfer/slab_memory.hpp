#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/transfer/slab_memory.hpp is internal: include <distarray/io.hpp>"
#endif
// Host memory for a file slab that is filled whole before anything reads it
// (by MPI-IO or by a plan), so it is not zeroed first, and mapped in
// transparent huge pages where Linux offers them on request: the first touch
// of 64 MiB then costs 32 page faults instead of 16,384 (about 7-20 ms
// against 70 ms at 4 ranks on the CI machine, which was a third of a restore
// into another layout).  Elsewhere it is ordinary anonymous memory.

#include <cstddef>
#include <memory>

namespace distarray::detail {

/// `bytes` of uninitialized host memory, aligned for any element type, freed
/// with the last copy of the pointer; std::bad_alloc where the system has none.
std::shared_ptr<void> slab_memory(std::size_t bytes);

}  // namespace distarray::detail
