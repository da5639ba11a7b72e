// The message to oneself, split out of a step's tables and joined into one
// source -> destination copy (own_message.hpp).

#include <distarray/core/error.hpp>
#include <distarray/redist/detail/kernels/own_message.hpp>

#include <algorithm>
#include <optional>
#include <span>
#include <utility>

namespace distarray::detail {

namespace {

/// One side of a message: rows that share one list of runs, whose offsets
/// cover [0, inner()) (CopyTable::add_message).
struct Side {
  const CopyTable* table;
  const CopyTable::Message* message;

  index_t rows() const { return message->rows_end - message->rows_begin; }
  index_t inner() const { return message->count / rows(); }
  const CopyRow& row(index_t i) const { return table->rows[std::size_t(message->rows_begin + i)]; }
  std::span<const CopyRun> runs() const {
    const CopyRow& r = row(0);
    return {table->runs.data() + r.runs_begin, std::size_t(r.runs_end - r.runs_begin)};
  }
  bool shared_runs() const {
    for (index_t i = 1; i < rows(); ++i)
      if (row(i).runs_begin != row(0).runs_begin || row(i).runs_end != row(0).runs_end) return false;
    return true;
  }
  bool unit_runs() const {
    return std::all_of(runs().begin(), runs().end(),
                       [](const CopyRun& r) { return r.stride == 1 || r.length == 1; });
  }
  /// The run of a row holding its element `p`.
  const CopyRun& run_at(index_t p) const {
    const std::span<const CopyRun> list = runs();
    return *(std::upper_bound(list.begin(), list.end(), p,
                              [](index_t q, const CopyRun& r) { return q < r.offset; }) -
             1);
  }
  /// Where element e of the message sits in the block.
  index_t local(index_t e) const {
    const index_t p = e % inner();
    const CopyRun& r = run_at(p);
    return row(e / inner()).local_base + r.start + (p - r.offset) * r.stride;
  }
};

/// A table of one message from the table side `x` to the buffer side `y`
/// with a row per element: correct for any pair of sides, and large; for
/// the pairs the structured join does not cover.
CopyTable per_element(const Side& x, const Side& y) {
  CopyTable t;
  t.runs.push_back({0, 1, 0, 1});
  for (index_t e = 0; e < x.message->count; ++e) t.rows.push_back({x.local(e), y.local(e), 0, 1});
  t.messages.push_back({x.message->rank, 0, x.message->count, 0, index_t(t.rows.size())});
  t.total = x.message->count;
  return t;
}

/// The structured join: x's rows, each with the buffer side's place of its
/// first element (`y_bases`), and x's runs cut where `y_runs` (the buffer
/// side's runs within such a row) break.  Nothing where a buffer place would
/// go back within a row (the kernels walk runs by buffer place).
std::optional<CopyTable> join_rows(const Side& x, const std::vector<index_t>& y_bases,
                                   const std::vector<CopyRun>& y_runs) {
  const std::span<const CopyRun> x_runs = x.runs();
  std::vector<CopyRun> runs;
  std::size_t i = 0, j = 0;
  for (index_t p = 0; p < x.inner();) {
    const CopyRun &u = x_runs[i], &v = y_runs[j];
    // A strided buffer side is taken one element at a time: the kernels step
    // through the buffer in unit steps.
    const index_t length = v.stride == 1 ? std::min(u.offset + u.length, v.offset + v.length) - p : 1;
    const CopyRun piece{u.start + (p - u.offset) * u.stride, length, v.start + (p - v.offset) * v.stride,
                        u.stride};
    CopyRun* last = runs.empty() ? nullptr : &runs.back();
    if (last && last->stride == piece.stride && last->start + last->length * last->stride == piece.start &&
        last->offset + last->length == piece.offset)
      last->length += length;
    else if (last && piece.offset < last->offset + last->length)
      return std::nullopt;
    else
      runs.push_back(piece);
    p += length;
    if (p >= u.offset + u.length) ++i;
    if (p >= v.offset + v.length) ++j;
  }
  CopyTable t;
  t.runs = std::move(runs);
  for (index_t r = 0; r < x.rows(); ++r)
    t.rows.push_back({x.row(r).local_base, y_bases[std::size_t(r)], 0, index_t(t.runs.size())});
  t.messages.push_back({x.message->rank, 0, x.message->count, 0, x.rows()});
  t.total = x.message->count;
  t.strided = x.table->strided && std::any_of(t.runs.begin(), t.runs.end(),
                                              [](const CopyRun& r) { return r.stride != 1 && r.length > 1; });
  return t;
}

}  // namespace

OwnCopy joined_copy(const CopyTable& send, std::size_t s, const CopyTable& recv, std::size_t r) {
  Side x{&send, &send.messages[s]}, y{&recv, &recv.messages[r]};
  if (x.message->count != y.message->count)
    throw Error("distarray: the message to oneself has " + std::to_string(x.message->count) +
                " elements to send but " + std::to_string(y.message->count) + " to receive");
  OwnCopy own;
  // The side whose rows hold fewer elements gives the rows (the other merged
  // dimensions it covers whole, so a row of the first is contiguous in it);
  // with equal rows the table side is the one whose runs are not unit, if one is.
  const bool merged = x.inner() != y.inner();
  if (merged ? x.inner() > y.inner() : !y.unit_runs() && x.unit_runs()) {
    std::swap(x, y);
    own.table_is_source = false;
  }
  std::vector<index_t> y_bases;
  std::vector<CopyRun> y_runs;
  bool joinable = x.shared_runs();
  if (merged) {
    y_runs.push_back({0, x.inner(), 0, 1});  // each row of x is one run of y
    for (index_t row = 0; row < x.rows() && joinable; ++row) {
      const index_t e = row * x.inner(), p = e % y.inner();
      const CopyRun& run = y.run_at(p);
      joinable = (run.stride == 1 || x.inner() == 1) && p + x.inner() <= run.offset + run.length;
      y_bases.push_back(y.local(e));
    }
  } else {
    joinable = joinable && y.shared_runs();
    y_runs.assign(y.runs().begin(), y.runs().end());
    for (index_t row = 0; row < x.rows(); ++row) y_bases.push_back(y.row(row).local_base);
  }
  std::optional<CopyTable> t;
  if (joinable) t = join_rows(x, y_bases, y_runs);
  own.table = t ? std::move(*t) : per_element(x, y);
  return own;
}

OwnSplit split_own_message(const CopyTable& send, const CopyTable& recv, const EncodedMessages& encoded,
                           int rank) {
  const auto own_in = [rank](const CopyTable& t) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < t.messages.size(); ++i)
      if (t.messages[i].rank == rank) return i;
    return std::nullopt;
  };
  OwnSplit split{send, recv, encoded, {}};
  const std::optional<std::size_t> s = own_in(send);
  if (encoded.decode) {  // receive tables come from headers: decode the own one
    if (!s) return split;
    const CopyTable own_recv = encoded.decode(rank, encoded.headers[*s]);
    split.own = joined_copy(send, *s, own_recv, 0);
    split.send = send.without(*s);
    split.encoded.headers.erase(split.encoded.headers.begin() + std::ptrdiff_t(*s));
    return split;
  }
  const std::optional<std::size_t> r = own_in(recv);
  if (!s && !r) return split;
  if (!s || !r)
    throw Error("distarray: this rank " + std::string(s ? "sends" : "receives") +
                " a message to itself that it does not " + (s ? "receive" : "send"));
  split.own = joined_copy(send, *s, recv, *r);
  split.send = send.without(*s);
  split.recv = recv.without(*r);
  return split;
}

}  // namespace distarray::detail
