#pragma once
// The header of an `encoded` message: per dimension, what the receiver needs
// to unpack it (Hsu and Chung, ICPP'97, generalized).  Where the kr->r / r->kr
// closed forms apply, two numbers — (alpha, gamma) or (beta, gamma); for any
// other pair of distributions, the receiver's runs in periodic form.
//   words: per dimension, [0, first, count] or [1, patterns, {period, repeat, segments, {start,
//   length}...}...]

#include <distarray/core/dist1d.hpp>
#include <distarray/redist/runs.hpp>
#include <distarray/redist/schedule.hpp>

#include <vector>

namespace distarray::detail {

/// Appends the words that let destination process q unpack what source process
/// p sends along one dimension (src -> dst).
void append_unpack_words(std::vector<index_t>& words, ScheduleMethod method, const Dist1D& src,
                         const Dist1D& dst, int p, int q);

/// Reads one dimension's words from `pos` (advancing it) into the receiver's runs.
PeerRuns read_unpack_words(const std::vector<index_t>& words, std::size_t& pos, const Dist1D& src,
                           const Dist1D& dst, int p, int q);

/// Appends a receiver's runs in the runs form (nullptr: none), for messages
/// whose runs no closed form describes (a matrix transform's windows).
void append_run_words(std::vector<index_t>& words, const PeerRuns* runs);

/// Reads words append_run_words wrote, from `pos` (advancing it): the runs
/// of the message from `peer`.
PeerRuns read_run_words(const std::vector<index_t>& words, std::size_t& pos, int peer);

}  // namespace distarray::detail
