// CopyTable: the rows and runs of a message, merged dimensions, spaced
// singles, and tile tasks covering every (row, run element) of a strided
// message exactly once; run chunks that spread any table over the threads;
// tables appended one after another.

#include <distarray/redist/detail/tables/copy_table.hpp>
#include "send_table.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {
namespace {

TEST(CopyTable, WholeRowsMergeIntoOneRun) {
  // (block,*) -> (block,*) on another grid: rank 0 sends whole rows, one run per message.
  const CopyTable t = send_table("block,* on 2x1", "block,* on 3x1", {12, 10}, StorageOrder::row_major,
                                 StorageOrder::row_major);
  ASSERT_EQ(t.messages.size(), 2u);  // rows 0-3 to rank 0, rows 4-5 to rank 1
  for (const auto& m : t.messages) {
    EXPECT_EQ(m.rows_end - m.rows_begin, 1);
    const CopyRow& r = t.rows[std::size_t(m.rows_begin)];
    ASSERT_EQ(r.runs_end - r.runs_begin, 1);
    EXPECT_EQ(t.runs[std::size_t(r.runs_begin)].length, m.count);
  }
  EXPECT_FALSE(t.strided);
  EXPECT_EQ(t.total, 60);
}

TEST(CopyTable, CyclicColumnsAreOneStridedRunPerRow) {
  const CopyTable t = send_table("*,block on 1x1", "*,cyclic on 1x3", {4, 9}, StorageOrder::row_major,
                                 StorageOrder::row_major);
  ASSERT_EQ(t.messages.size(), 3u);
  const CopyRun& run = t.runs[std::size_t(t.rows[0].runs_begin)];
  EXPECT_EQ(run.stride, 3);
  EXPECT_EQ(run.length, 3);
  EXPECT_FALSE(t.strided);  // spaced singles are copied by copy_runs
}

// In both shapes: a GPU team's (copy_tile x copy_block) and a host thread's
// (host_task_rows x fewer elements, as a packer with many threads takes).
TEST(CopyTable, TileTasksCoverEveryElementOnce) {
  for (const Index<2> shape : {Index<2>{301, 67}, Index<2>{31, 700}, Index<2>{2000, 31}, Index<2>{40, 3100}})
    for (const auto [rows, elements] :
         {std::pair{copy_tile, copy_block}, std::pair{host_task_rows, index_t(64)}}) {
      const CopyTable t = send_table("cyclic(3),* on 3x1", "*,cyclic(7) on 1x3", shape,
                                     StorageOrder::row_major, StorageOrder::column_major);
      ASSERT_TRUE(t.strided);
      const auto tasks = t.tile_tasks(0, t.messages.size(), rows, elements);
      std::map<std::pair<index_t, index_t>, int> seen;  // (row, run element)
      for (const TileTask& task : tasks) {
        EXPECT_LE(task.row_end - task.row_begin, rows);
        EXPECT_LE(task.element_end - task.element_begin, elements);
        const CopyRun& first = t.runs[std::size_t(task.run_begin)];
        EXPECT_GT(first.offset + first.length, task.element_begin);
        for (index_t r = task.row_begin; r < task.row_end; ++r)
          for (index_t e = task.element_begin; e < task.element_end; ++e) ++seen[{r, e}];
      }
      index_t expected = 0;
      for (const auto& m : t.messages) {
        const index_t per_row = m.count / (m.rows_end - m.rows_begin);
        expected += m.count;
        for (index_t r = m.rows_begin; r < m.rows_end; ++r)
          for (index_t e = 0; e < per_row; ++e)
            ASSERT_EQ((seen[{r, e}]), 1) << "row " << r << " element " << e;
      }
      EXPECT_EQ(index_t(seen.size()), expected);
    }
}

// The work decomposition of copy_runs: at least elements / copy_chunk work
// items for any table (one long row, four rows, many short rows, spaced
// singles), none longer than copy_chunk, every (row, element) exactly once.
TEST(CopyTable, RunChunksSpreadEveryTableOverAtLeastElementsOverTheChunk) {
  struct Case {
    const char *from, *to;
    Index<2> shape;
    index_t rows;  // rows of the first message, where the case is about them (0: any)
  };
  const Case cases[] = {{"block,* on 1x1", "block,* on 1x1", {1000, 100}, 1},  // one merged row
                        {"*,* on 1x1", "*,block on 1x2", {4, 20000}, 4},       // four long rows
                        {"cyclic(3),* on 3x1", "*,cyclic(7) on 1x3", {301, 67}, 0},
                        {"*,block on 1x1", "*,cyclic on 1x3", {40, 9001}, 0}};  // spaced singles
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.from) + " -> " + c.to);
    const CopyTable t = send_table(c.from, c.to, c.shape, StorageOrder::row_major, StorageOrder::row_major);
    if (c.rows) EXPECT_EQ(t.messages[0].rows_end - t.messages[0].rows_begin, c.rows);
    const auto chunks = t.run_chunks(0, t.messages.size());
    EXPECT_GE(index_t(chunks.size()), (t.total + copy_chunk - 1) / copy_chunk);
    std::vector<std::vector<int>> seen(t.rows.size());
    for (const auto& m : t.messages)
      for (index_t r = m.rows_begin; r < m.rows_end; ++r)
        seen[std::size_t(r)].assign(std::size_t(m.count / (m.rows_end - m.rows_begin)), 0);
    for (const RunChunk& chunk : chunks) {
      EXPECT_LE(chunk.element_end - chunk.element_begin, copy_chunk);
      const CopyRun& first = t.runs[std::size_t(chunk.run_begin)];
      EXPECT_GT(first.offset + first.length, chunk.element_begin);
      for (index_t e = chunk.element_begin; e < chunk.element_end; ++e)
        ++seen[std::size_t(chunk.row)][std::size_t(e)];
    }
    for (std::size_t r = 0; r < seen.size(); ++r)
      for (std::size_t e = 0; e < seen[r].size(); ++e)
        ASSERT_EQ(seen[r][e], 1) << "row " << r << " element " << e;
  }
}

