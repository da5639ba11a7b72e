#include "unpack_header.hpp"
#include <distarray/core/error.hpp>
#include <distarray/redist/message_encoding.hpp>

#include <algorithm>

namespace distarray::detail {

namespace {

enum Tag : index_t { closed_form = 0, runs = 1 };

index_t next(const std::vector<index_t>& words, std::size_t& pos) {
  if (pos >= words.size()) throw Error("encoded message header is truncated");
  return words[pos++];
}

}  // namespace

void append_unpack_words(std::vector<index_t>& words, ScheduleMethod method, const Dist1D& src,
                         const Dist1D& dst, int p, int q) {
  if (method != ScheduleMethod::brute && !inapplicable(ScheduleMethod::hsu_chung, src, dst)) {
    const auto params = encode_unpack_params(src, dst, p, q);
    words.insert(words.end(), {closed_form, params ? params->first : 0, params ? params->count : 0});
    return;
  }
  // The receiver's runs from p: what it would have computed for itself.
  const auto all = partition_runs(method, dst, q, src);
  const auto it = std::find_if(all.begin(), all.end(), [p](const PeerRuns& r) { return r.peer == p; });
  append_run_words(words, it == all.end() ? nullptr : &*it);
}

void append_run_words(std::vector<index_t>& words, const PeerRuns* r) {
  words.push_back(runs);
  words.push_back(r ? index_t(r->patterns.size()) : 0);
  if (!r) return;
  for (const RunPattern& pat : r->patterns) {
    words.insert(words.end(), {pat.period, pat.repeat, index_t(pat.segments.size())});
    for (const Segment& s : pat.segments) words.insert(words.end(), {s.start, s.length});
  }
}

PeerRuns read_unpack_words(const std::vector<index_t>& words, std::size_t& pos, const Dist1D& src,
                           const Dist1D& dst, int p, int q) {
  if (pos < words.size() && words[pos] == closed_form) {
    ++pos;
    UnpackParams params;
    params.first = next(words, pos);
    params.count = next(words, pos);
    return decode_unpack_params(params, src, dst, p, q);
  }
  return read_run_words(words, pos, p);
}

PeerRuns read_run_words(const std::vector<index_t>& words, std::size_t& pos, int peer) {
  const index_t tag = next(words, pos);
  if (tag != runs) throw Error("encoded message header has an unknown tag " + std::to_string(tag));
  PeerRuns r{peer, {}};
  for (index_t n = next(words, pos); n > 0; --n) {
    RunPattern pat;
    pat.period = next(words, pos);
    pat.repeat = next(words, pos);
    for (index_t k = next(words, pos); k > 0; --k) {
      const index_t start = next(words, pos);
      pat.segments.push_back({start, next(words, pos)});
    }
    r.patterns.push_back(std::move(pat));
  }
  return r;
}

}  // namespace distarray::detail
