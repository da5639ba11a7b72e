// The message to oneself (own_message.hpp): split out of both tables and
// joined into one copy, run by the packers' kernels straight from a source
// block into a destination block, against the two-pass path it replaces (a
// plain host loop: pack into a buffer by the send table, unpack by the
// receive table).  Every rank of each layout pair that keeps elements, every
// pair of storage orders, 2-D and 3-D, ragged shapes, transposes (tiled),
// spaced singles, rows merged on one side only, ranks owning nothing, and a
// scaled copy that reads what it writes over; copies large enough for the
// host kernels' streamed stores.

#include <distarray/redist/detail/kernels/own_message.hpp>
#include <distarray/redist/detail/kernels/packer.hpp>
#include <distarray/redist/detail/tables/plan_tables.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace distarray::detail {
namespace {

using Space = Kokkos::DefaultExecutionSpace::memory_space;
constexpr auto row = StorageOrder::row_major;
constexpr auto col = StorageOrder::column_major;

/// Where each element of message `m` of `t` sits in its block, in message order.
std::vector<index_t> places(const CopyTable& t, std::size_t m) {
  const CopyTable::Message& msg = t.messages[m];
  std::vector<index_t> at(std::size_t(msg.count));
  for (index_t r = msg.rows_begin; r < msg.rows_end; ++r) {
    const CopyRow& w = t.rows[std::size_t(r)];
    for (index_t k = w.runs_begin; k < w.runs_end; ++k) {
      const CopyRun& run = t.runs[std::size_t(k)];
      for (index_t j = 0; j < run.length; ++j)
        at[std::size_t(w.buffer_base - msg.offset + run.offset + j)] =
            w.local_base + run.start + j * run.stride;
    }
  }
  return at;
}

std::size_t own_index(const CopyTable& t, int rank) {
  for (std::size_t i = 0; i < t.messages.size(); ++i)
    if (t.messages[i].rank == rank) return i;
  return t.messages.size();
}

std::vector<double> host_copy(const Kokkos::View<double*, Space>& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.size());
}

/// Every rank of from -> to: the split and the joined copy; returns the
/// ranks that kept elements.
template <int D>
int check(const std::string& from_text, const std::string& to_text, const Index<D>& shape,
          std::pair<StorageOrder, StorageOrder> orders, double alpha = 1, double beta = 0) {
  const auto from = Layout<D>::parse(from_text, shape), to = Layout<D>::parse(to_text, shape);
  SCOPED_TRACE(from_text + " -> " + to_text + (orders.first == row ? ", row" : ", col") +
               (orders.second == row ? " -> row" : " -> col"));
  const auto rank_in = [](const Layout<D>& l) {
    return [&l](const Coord<D>& c) { return l.grid().rank_of(c); };
  };
  int keeping = 0;
  for (int rank = 0; rank < from.grid().size(); ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const auto src = from.grid().coord_of(rank), dst = to.grid().coord_of(rank);
    const auto [send, recv] = exchange_tables<D>(from, to, src, dst, ScheduleMethod::automatic, rank_in(from),
                                                 rank_in(to), true, orders);
    const OwnSplit split = split_own_message(send, recv, {}, rank);
    EXPECT_EQ(own_index(split.send, rank), split.send.messages.size()) << "left in the send table";
    EXPECT_EQ(own_index(split.recv, rank), split.recv.messages.size()) << "left in the receive table";
    EXPECT_EQ(split.send.total + split.own.elements(), send.total);
    EXPECT_EQ(split.recv.total + split.own.elements(), recv.total);
    const std::size_t s = own_index(send, rank), r = own_index(recv, rank);
    if (s == send.messages.size()) {
      EXPECT_EQ(split.own.elements(), 0);
      continue;
    }
    ++keeping;
    // Structured, not an element per row: at most the rows of the finer side.
    const auto rows = [](const CopyTable& t, std::size_t m) {
      return t.messages[m].rows_end - t.messages[m].rows_begin;
    };
    EXPECT_LE(index_t(split.own.table.rows.size()), std::max(rows(send, s), rows(recv, r)));

    const index_t source_size = element_count(from.local_extents(*src));
    const index_t destination_size = element_count(to.local_extents(*dst));
    Kokkos::View<double*, Space> a("a", source_size), b("b", destination_size);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, source_size),
        KOKKOS_LAMBDA(const index_t i) { a(i) = double(i) + 0.25; });
    Kokkos::deep_copy(b, -1.0);
    const Packer<double, Space> own(split.own.table);
    double* const local = split.own.table_is_source ? a.data() : b.data();
    double* const other = split.own.table_is_source ? b.data() : a.data();
    if (alpha == 1 && beta == 0)  // a plan's op: on a host, streamed where the copy is large
      EXPECT_EQ(own.copy_all(local, other, split.own.table_is_source, Direct<double, PlainCopy<double>>{}),
                1);
    else
      EXPECT_EQ(own.copy_all(local, other, split.own.table_is_source,
                             Direct<double, ScaledCopy<double>>{ScaledCopy<double>(alpha, beta, false)}),
                1);
    Kokkos::fence();

    std::vector<double> want(std::size_t(destination_size), -1.0);
    const std::vector<double> source = host_copy(a);
    const std::vector<index_t> from_at = places(send, s), to_at = places(recv, r);
    for (std::size_t e = 0; e < from_at.size(); ++e) {
      double& w = want[std::size_t(to_at[e])];
      w = alpha * source[std::size_t(from_at[e])] + beta * w;
    }
    const std::vector<double> got = host_copy(b);
    int wrong = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i] && wrong++ < 3)
        ADD_FAILURE() << "destination element " << i << ": " << got[i] << ", not " << want[i];
    EXPECT_EQ(wrong, 0);
  }
  return keeping;
}

