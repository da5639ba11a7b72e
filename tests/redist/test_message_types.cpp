// MessageTypes: each message's datatype selects exactly the table's elements
// in message order (MPI_Pack of a block holding its own offsets against a
// plain loop over rows and runs), on ragged and periodic layouts, both
// storage orders, strided runs included; and the periodic folding keeps a
// type's description from growing with the array (the plan-build target).

#include "exchange/message_types.hpp"  // redist/src

#include "send_table.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

namespace distarray::detail {
namespace {

/// The offsets message `i` of `t` reads, in message order, by a plain loop.
std::vector<double> expected_offsets(const CopyTable& t, std::size_t i) {
  std::vector<double> v;
  const auto& m = t.messages[i];
  for (index_t r = m.rows_begin; r < m.rows_end; ++r) {
    const CopyRow& row = t.rows[std::size_t(r)];
    for (index_t k = row.runs_begin; k < row.runs_end; ++k) {
      const CopyRun& run = t.runs[std::size_t(k)];
      for (index_t j = 0; j < run.length; ++j)
        v.push_back(double(row.local_base + run.start + j * run.stride));
    }
  }
  return v;
}

/// Addresses, integers and datatype handles in the description of `type`,
/// counted through every level (a shared subtype once per use).
long description_size(MPI_Datatype type) {
  int ints = 0, addresses = 0, types = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ints, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_NAMED) return 0;
  std::vector<int> i(std::size_t(ints) + 1);
  std::vector<MPI_Aint> a(std::size_t(addresses) + 1);
  std::vector<MPI_Datatype> d(std::size_t(types) + 1);
  MPI_Type_get_contents(type, ints, addresses, types, i.data(), a.data(), d.data());
  long size = ints + addresses + types;
  for (int k = 0; k < types; ++k) {
    size += description_size(d[std::size_t(k)]);
    int inner = 0, unused = 0;
    MPI_Type_get_envelope(d[std::size_t(k)], &unused, &unused, &unused, &inner);
    if (inner != MPI_COMBINER_NAMED) MPI_Type_free(&d[std::size_t(k)]);
  }
  return size;
}

/// Every message's type packs the table's elements; returns the largest description.
long check_types(const std::string& from, const std::string& to, const Index<2>& shape, StorageOrder order,
                 StorageOrder message) {
  SCOPED_TRACE(from + " -> " + to + " " + std::to_string(shape[0]) + "x" + std::to_string(shape[1]));
  const CopyTable table = send_table(from, to, shape, order, message);
  EXPECT_GT(table.messages.size(), 0u);
  const MessageTypes types(table, sizeof(double));
  std::vector<double> local(std::size_t(shape[0] * shape[1]));
  std::iota(local.begin(), local.end(), 0.0);
  long largest = 0;
  for (std::size_t i = 0; i < table.messages.size(); ++i) {
    const std::vector<double> expected = expected_offsets(table, i);
    int bytes = 0;
    MPI_Type_size(types[i], &bytes);
    EXPECT_EQ(std::size_t(bytes), expected.size() * sizeof(double)) << "message " << i;
    std::vector<double> packed(expected.size() + 1, -1);
    int position = 0;
    MPI_Pack(local.data(), 1, types[i], packed.data(), int(packed.size() * sizeof(double)), &position,
             MPI_COMM_SELF);
    packed.pop_back();
    EXPECT_EQ(packed, expected) << "message " << i;
    largest = std::max(largest, description_size(types[i]));
  }
  return largest;
}

TEST(MessageTypes, SelectTheTableElementsInMessageOrder) {
  const auto row = StorageOrder::row_major, column = StorageOrder::column_major;
  for (const auto& [order, message] : {std::pair{row, row}, {column, column}, {row, column}, {column, row}}) {
    check_types("block,* on 3x1", "*,block on 1x3", {10, 7}, order, message);
    check_types("cyclic(3),cyclic(2) on 2x2", "cyclic(2),cyclic(5) on 1x4", {23, 19}, order, message);
    check_types("cyclic(64),cyclic(64) on 1x2", "cyclic(16),cyclic(16) on 1x2", {300, 517}, order, message);
    check_types("cyclic,block on 2x1", "block(6),cyclic(3) on 3x1", {17, 3}, order, message);
    check_types("block,block on 2x2", "cyclic(2),* on 3x1", {1, 5}, order, message);  // N < P
  }
}

TEST(MessageTypes, DescriptionsFollowThePeriodsNotTheExtent) {
  const auto column = StorageOrder::column_major;
  for (const auto& [from, to] : {std::pair{"cyclic(64),cyclic(64) on 1x2", "cyclic(64),cyclic(64) on 2x1"},
                                 {"cyclic(64),cyclic(64) on 2x2", "cyclic(64),cyclic(64) on 1x4"},
                                 {"cyclic(64),cyclic(64) on 2x2", "cyclic(16),cyclic(16) on 2x2"},
                                 {"cyclic(64),cyclic(64) on 1x2", "cyclic(64),cyclic(64) on 1x3"}}) {
    const long small = check_types(from, to, {1024, 1024}, column, column);
    const long large = check_types(from, to, {4096 + 100, 4096}, column, column);  // a ragged tail
    EXPECT_LE(small, 64) << from << " -> " << to;
    EXPECT_LE(large, small + 16) << from << " -> " << to;  // the tail's blocks, not 4x the runs
  }
}

}  // namespace
}  // namespace distarray::detail
