#pragma once
// How many elements one process of a 1-D distribution shares with each
// process of another: the sizes of the messages of a redistribution, without
// the runs.  The cost model and explain need only these, and they are cheap
// where listing runs is not: block -> cyclic(3) of 10^8 elements has 1.7*10^7
// runs per rank but two counts.  The count is exact for every pair of
// distributions, whatever schedule generator would build the runs.

#include <distarray/core/dist1d.hpp>

#include <utility>
#include <vector>

namespace distarray {

/// (remote process, elements) for every remote process that shares elements
/// with local process `proc`, in increasing process order.  Work grows with
/// the smaller of the two sides' block counts in one common period (the lcm
/// of the cycle lengths), not with the extent.
std::vector<std::pair<int, index_t>> peer_counts(const Dist1D& local, int proc, const Dist1D& remote);

/// How many runs local process `proc`'s elements form: maximal stretches of
/// consecutive local indices with one remote owner, every remote process
/// (`proc` itself included) together.  Its local extent over this is the
/// mean contiguous run of its messages along this dimension.  Work as for
/// peer_counts; 0 when `proc` owns nothing.
index_t local_runs(const Dist1D& local, int proc, const Dist1D& remote);

}  // namespace distarray
