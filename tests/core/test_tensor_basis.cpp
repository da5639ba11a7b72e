#include "oracle.hpp"

#include <distarray/core/dist1d.hpp>

#include <gtest/gtest.h>

namespace distarray {
namespace {

// The basis digits (cycle, proc, offset) reproduce the index functions:
// proc is the owner, cycle*b + offset the local index, and composing the
// digits gives the global index back.
TEST(TensorBasis, ReproducesTheIndexFunctions) {
  for (index_t n = 0; n <= 120; ++n)
    for (int p = 1; p <= 8; ++p)
      for (index_t b = 1; b <= 11; ++b)
        for (const Dist1D& d : testing::all_kinds(n, p, b)) {
          const TensorBasis t = d.basis();
          ASSERT_EQ(t.extent(), n) << d.to_string();
          ASSERT_LT(t.tail, index_t(t.procs) * t.block);
          const auto o = testing::deal(n, p, testing::hpf_block(d.kind(), n, p, d.parameter()));
          for (index_t g = 0; g < n; ++g) {
            const TensorBasis::Digits x = t.digits(g);
            ASSERT_EQ(x.proc, o.owner[g]) << d.to_string() << " n=" << n << " g=" << g;
            ASSERT_EQ(x.cycle * t.block + x.offset, o.local[g]) << d.to_string() << " n=" << n << " g=" << g;
            ASSERT_EQ(t.global(x), g);
          }
        }
}

// Kaushik Sec. 2: block of 192 over 8 is e_8 (x) e_24; cyclic(3) is e_8 (x) e_8 (x) e_3.
TEST(TensorBasis, KaushikExamples) {
  EXPECT_EQ(Dist1D::block(192, 8).basis(), (TensorBasis{1, 8, 24, 0}));
  EXPECT_EQ(Dist1D::cyclic_b(192, 8, 3).basis(), (TensorBasis{8, 8, 3, 0}));
  EXPECT_EQ(Dist1D::cyclic(192, 8).basis(), (TensorBasis{24, 8, 1, 0}));
  EXPECT_EQ(Dist1D::cyclic_b(192, 8, 12).basis().to_string(), "e_2 (x) e_8[proc] (x) e_12");
  EXPECT_EQ(Dist1D::cyclic_b(20, 3, 2).basis().to_string(), "e_3 (x) e_3[proc] (x) e_2 + 2 tail");
}

}  // namespace
}  // namespace distarray
