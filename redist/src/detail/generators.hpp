#pragma once
// The schedule generators: each enumerates the pieces of one window of the
// local index space of process `proc` of `local`, tagged with the process of
// `remote` that owns them (see schedule.hpp for the methods and their papers).

#include "detail/partition.hpp"

#include <optional>
#include <string>

namespace distarray::detail {

using Generator = void (*)(const Dist1D& local, int proc, const Dist1D& remote, const Window& window,
                           PartitionBuilder& out);

void brute_force(const Dist1D&, int, const Dist1D&, const Window&, PartitionBuilder&);
void classical(const Dist1D&, int, const Dist1D&, const Window&, PartitionBuilder&);
void falls(const Dist1D&, int, const Dist1D&, const Window&, PartitionBuilder&);
void aspen(const Dist1D&, int, const Dist1D&, const Window&, PartitionBuilder&);
void hsu_chung(const Dist1D&, int, const Dist1D&, const Window&, PartitionBuilder&);
void thakur(const Dist1D&, int, const Dist1D&, const Window&, PartitionBuilder&);

/// Why Hsu and Chung's kr->r / r->kr closed forms do not apply, if they do not.
std::optional<std::string> hsu_chung_inapplicable(const Dist1D& a, const Dist1D& b);

/// True when one of Thakur's special cases (block(m)<->cyclic, x = k*y,
/// y = k*x) applies; otherwise thakur() uses the general element scan.
bool thakur_special_case(const Dist1D& a, const Dist1D& b);

/// Calls f(c, global_begin, global_end) for each local block c of `proc`
/// starting below `global_limit`; the block holds local indices c*b + [0, end-begin).
template <class F>
void for_each_local_block(const Dist1D& d, int proc, index_t global_limit, F&& f) {
  const index_t b = d.block_size(), cycle = d.cycle_length(), n = d.extent();
  for (index_t c = 0;; ++c) {
    const index_t begin = c * cycle + index_t(proc) * b;
    if (begin >= global_limit || begin >= n) break;
    f(c, begin, std::min(begin + b, n));
  }
}

}  // namespace distarray::detail
