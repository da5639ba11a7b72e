// Storage orders of local blocks against Kokkos' own LayoutRight/LayoutLeft
// index maps, and storage_index as the inverse of storage_offset.

#include <distarray/core/storage_order.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace distarray {
namespace {

TEST(StorageOrder, OffsetsMatchKokkosViews) {
  const std::array<index_t, 3> ext{3, 4, 5};
  std::vector<int> memory(60);  // unmanaged views: no Kokkos::initialize needed
  Kokkos::View<int***, Kokkos::LayoutRight, Kokkos::HostSpace> right(memory.data(), 3, 4, 5);
  Kokkos::View<int***, Kokkos::LayoutLeft, Kokkos::HostSpace> left(memory.data(), 3, 4, 5);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 4; ++j)
      for (index_t k = 0; k < 5; ++k) {
        EXPECT_EQ(storage_offset<3>({i, j, k}, ext, StorageOrder::row_major), &right(i, j, k) - right.data());
        EXPECT_EQ(storage_offset<3>({i, j, k}, ext, StorageOrder::column_major),
                  &left(i, j, k) - left.data());
      }
}

TEST(StorageOrder, IndexInvertsOffset) {
  const std::array<index_t, 2> ext{7, 3};
  for (StorageOrder order : {StorageOrder::row_major, StorageOrder::column_major})
    for (index_t off = 0; off < 21; ++off)
      EXPECT_EQ(storage_offset(storage_index(off, ext, order), ext, order), off);
  EXPECT_EQ(storage_strides<2>(ext, StorageOrder::column_major), (std::array<index_t, 2>{1, 7}));
  EXPECT_EQ(storage_strides<2>(ext, StorageOrder::row_major), (std::array<index_t, 2>{3, 1}));
  static_assert(storage_order_of<Kokkos::LayoutLeft>() == StorageOrder::column_major);
}

}  // namespace
}  // namespace distarray
