#pragma once
// The per-element reference for 1-D schedules: walk every global index and
// append its local index to the (source, destination) pair that exchanges it.

#include <distarray/core/dist1d.hpp>
#include <distarray/redist/runs.hpp>

#include <map>
#include <vector>

namespace distarray::testing {

/// [local proc][peer] -> local indices in message order.
using Exchange = std::vector<std::map<int, std::vector<index_t>>>;

struct ExpectedSchedule {
  Exchange send;  ///< per source process
  Exchange recv;  ///< per destination process
};

inline ExpectedSchedule expected_schedule(const Dist1D& src, const Dist1D& dst) {
  ExpectedSchedule e{Exchange(std::size_t(src.procs())), Exchange(std::size_t(dst.procs()))};
  for (index_t g = 0; g < src.extent(); ++g) {
    const int p = src.owner(g), q = dst.owner(g);
    e.send[std::size_t(p)][q].push_back(src.local_index(g));
    e.recv[std::size_t(q)][p].push_back(dst.local_index(g));
  }
  return e;
}

/// The runs expanded to peer -> local indices.
inline std::map<int, std::vector<index_t>> expand(const std::vector<PeerRuns>& runs) {
  std::map<int, std::vector<index_t>> m;
  for (const PeerRuns& r : runs) {
    auto& v = m[r.peer];
    r.for_each_segment([&](index_t start, index_t length) {
      for (index_t i = 0; i < length; ++i) v.push_back(start + i);
    });
  }
  return m;
}

}  // namespace distarray::testing
