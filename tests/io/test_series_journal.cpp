// A series' step journal is applied only by the next writer of the same
// file, and only for a step the file does not hold complete: readers never
// write; another file's journal, a damaged one or a FIFO is refused and left
// alone, and so is one written for an earlier file on the same inode; a
// journal kept from a committed step (a stalled reader's copy) undoes
// nothing.  A reader that cannot read a half-written step's file says how to
// roll the step back.

#define DISTARRAY_INCLUDING_DETAIL  // journal_image.hpp, to forge a journal
#include <distarray/io/detail/durability/journal_image.hpp>
#include <distarray/io/series.hpp>

#include "mpi/series_steps.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace distarray {
namespace {

using testing::fill_step;
using testing::fresh;
using testing::step_mismatches;
using testing::world_rank;

Layout<2> layout() {
  return Layout<2>::parse("cyclic(3),block on " + testing::ranks_text() + "x1", {29, 13});
}

std::string journal_of(const std::string& path) { return path + ".distarray-journal"; }

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// Rank 0 overwrites `path` in place (the same inode) with `bytes`.
void put_bytes(const std::string& path, const std::string& bytes) {
  if (world_rank() == 0) std::ofstream(path, std::ios::binary | std::ios::in | std::ios::trunc) << bytes;
  MPI_Barrier(MPI_COMM_WORLD);
}

/// Steps first..count-1 of array u, committed.
void write_steps(const std::string& path, int count, int first = 0) {
  Series s(path, MPI_COMM_WORLD);
  DistArray<double, 2> u(layout(), MPI_COMM_WORLD);
  for (int step = first; step < count; ++step) {
    fill_step(u, step);
    s.begin_step(std::uint64_t(step));
    s.write("u", u);
    s.commit_step();
  }
}

/// Rank 0's copies of the series and its journal while step 2 is being
/// written (then rolled back by the writer's destructor).
std::pair<std::string, std::string> unfinished_step(const std::string& path) {
  std::string file, journal;
  Series s(path, MPI_COMM_WORLD);
  DistArray<double, 2> u(layout(), MPI_COMM_WORLD);
  fill_step(u, 2);
  s.begin_step(2);
  s.write("u", u);
  if (world_rank() == 0) file = bytes_of(path), journal = bytes_of(journal_of(path));
  MPI_Barrier(MPI_COMM_WORLD);
  return {file, journal};
}

/// Every step 0..count-1 is complete and restores as written.
void expect_steps(const std::string& path, int count) {
  const auto steps = list_steps(path, MPI_COMM_WORLD);
  ASSERT_EQ(int(steps.size()), count) << path;
  for (int step = 0; step < count; ++step) {
    EXPECT_TRUE(steps[std::size_t(step)].complete) << "step " << step;
    DistArray<double, 2> v(Layout<2>::parse("block,cyclic on 1x" + testing::ranks_text(), {29, 13}),
                           MPI_COMM_WORLD);
    restore_step(path, "u", v, std::uint64_t(step));
    EXPECT_EQ(step_mismatches(v, step), 0) << "step " << step;
  }
}

TEST(SeriesJournal, AJournalKeptFromACommittedStepUndoesNothing) {
  const std::string path = fresh("journal_kept");
  {
    write_steps(path, 1);
    Series s(path, MPI_COMM_WORLD);
    DistArray<double, 2> u(layout(), MPI_COMM_WORLD);
    fill_step(u, 1);
    s.begin_step(1);
    s.write("u", u);
    const std::string kept = world_rank() == 0 ? bytes_of(journal_of(path)) : "";
    s.commit_step();
    put_bytes(journal_of(path), kept);  // as a reader stalled on it would find it again
  }
  const std::string file = bytes_of(path);
  expect_steps(path, 2);  // readers: no change, whatever the journal says
  if (world_rank() == 0) {
    EXPECT_TRUE(bytes_of(path) == file) << "a reader wrote to the series";
    EXPECT_TRUE(std::filesystem::exists(journal_of(path))) << "a reader removed the journal";
  }
  { const Series writer(path, MPI_COMM_WORLD); }  // step 1 is complete: the journal is only removed
  if (world_rank() == 0) EXPECT_FALSE(std::filesystem::exists(journal_of(path)));
  expect_steps(path, 2);
}

TEST(SeriesJournal, AStepLeftUnfinishedIsRolledBackByTheNextWriterOnly) {
  const std::string path = fresh("journal_unfinished");
  write_steps(path, 2);
  const auto [file, journal] = unfinished_step(path);  // put back as a killed writer leaves them
  put_bytes(path, file);
  put_bytes(journal_of(path), journal);
  try {
    const auto steps = list_steps(path, MPI_COMM_WORLD);  // as it is: steps 0 and 1, step 2 if it got there
    ASSERT_GE(steps.size(), 2u);
    EXPECT_TRUE(steps[0].complete && steps[1].complete);
    if (steps.size() > 2) EXPECT_FALSE(steps[2].complete);
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("distarray recover"), std::string::npos) << e.what();
  }
  if (world_rank() == 0) {
    EXPECT_TRUE(bytes_of(path) == file) << "a reader wrote to the series";
    EXPECT_TRUE(bytes_of(journal_of(path)) == journal) << "a reader changed the journal";
  }
  { const Series writer(path, MPI_COMM_WORLD); }
  if (world_rank() == 0) EXPECT_FALSE(std::filesystem::exists(journal_of(path)));
  expect_steps(path, 2);
}

