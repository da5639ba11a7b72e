#pragma once
// Schedule1D: for one process of the source distribution and/or one of the
// destination distribution of one dimension, the peers and the local index
// runs to send and to receive (ARCHITECTURE Sec. 4.1).  Source and destination
// may have different process counts (M:N grids, Foyer et al.).
//
// Every generator answers one symmetric question — partition my local index
// space by the process of the other distribution that owns each element —
// so the send side of process p is partition(src, p, dst) and the receive
// side of process q is partition(dst, q, src).  All generators give the same
// element sets in the same order; they differ in cost:
//
//   brute      per element, no periodicity: the oracle
//   classical  every local block against every block of every remote process
//              (Foyer et al. Alg. 2), within one lcm period
//   falls      per remote process, only the remote blocks that can overlap
//              (FALLS/PITFALLS; Foyer et al. Alg. 3)
//   aspen      adjacent shifting: each local block is cut at remote block
//              boundaries, pieces go to consecutive remote processes
//              (Foyer et al. Alg. 4): cost independent of the remote grid size
//   hsu_chung  closed forms for kr->r and r->kr on equal process counts
//              (Hsu and Chung, Eqs. 1, 4-7 re-derived; see hsu_chung.cpp)
//   thakur     block(m)<->cyclic, cyclic(x)<->cyclic(y) with x = k*y or
//              y = k*x, and the general element scan (Thakur et al. Sec. 3-5)
//
// Periodicity (Hsu-Chung Lemma 1): the pattern of owners repeats every
// L = lcm(P_src*b_src, P_dst*b_dst) global elements, i.e. every L/P local
// elements on a process of P.  Generators other than brute enumerate one
// such window; the result repeats it floor(N/L) times and clips the rest.

#include <distarray/core/dist1d.hpp>
#include <distarray/redist/runs.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distarray {

enum class ScheduleMethod { automatic, brute, classical, falls, aspen, hsu_chung, thakur };

/// "auto", "brute", "classical", "falls", "aspen", "hsu-chung" (kr->r and r->kr), "thakur".
std::string_view to_string(ScheduleMethod m);
/// Inverse of to_string (also "krr", the old name of hsu-chung); throws
/// UsageError naming an unknown method.
ScheduleMethod parse_schedule_method(std::string_view text);
/// Every concrete method (not automatic).
std::vector<ScheduleMethod> all_schedule_methods();

/// Why `method` cannot build schedules between src and dst, or nothing if it can.
std::optional<std::string> inapplicable(ScheduleMethod method, const Dist1D& src, const Dist1D& dst);

/// The method `automatic` uses: the fastest applicable one (Hsu-Chung closed
/// forms, then Thakur's special cases, then ASPEN).
ScheduleMethod choose_schedule_method(const Dist1D& src, const Dist1D& dst);

/// The local indices of process `proc` of `local`, grouped by the process of
/// `remote` that owns each element, sorted by that peer.  Throws ScheduleError
/// when the method does not apply, ShapeMismatch when the extents differ.
std::vector<PeerRuns> partition_runs(ScheduleMethod method, const Dist1D& local, int proc,
                                     const Dist1D& remote);

}  // namespace distarray
