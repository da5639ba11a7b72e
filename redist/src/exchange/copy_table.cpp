#include <distarray/redist/detail/tables/copy_table.hpp>

#include <algorithm>

namespace distarray::detail {

std::vector<Segment> expanded_segments(const PeerRuns& r, index_t unit) {
  std::vector<Segment> v;
  r.for_each_segment([&](index_t start, index_t length) {
    if (!v.empty() && v.back().start + v.back().length == start * unit)
      v.back().length += length * unit;
    else
      v.push_back({start * unit, length * unit});
  });
  return v;
}

std::vector<index_t> expanded_indices(const PeerRuns& r) {
  std::vector<index_t> v;
  v.reserve(std::size_t(r.size()));
  r.for_each_segment([&](index_t start, index_t length) {
    for (index_t i = 0; i < length; ++i) v.push_back(start + i);
  });
  return v;
}

std::vector<TileTask> CopyTable::tile_tasks(std::size_t first, std::size_t last, index_t rows_per_task,
                                            index_t elements_per_task) const {
  std::vector<TileTask> tasks;
  for (std::size_t i = first; i < last; ++i) {
    const Message& m = messages[i];
    const index_t row_elements = row_extent(m);
    const CopyRow& row = rows[std::size_t(m.rows_begin)];
    index_t run = row.runs_begin;
    for (index_t e0 = 0; e0 < row_elements; e0 += elements_per_task) {
      const index_t e1 = std::min(e0 + elements_per_task, row_elements);
      while (runs[std::size_t(run)].offset + runs[std::size_t(run)].length <= e0) ++run;
      for (index_t r0 = m.rows_begin; r0 < m.rows_end; r0 += rows_per_task)
        tasks.push_back({r0, std::min(r0 + rows_per_task, m.rows_end), e0, e1, run});
    }
  }
  return tasks;
}

std::vector<RunChunk> CopyTable::run_chunks(std::size_t first, std::size_t last) const {
  std::vector<RunChunk> chunks;
  for (std::size_t i = first; i < last; ++i) {
    const Message& m = messages[i];
    if (m.rows_end == m.rows_begin) continue;
    const index_t row_elements = row_extent(m);
    // The pieces of one row, the same for every row of the message (they share their runs).
    std::vector<RunChunk> pieces;
    const CopyRow& row = rows[std::size_t(m.rows_begin)];
    index_t run = row.runs_begin;
    for (index_t e0 = 0; e0 < row_elements; e0 += copy_chunk) {
      while (runs[std::size_t(run)].offset + runs[std::size_t(run)].length <= e0) ++run;
      pieces.push_back({0, e0, std::min(e0 + copy_chunk, row_elements), run});
    }
    for (index_t r = m.rows_begin; r < m.rows_end; ++r)
      for (RunChunk piece : pieces) {
        piece.row = r;
        chunks.push_back(piece);
      }
  }
  return chunks;
}

std::vector<RunChunk> CopyTable::run_chunks_in_local_order() const {
  std::vector<RunChunk> chunks = run_chunks(0, messages.size());
  const auto place = [this](const RunChunk& c) {
    const CopyRun& run = runs[std::size_t(c.run_begin)];
    const index_t skipped = c.element_begin > run.offset ? c.element_begin - run.offset : 0;
    return rows[std::size_t(c.row)].local_base + run.start + skipped * run.stride;
  };
  std::stable_sort(chunks.begin(), chunks.end(),
                   [&](const RunChunk& a, const RunChunk& b) { return place(a) < place(b); });
  return chunks;
}

index_t CopyTable::row_extent(const Message& m) const {
  const CopyRun& last = runs[std::size_t(rows[std::size_t(m.rows_begin)].runs_end - 1)];
  return last.offset + last.length;
}

double CopyTable::mean_run_length() const {
  double pieces = 0;  // a run copied once per row that lists it
  for (const CopyRow& row : rows) pieces += double(row.runs_end - row.runs_begin);
  return pieces > 0 ? double(total) / pieces : 1.0;
}

bool evenly_spaced_singles(const std::vector<Segment>& segments) {
  if (segments.size() < 2) return false;
  const index_t spacing = segments[1].start - segments[0].start;
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (segments[i].length != 1 || (i > 0 && segments[i].start - segments[i - 1].start != spacing))
      return false;
  return true;
}

void CopyTable::append(const CopyTable& other) {
  const auto row_shift = index_t(rows.size()), run_shift = index_t(runs.size());
  runs.insert(runs.end(), other.runs.begin(), other.runs.end());
  for (const CopyRow& r : other.rows)
    rows.push_back({r.local_base, r.buffer_base + total, r.runs_begin + run_shift, r.runs_end + run_shift});
  for (const Message& m : other.messages)
    messages.push_back({m.rank, m.offset + total, m.count, m.rows_begin + row_shift, m.rows_end + row_shift});
  total += other.total;
  strided = strided || other.strided;
}

CopyTable CopyTable::without(std::size_t skip) const {
  CopyTable t;
  t.runs = runs;  // (the skipped message's runs stay, unused)
  t.strided = strided;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (i == skip) continue;
    const Message& m = messages[i];
    const auto first_row = index_t(t.rows.size());
    for (index_t r = m.rows_begin; r < m.rows_end; ++r) {
      CopyRow row = rows[std::size_t(r)];
      row.buffer_base += t.total - m.offset;
      t.rows.push_back(row);
    }
    t.messages.push_back({m.rank, t.total, m.count, first_row, index_t(t.rows.size())});
    t.total += m.count;
  }
  return t;
}

}  // namespace distarray::detail