TEST(SeriesJournal, AReaderOfAHalfWrittenStepSaysHowToRollItBack) {
  // A writer killed inside a step can leave the file's metadata half written
  // (seen once in many kills at 4 ranks: the root group could not be listed).
  // Forged here by breaking every symbol-table node of a step's image.
  const std::string path = fresh("journal_half_written");
  write_steps(path, 2);
  auto [file, journal] = unfinished_step(path);
  for (std::size_t at = file.find("SNOD"); at != std::string::npos; at = file.find("SNOD", at + 4))
    file[at] = 'X';
  put_bytes(path, file);
  put_bytes(journal_of(path), journal);
  testing::expect_throw_on_every_rank([&] { list_steps(path, MPI_COMM_WORLD); }, "distarray recover");
  DistArray<double, 2> v(layout(), MPI_COMM_WORLD);
  testing::expect_throw_on_every_rank([&] { restore_step(path, "u", v); }, "distarray recover");
  if (world_rank() == 0) {
    EXPECT_TRUE(bytes_of(path) == file) << "a reader wrote to the series";
    EXPECT_TRUE(bytes_of(journal_of(path)) == journal) << "a reader changed the journal";
  }
  { const Series writer(path, MPI_COMM_WORLD); }
  expect_steps(path, 2);
}

TEST(SeriesJournal, ForeignDamagedOrSpecialJournalsAreRefusedAndLeftAlone) {
  const std::string path = fresh("journal_foreign"), other = fresh("journal_other");
  write_steps(path, 2);
  write_steps(other, 1);
  {
    Series s(other, MPI_COMM_WORLD);
    DistArray<double, 2> u(layout(), MPI_COMM_WORLD);
    s.begin_step(1);
    s.write("u", u);
    put_bytes(journal_of(path), world_rank() == 0 ? bytes_of(journal_of(other)) : "");
  }
  const std::string file = world_rank() == 0 ? bytes_of(path) : "";
  const std::pair<const char*, const char*> cases[] = {
      {"another file's journal", "written for another file"},
      {"an empty journal", "not a distarray step journal"},
      {"a FIFO", "not a step journal this file's writer wrote"}};
  for (const auto& [what, refusal] : cases) {
    if (std::string(what) == "an empty journal") put_bytes(journal_of(path), "");
    if (std::string(what) == "a FIFO") {
      if (world_rank() == 0) {
        std::filesystem::remove(journal_of(path));
        ASSERT_EQ(::mkfifo(journal_of(path).c_str(), 0600), 0);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
    testing::expect_throw_on_every_rank([&] { const Series writer(path, MPI_COMM_WORLD); }, refusal);
    expect_steps(path, 2);  // readers warn and read on
    if (world_rank() == 0) {
      EXPECT_TRUE(bytes_of(path) == file) << what << ": the series was written to";
      EXPECT_TRUE(std::filesystem::exists(journal_of(path))) << what << ": the journal was removed";
    }
  }
  if (world_rank() == 0) std::filesystem::remove(journal_of(path));
  MPI_Barrier(MPI_COMM_WORLD);
  write_steps(path, 3, 2);  // the user removed it: writers go on
  expect_steps(path, 3);
}

TEST(SeriesJournal, AJournalOfAnEarlierFileOnTheSameInodeIsRefused) {
  // A series deleted with its killed writer's journal left, then a new
  // series created at the path on the recycled inode: same device and inode,
  // born later.  The journal is forged whole (a valid hash) with an earlier
  // birth time, as the first file's writer would have written it.
  const std::string path = fresh("journal_recycled");
  write_steps(path, 2);
  int forged = 0;
  if (world_rank() == 0) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    detail::FileIdentity id;
    if (fd >= 0 && detail::identity_of(fd, id) && (id.birth || id.generation)) {
      id.birth -= id.birth ? 1 : 0;
      id.generation += id.birth ? 0 : 1;
      std::vector<char> image;
      const detail::JournalHeader header{id, 1, std::uint64_t(std::filesystem::file_size(path)) / 2};
      EXPECT_EQ(detail::journal_image(fd, header, {}, image), "");
      std::ofstream(journal_of(path), std::ios::binary).write(image.data(), std::streamsize(image.size()));
      forged = 1;
    }
    if (fd >= 0) ::close(fd);
  }
  MPI_Bcast(&forged, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!forged) GTEST_SKIP() << "this file system keeps neither birth times nor inode generations";
  const std::string file = world_rank() == 0 ? bytes_of(path) : "";
  testing::expect_throw_on_every_rank([&] { const Series writer(path, MPI_COMM_WORLD); },
                                      "an earlier one on the same inode");
  if (world_rank() == 0) {
    EXPECT_TRUE(bytes_of(path) == file) << "the series was written to";
    std::filesystem::remove(journal_of(path));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_steps(path, 2);
}

}  // namespace
}  // namespace distarray
