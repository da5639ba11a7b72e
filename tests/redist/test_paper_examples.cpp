// The worked examples of the papers, reproduced exactly by every generator
// that applies.  Global indices in the papers start at 1, local ones at 0.

#include "schedule_oracle.hpp"

#include <distarray/redist/message_encoding.hpp>
#include <distarray/redist/schedule.hpp>

#include <gtest/gtest.h>

namespace distarray {
namespace {

using Sets = std::map<int, std::vector<index_t>>;

/// The 1-D schedule of source process `src_proc` and destination process `dst_proc`.
struct Schedule1D {
  std::vector<PeerRuns> send;  ///< in source local indices, per destination process
  std::vector<PeerRuns> recv;  ///< in destination local indices, per source process
};

Schedule1D make_schedule(ScheduleMethod method, const Dist1D& src, const Dist1D& dst, int src_proc,
                         int dst_proc) {
  return {partition_runs(method, src, src_proc, dst), partition_runs(method, dst, dst_proc, src)};
}

// Hsu-Chung Fig. 2(b): BLOCK-CYCLIC(10) -> BLOCK-CYCLIC(2) of A[1:30] over 3
// processors, the sets computed by P0.
TEST(PaperExamples, HsuChungFigure2b) {
  const Dist1D src = Dist1D::cyclic_b(30, 3, 10), dst = Dist1D::cyclic_b(30, 3, 2);
  const Sets sds = {{0, {0, 1, 6, 7}}, {1, {2, 3, 8, 9}}, {2, {4, 5}}};  // DPS = {P0, P1, P2}
  const Sets rds = {{0, {0, 1, 2, 3}}, {1, {4, 5, 6, 7}}, {2, {8, 9}}};  // SPS = {P0, P1, P2}
  for (ScheduleMethod m : all_schedule_methods()) {
    const Schedule1D s = make_schedule(m, src, dst, 0, 0);
    EXPECT_EQ(testing::expand(s.send), sds) << to_string(m);
    EXPECT_EQ(testing::expand(s.recv), rds) << to_string(m);
  }
  // SDS[P0, P2] = {(l4, A[5]), (l5, A[6])}; RDS[P0, P2] = {(l8, A[25]), (l9, A[26])}.
  EXPECT_EQ(src.global_index(0, 4) + 1, 5);
  EXPECT_EQ(dst.global_index(0, 8) + 1, 25);
}

// Fig. 3(b) and Fig. 5(b): the messages P0 packs for BLOCK-CYCLIC(6) <-> (2)
// of A[1:24] over M = 2 processors.
TEST(PaperExamples, HsuChungFigures3bAnd5b) {
  const Dist1D bc6 = Dist1D::cyclic_b(24, 2, 6), bc2 = Dist1D::cyclic_b(24, 2, 2);
  EXPECT_EQ(testing::expand(partition_runs(ScheduleMethod::hsu_chung, bc6, 0, bc2)),
            (Sets{{0, {0, 1, 4, 5, 6, 7, 10, 11}}, {1, {2, 3, 8, 9}}}));
  EXPECT_EQ(testing::expand(partition_runs(ScheduleMethod::hsu_chung, bc2, 0, bc6)),
            (Sets{{0, {0, 1, 2, 3, 6, 7, 8, 9}}, {1, {4, 5, 10, 11}}}));
}

// Figs. 4 and 6: destination P0's unpacking parameters.
TEST(PaperExamples, HsuChungFigures4And6UnpackParameters) {
  const Dist1D bc6 = Dist1D::cyclic_b(24, 2, 6), bc2 = Dist1D::cyclic_b(24, 2, 2);
  // kr -> r: (alpha, gamma) = (0, 4) from P0 and (4, 2) from P1.
  EXPECT_EQ(encode_unpack_params(bc6, bc2, 0, 0), (UnpackParams{0, 4}));
  EXPECT_EQ(encode_unpack_params(bc6, bc2, 1, 0), (UnpackParams{4, 2}));
  // P0 unpacks msg0 into DLA0[0:3] and DLA0[6:9], msg1 into DLA0[4:5] and DLA0[10:11].
  EXPECT_EQ(testing::expand({decode_unpack_params({0, 4}, bc6, bc2, 0, 0)}),
            (Sets{{0, {0, 1, 2, 3, 6, 7, 8, 9}}}));
  EXPECT_EQ(testing::expand({decode_unpack_params({4, 2}, bc6, bc2, 1, 0)}), (Sets{{1, {4, 5, 10, 11}}}));
  // r -> kr: (beta, delta) = (0, 4) from P0 and (2, 2) from P1.
  EXPECT_EQ(encode_unpack_params(bc2, bc6, 0, 0), (UnpackParams{0, 4}));
  EXPECT_EQ(encode_unpack_params(bc2, bc6, 1, 0), (UnpackParams{2, 2}));
  // msg0 into DLA0[0:1], [4:5], [6:7], [10:11]; msg1 into DLA0[2:3], [8:9].
  EXPECT_EQ(testing::expand({decode_unpack_params({0, 4}, bc2, bc6, 0, 0)}),
            (Sets{{0, {0, 1, 4, 5, 6, 7, 10, 11}}}));
  EXPECT_EQ(testing::expand({decode_unpack_params({2, 2}, bc2, bc6, 1, 0)}), (Sets{{1, {2, 3, 8, 9}}}));
}

// ASPEN Fig. 1: a 2-D block-cyclic array on a 4x4 producer grid moved to a
// 3x3 consumer grid with other block sizes.  The figure's block sizes are not
// in the text, so this is our instance of it: 26x23 elements, producer blocks
// 3x2, consumer blocks 2x4.  The overlap of producer (p0,p1) and consumer
// (c0,c1) is the tensor product of the 1-D schedules; check it element by
// element for every pair, and the figure's pair (0,0)-(0,0) explicitly.
TEST(PaperExamples, AspenFigure1Overlap) {
  const Dist1D prod[2] = {Dist1D::cyclic_b(26, 4, 3), Dist1D::cyclic_b(23, 4, 2)};
  const Dist1D cons[2] = {Dist1D::cyclic_b(26, 3, 2), Dist1D::cyclic_b(23, 3, 4)};
  for (ScheduleMethod m : {ScheduleMethod::aspen, ScheduleMethod::falls, ScheduleMethod::classical}) {
    for (int p0 = 0; p0 < 4; ++p0)
      for (int p1 = 0; p1 < 4; ++p1) {
        const Sets rows = testing::expand(partition_runs(m, prod[0], p0, cons[0]));
        const Sets cols = testing::expand(partition_runs(m, prod[1], p1, cons[1]));
        for (int c0 = 0; c0 < 3; ++c0)
          for (int c1 = 0; c1 < 3; ++c1) {
            // The product of the 1-D runs, as (global row, global column) pairs.
            std::vector<std::pair<index_t, index_t>> product, brute;
            if (rows.count(c0) && cols.count(c1))
              for (index_t i : rows.at(c0))
                for (index_t j : cols.at(c1))
                  product.push_back({prod[0].global_index(p0, i), prod[1].global_index(p1, j)});
            for (index_t i = 0; i < 26; ++i)
              for (index_t j = 0; j < 23; ++j)
                if (prod[0].owner(i) == p0 && prod[1].owner(j) == p1 && cons[0].owner(i) == c0 &&
                    cons[1].owner(j) == c1)
                  brute.push_back({i, j});
            ASSERT_EQ(product, brute) << to_string(m) << " producer (" << p0 << "," << p1 << ") consumer ("
                                      << c0 << "," << c1 << ")";
            if (p0 == 0 && p1 == 0 && c0 == 0 && c1 == 0) {
              // Producer (0,0) holds rows 0-2, 12-14, 24-25 and columns 0-1, 8-9, 16-17;
              // consumer (0,0) rows 0-1, 6-7, 12-13, 18-19, 24-25 and columns 0-3, 12-15.
              EXPECT_EQ(rows.at(0), (std::vector<index_t>{0, 1, 3, 4, 6, 7}));  // rows 0, 1, 12, 13, 24, 25
              EXPECT_EQ(cols.at(0), (std::vector<index_t>{0, 1}));              // columns 0, 1
            }
          }
      }
  }
}

}  // namespace
}  // namespace distarray
