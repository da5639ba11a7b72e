#pragma once
// The brute-force reference for 1-D distributions: deal blocks of b
// consecutive elements to processes 0, 1, ..., P-1, 0, 1, ... in turn, like
// cards, appending each to its process's local array.  It shares no formula
// with Dist1D, so agreement is evidence, not tautology.

#include <distarray/core/dist1d.hpp>

#include <vector>

namespace distarray::testing {

struct Dealt {
  std::vector<int> owner;                     ///< per global index
  std::vector<index_t> local;                 ///< per global index
  std::vector<std::vector<index_t>> globals;  ///< per process: global index at each local index
};

inline Dealt deal(index_t n, int p, index_t b) {
  Dealt d;
  d.globals.resize(std::size_t(p));
  int proc = 0;
  for (index_t g = 0; g < n;) {
    for (index_t k = 0; k < b && g < n; ++k, ++g) {
      d.owner.push_back(proc);
      d.local.push_back(index_t(d.globals[std::size_t(proc)].size()));
      d.globals[std::size_t(proc)].push_back(g);
    }
    proc = (proc + 1) % p;
  }
  return d;
}

/// The block size the HPF definition gives each kind (Thakur Sec. 2).
inline index_t hpf_block(DistKind kind, index_t n, int p, index_t param) {
  switch (kind) {
    case DistKind::block:
      return n == 0 ? 1 : (n + p - 1) / p;
    case DistKind::block_m:
      return param;
    case DistKind::cyclic:
      return 1;
    case DistKind::cyclic_b:
      return param;
    case DistKind::collapsed:
      return n == 0 ? 1 : n;
  }
  return 1;
}

/// Every valid distribution of n elements over p processes with parameter b.
inline std::vector<Dist1D> all_kinds(index_t n, int p, index_t b) {
  std::vector<Dist1D> v = {Dist1D::block(n, p), Dist1D::cyclic(n, p), Dist1D::cyclic_b(n, p, b)};
  if (b * p >= n) v.push_back(Dist1D::block_m(n, p, b));
  if (p == 1) v.push_back(Dist1D::collapsed(n));
  return v;
}

}  // namespace distarray::testing