const std::pair<StorageOrder, StorageOrder> every_order[] = {{row, row}, {row, col}, {col, row}, {col, col}};

TEST(OwnMessage, TransposesOnOneRankAndMore) {
  for (const auto orders : every_order) {
    EXPECT_EQ(check<2>("block,block on 1x1", "block,block on 1x1", {37, 29}, orders), 1);
    EXPECT_EQ(check<2>("block,* on 2x1", "*,block on 1x2", {13, 11}, orders), 2);
    EXPECT_EQ(check<2>("block,* on 3x1", "*,block on 1x3", {70, 45}, orders), 3);
  }
}

TEST(OwnMessage, BlockCyclicAndSpacedSingles) {
  for (const auto orders : every_order) {
    EXPECT_GT(check<2>("cyclic(3),* on 3x1", "*,cyclic(7) on 1x3", {30, 53}, orders), 0);
    EXPECT_GT(check<2>("block,block on 2x2", "cyclic(2),cyclic(3) on 2x2", {17, 19}, orders), 0);
    EXPECT_GT(check<2>("*,cyclic on 1x2", "*,block on 1x2", {9, 31}, orders), 0);
    EXPECT_GT(check<2>("*,block on 1x2", "*,cyclic on 1x2", {9, 31}, orders), 0);
  }
}

TEST(OwnMessage, ThreeDimensionsAndRanksOwningNothing) {
  for (const auto orders : every_order) {
    EXPECT_EQ(check<3>("block,*,* on 2x1x1", "*,*,block on 1x1x2", {5, 6, 7}, orders), 2);
    EXPECT_GT(check<3>("*,block,* on 1x3x1", "*,*,cyclic(2) on 1x1x3", {4, 7, 9}, orders), 0);
    // Four ranks over three rows: the last owns nothing in the source.
    EXPECT_EQ(check<2>("block,* on 4x1", "*,block on 1x4", {3, 5}, orders), 3);
  }
}

// Own messages over stream_bytes (host_copy_kernels.hpp's streamed stores),
// ragged so that lines start off 16-byte boundaries.
TEST(OwnMessage, LargeCopiesStream) {
  ASSERT_GE(std::size_t(1001 * 701) * sizeof(double), stream_bytes);
  for (const auto orders : every_order) {
    EXPECT_EQ(check<2>("block,* on 1x1", "*,block on 1x1", {1001, 701}, orders), 1);
    EXPECT_EQ(check<2>("cyclic(64),cyclic(48) on 1x1", "block,block on 1x1", {1001, 701}, orders), 1);
    EXPECT_EQ(check<2>("block,* on 2x1", "*,block on 1x2", {2001, 1501}, orders), 2);
  }
}

// A plan between equal layouts may be executed from an array into itself:
// each run is copied onto itself (by memmove: memcpy's arguments may not
// overlap), and the array is left as it was.
TEST(OwnMessage, OntoItself) {
  const auto layout = Layout<2>::parse("block,cyclic(3) on 2x1", {37, 29});
  for (int rank = 0; rank < 2; ++rank) {
    const auto c = layout.grid().coord_of(rank);
    const auto [send, recv] = exchange_tables<2>(
        layout, layout, c, c, ScheduleMethod::automatic,
        [&](const Coord<2>& x) { return layout.grid().rank_of(x); },
        [&](const Coord<2>& x) { return layout.grid().rank_of(x); }, true, {row, row});
    const OwnSplit split = split_own_message(send, recv, {}, rank);
    const index_t size = element_count(layout.local_extents(*c));
    ASSERT_EQ(split.own.elements(), size);
    Kokkos::View<double*, Space> a("a", size);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, size),
        KOKKOS_LAMBDA(const index_t i) { a(i) = double(i); });
    const Packer<double, Space> onto_itself(split.own.table);
    EXPECT_EQ(onto_itself.copy_all(a.data(), a.data(), split.own.table_is_source), 1);
    Kokkos::fence();
    const std::vector<double> got = host_copy(a);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], double(i)) << "rank " << rank << ", element " << i;
  }
}

TEST(OwnMessage, ScaledCopyReadsWhatItWritesOver) {
  for (const auto orders : every_order) {
    EXPECT_EQ(check<2>("block,* on 2x1", "*,block on 1x2", {45, 70}, orders, 2.0, -0.5), 2);
    EXPECT_GT(check<2>("cyclic(3),* on 3x1", "*,cyclic(7) on 1x3", {30, 53}, orders, -1.5, 3.0), 0);
  }
}

}  // namespace
}  // namespace distarray::detail