TEST(CopyTable, AppendedTablesFollowEachOtherInTheBuffer) {
  // The encoded engine joins the tables it decodes per source into one.
  const CopyTable a = send_table("block,* on 2x1", "block,* on 3x1", {12, 10}, StorageOrder::row_major,
                                 StorageOrder::row_major);
  const CopyTable b = send_table("block,* on 2x1", "*,cyclic(3) on 1x3", {12, 10}, StorageOrder::row_major,
                                 StorageOrder::column_major);
  ASSERT_FALSE(a.strided);
  ASSERT_TRUE(b.strided);
  CopyTable joint = a;
  joint.append(b);
  EXPECT_EQ(joint.total, a.total + b.total);
  EXPECT_TRUE(joint.strided);
  ASSERT_EQ(joint.messages.size(), a.messages.size() + b.messages.size());
  for (std::size_t i = 0; i < b.messages.size(); ++i) {
    const CopyTable::Message &m = b.messages[i], &j = joint.messages[a.messages.size() + i];
    EXPECT_EQ(j.rank, m.rank);
    EXPECT_EQ(j.offset, a.total + m.offset);
    EXPECT_EQ(j.count, m.count);
    EXPECT_EQ(j.rows_end - j.rows_begin, m.rows_end - m.rows_begin);
    for (index_t r = 0; r < m.rows_end - m.rows_begin; ++r) {  // the same copies, buffer moved
      const CopyRow &x = b.rows[std::size_t(m.rows_begin + r)],
                    &y = joint.rows[std::size_t(j.rows_begin + r)];
      EXPECT_EQ(y.local_base, x.local_base);
      EXPECT_EQ(y.buffer_base, a.total + x.buffer_base);
      ASSERT_EQ(y.runs_end - y.runs_begin, x.runs_end - x.runs_begin);
      for (index_t k = 0; k < x.runs_end - x.runs_begin; ++k) {
        const CopyRun &u = b.runs[std::size_t(x.runs_begin + k)],
                      &v = joint.runs[std::size_t(y.runs_begin + k)];
        EXPECT_EQ(v.start, u.start);
        EXPECT_EQ(v.length, u.length);
        EXPECT_EQ(v.offset, u.offset);
        EXPECT_EQ(v.stride, u.stride);
      }
    }
  }
}

}  // namespace
}  // namespace distarray::detail
