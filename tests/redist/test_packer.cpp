// Packer: each kernel policy (runs, tiles) against a plain host loop over the
// same copy table, on ragged shapes (not multiples of the 32-element tile or
// the 256-element TLB block), row- and column-major sides; a whole side is
// one launch; unpacking restores what packing read, one message alone
// exactly its elements.  The Streamed cases are large enough (a side over
// stream_bytes) for the host kernels' non-temporal stores, for 4-, 8- and
// 16-byte elements, with lines that start off a 16-byte boundary and on
// one (TransposedSquaresOnLineBoundaries).  Run at 1, 2 and 4 threads
// (the kernels' pieces alone: test_host_kernels.cpp); on OpenMP the sides
// under on_caller_bytes run on the calling thread, and TeamWithoutStreaming
// keeps the team's plain stores tested.

#include <distarray/redist/detail/kernels/packer.hpp>
#include "send_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace distarray::detail {
namespace {

using Space = Kokkos::DefaultExecutionSpace::memory_space;

/// A value for element i, distinct for every i the tests reach.
template <class T>
T value_of(index_t i) {
  if constexpr (is_complex<T>::value)
    return T(typename T::value_type(i) + 0.5, -typename T::value_type(i));
  else
    return T(i) + T(0.5);
}

/// The buffer a pack must produce, by a plain loop over rows and runs.
template <class T>
std::vector<T> reference_pack(const CopyTable& t, const std::vector<T>& local) {
  std::vector<T> buffer(std::size_t(t.total), T(-1));
  for (const CopyRow& row : t.rows)
    for (index_t k = row.runs_begin; k < row.runs_end; ++k) {
      const CopyRun& run = t.runs[std::size_t(k)];
      for (index_t j = 0; j < run.length; ++j)
        buffer[std::size_t(row.buffer_base + run.offset + j)] =
            local[std::size_t(row.local_base + run.start + j * run.stride)];
    }
  return buffer;
}

template <class V>
std::vector<typename V::non_const_value_type> host_copy(const V& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return {h.data(), h.data() + h.size()};
}

template <class T = double>
void check(const std::string& from, const std::string& to, index_t n, index_t m, StorageOrder order,
           StorageOrder message, bool tiled) {
  SCOPED_TRACE(from + " -> " + to + " " + std::to_string(n) + "x" + std::to_string(m) + ", " +
               std::to_string(Kokkos::DefaultExecutionSpace().concurrency()) + " threads");
  const CopyTable table = send_table(from, to, {n, m}, order, message);
  ASSERT_EQ(table.strided, tiled);
  ASSERT_GT(table.messages.size(), 0u);
  const index_t local_size = n * m;  // enough for rank 0's block
  Kokkos::View<T*, Space> local("local", local_size), buffer("buffer", table.total),
      restored("restored", local_size);
  auto filled = Kokkos::create_mirror_view(local);  // filled on the host: std::complex is host code
  for (index_t i = 0; i < local_size; ++i) filled(i) = value_of<T>(i);
  Kokkos::deep_copy(local, filled);
  const Packer<T, Space> packer(table);
  EXPECT_EQ(packer.copy_all(local.data(), buffer.data(), true), 1) << "a whole side is one launch";
  Kokkos::fence();
  const std::vector<T> expected = reference_pack(table, host_copy(local));
  EXPECT_EQ(host_copy(buffer), expected);

  // Unpacking writes back exactly the elements packing read.
  Kokkos::deep_copy(restored, T(-1));
  packer.copy_all(restored.data(), buffer.data(), false);
  Kokkos::fence();
  const std::vector<T> back = host_copy(restored), original = host_copy(local);
  std::vector<bool> touched(std::size_t(local_size), false);
  for (const CopyRow& row : table.rows)
    for (index_t k = row.runs_begin; k < row.runs_end; ++k)
      for (index_t j = 0; j < table.runs[std::size_t(k)].length; ++j)
        touched[std::size_t(row.local_base + table.runs[std::size_t(k)].start +
                            j * table.runs[std::size_t(k)].stride)] = true;
  for (index_t i = 0; i < local_size; ++i)
    ASSERT_EQ(back[std::size_t(i)], touched[std::size_t(i)] ? original[std::size_t(i)] : T(-1))
        << "element " << i;

  // One message alone: its elements, and no other, unpacked.
  const std::size_t last = table.messages.size() - 1;
  Kokkos::View<T*, Space> single("single", local_size);
  Kokkos::deep_copy(single, T(-1));
  EXPECT_EQ(packer.copy(last, last + 1, single.data(), buffer.data(), false), 1);
  Kokkos::fence();
  const std::vector<T> one = host_copy(single);
  index_t unpacked = 0;
  for (index_t i = 0; i < local_size; ++i)
    if (one[std::size_t(i)] != T(-1)) {
      ASSERT_EQ(one[std::size_t(i)], original[std::size_t(i)]) << "element " << i;
      ++unpacked;
    }
  EXPECT_EQ(unpacked, table.messages[last].count);
}

constexpr auto row = StorageOrder::row_major;
constexpr auto col = StorageOrder::column_major;

TEST(Packer, ContiguousRuns) { check("block,* on 3x1", "cyclic(5),* on 3x1", 301, 67, row, row, false); }
TEST(Packer, ShortRuns) { check("*,cyclic(16) on 1x3", "*,block on 1x3", 67, 301, row, row, false); }
TEST(Packer, SpacedSingles) { check("*,block on 1x2", "*,cyclic on 1x3", 45, 301, row, row, false); }
TEST(Packer, TiledTransposeAdjacentRows) {
  check("block,* on 3x1", "*,block on 1x3", 901, 67, row, col, true);
}
TEST(Packer, TiledTransposeScatteredRows) {
  check("cyclic(3),* on 3x1", "*,cyclic(7) on 1x3", 301, 533, row, col, true);
}

// Rank 0's side between on_caller_bytes and the stream thresholds: on
// OpenMP, the team's work items with plain stores.
TEST(Packer, TeamWithoutStreaming) {
  const std::size_t side = std::size_t(1001 / 3) * 401 * sizeof(double);
  ASSERT_GE(side, on_caller_bytes);
  ASSERT_LT(side, pack_stream_bytes);
  check("block,* on 3x1", "cyclic(5),* on 3x1", 1001, 401, row, row, false);
  check("*,cyclic(16) on 1x3", "*,block on 1x3", 401, 1001, row, row, false);
  check("block,* on 3x1", "*,block on 1x3", 1001, 401, row, col, true);
}

// Rank 0's side above stream_bytes for each element size; odd extents put
// lines off 16-byte boundaries.  The runs cases pack in the local block's
// order (Packer's chunks_in_local_order_), not message by message.
template <class T>
void check_streamed(index_t n, index_t m) {
  ASSERT_GE(std::size_t(n / 3) * std::size_t(m) * sizeof(T), stream_bytes);
  check<T>("block,* on 3x1", "cyclic(5),* on 3x1", n, m, row, row, false);
  check<T>("block,* on 3x1", "*,block on 1x3", n, m, row, row, false);
  check<T>("*,cyclic(16) on 1x3", "*,block on 1x3", n, m, row, row, false);
  check<T>("block,* on 3x1", "*,block on 1x3", n, m, row, col, true);
  check<T>("cyclic(3),* on 3x1", "*,cyclic(7) on 1x3", n, m, row, col, true);
}
TEST(Packer, StreamedFloat) { check_streamed<float>(3001, 1201); }
TEST(Packer, StreamedDouble) { check_streamed<double>(2001, 803); }
TEST(Packer, StreamedComplex) { check_streamed<Kokkos::complex<double>>(1203, 701); }

// Transposes whose lines start on 16-byte boundaries (extents multiples of
// 4) but do not fill whole squares (host_squares.hpp's square_side): the host
// kernels' squares, with ragged rows and runs around them, streamed (the
// first three) and not; the last with messages of more rows than a host
// tile task holds (host_task_rows).
TEST(Packer, TransposedSquaresOnLineBoundaries) {
  check<float>("block,* on 3x1", "*,block on 1x3", 3000, 1500, row, col, true);
  check<double>("block,* on 3x1", "*,block on 1x3", 3000, 1500, row, col, true);
  check<Kokkos::complex<double>>("block,* on 3x1", "*,block on 1x3", 1500, 612, row, col, true);
  check<float>("block,* on 3x1", "*,block on 1x3", 300, 180, row, col, true);
  check<std::int64_t>("block,* on 3x1", "*,block on 1x3", 600, 276, row, col, true);
  check<double>("block,* on 3x1", "*,block on 1x3", 300, 3300, row, col, true);
}

}  // namespace
}  // namespace distarray::detail
