#include "schedule_oracle.hpp"

#include <distarray/core/error.hpp>
#include <distarray/redist/message_encoding.hpp>
#include <distarray/redist/schedule.hpp>

#include <gtest/gtest.h>

namespace distarray {
namespace {

// For every kr->r and r->kr case of a sweep, every (source, destination)
// pair: the receiver's runs decoded from the sender's two numbers equal the
// oracle's receive set.
TEST(MessageEncoding, DecodedRunsEqualTheOracle) {
  long pairs = 0;
  for (int m = 1; m <= 7; ++m)
    for (index_t r = 1; r <= 4; ++r)
      for (index_t k = 1; k <= 7; ++k)
        for (index_t n : {0, 1, 5, 13, 37, 64, 100, 151})
          for (bool kr_to_r : {true, false}) {
            const Dist1D fine = Dist1D::cyclic_b(n, m, r), coarse = Dist1D::cyclic_b(n, m, k * r);
            const Dist1D& src = kr_to_r ? coarse : fine;
            const Dist1D& dst = kr_to_r ? fine : coarse;
            // Block sizes beyond N are capped to N, which can break divisibility.
            if (inapplicable(ScheduleMethod::hsu_chung, src, dst)) continue;
            const auto expected = testing::expected_schedule(src, dst);
            for (int i = 0; i < m; ++i)
              for (int j = 0; j < m; ++j) {
                const auto params = encode_unpack_params(src, dst, i, j);
                const auto& want = expected.recv[std::size_t(j)];
                if (!want.count(i)) {
                  ASSERT_FALSE(params)
                      << "n=" << n << " m=" << m << " k=" << k << " r=" << r << " " << i << "->" << j;
                  continue;
                }
                ASSERT_TRUE(params) << "n=" << n << " m=" << m << " k=" << k << " r=" << r << " " << i << "->"
                                    << j;
                const auto got = testing::expand({decode_unpack_params(*params, src, dst, i, j)});
                ASSERT_EQ(got.at(i), want.at(i))
                    << "n=" << n << " m=" << m << " k=" << k << " r=" << r << " " << i << "->" << j;
                ++pairs;
              }
          }
  EXPECT_GT(pairs, 5000);
}

TEST(MessageEncoding, OnlyForKrToRAndRToKr) {
  EXPECT_THROW(encode_unpack_params(Dist1D::cyclic_b(50, 3, 4), Dist1D::cyclic_b(50, 3, 6), 0, 0),
               ScheduleError);
  EXPECT_THROW(encode_unpack_params(Dist1D::cyclic_b(50, 3, 4), Dist1D::cyclic_b(50, 2, 2), 0, 0),
               ScheduleError);
}

}  // namespace
}  // namespace distarray
