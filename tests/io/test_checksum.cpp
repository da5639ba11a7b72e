// Format 3's checksum (io/detail/checksum/checksum.hpp): it equals a plain reading
// of its specification (docs/checkpoint-format.md) whatever instruction set
// computed it, and it sees every flipped bit and every swap of two elements.

#include <distarray/io/checkpoint.hpp>
#define DISTARRAY_INCLUDING_DETAIL  // the kernels, each tested
#include <distarray/io/detail/checksum/keyed_row_kernels.hpp>
#undef DISTARRAY_INCLUDING_DETAIL

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace distarray {
namespace {

std::string p() { return testing::ranks_text(); }

template <class T>
std::uint64_t checksum_on_one_rank(const std::vector<T>& data, index_t rows, index_t cols) {
  const auto layout = Layout<2>::parse("block,block on 1x1", {rows, cols});
  return detail::global_checksum<T, 2>(layout, Coord<2>{0, 0}, data.data(), MPI_COMM_SELF);
}

template <class T>
void expect_checksum_sees_changes(index_t rows, index_t cols) {
  SCOPED_TRACE(element_type_name<T>());
  std::vector<T> data(std::size_t(rows * cols));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = T(double(i % 5) - 1.5);  // repeated values
  const std::uint64_t saved = checksum_on_one_rank(data, rows, cols);
  // The same elements held by every rank in another layout give the same value.
  DistArray<T, 2> spread(Layout<2>::parse("cyclic(2),block on " + p() + "x1", {rows, cols}), MPI_COMM_WORLD);
  spread.fill([&](const Index<2>& g) { return data[std::size_t(g[0] * cols + g[1])]; });
  const std::uint64_t spread_sum = detail::global_checksum<T, 2>(
      spread.layout(), spread.grid().coord(), testing::host_block(spread).data(), MPI_COMM_WORLD);
  EXPECT_EQ(spread_sum, saved);
  int missed = 0;
  for (std::size_t i = 0; i < data.size(); ++i)
    for (std::size_t bit = 0; bit < 8 * sizeof(T); ++bit) {
      auto* bytes = reinterpret_cast<unsigned char*>(&data[i]);
      bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
      missed += checksum_on_one_rank(data, rows, cols) == saved;
      bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
  for (std::size_t i = 0; i < data.size(); ++i)
    for (std::size_t j = i + 1; j < data.size(); ++j) {
      if (data[i] == data[j]) continue;
      std::swap(data[i], data[j]);
      missed += checksum_on_one_rank(data, rows, cols) == saved;
      std::swap(data[i], data[j]);
    }
  EXPECT_EQ(missed, 0);
  EXPECT_NE(checksum_on_one_rank(data, cols, rows), saved) << "the same bytes in another shape";
}

/// The checksum of a row-major rows x cols array, element by element as
/// docs/checkpoint-format.md states it.
template <class T>
std::uint64_t specified_checksum(const std::vector<T>& data, index_t rows, index_t cols) {
  std::uint64_t sums[2] = {0, 0};
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j)
      for (int set = 0; set < 2; ++set) {
        const std::uint64_t key = detail::dimension_key(set, 0, i) + detail::dimension_key(set, 1, j);
        for (std::size_t t = 0; 8 * t < sizeof(T); ++t) {
          std::uint64_t w = 0;
          std::memcpy(&w, reinterpret_cast<const char*>(&data[std::size_t(i * cols + j)]) + 8 * t,
                      std::min<std::size_t>(8, sizeof(T) - 8 * t));
          sums[set] += detail::keyed_mix(w + key + t * 0x9E3779B97F4A7C15ULL);
        }
      }
  return detail::checksum_seed(element_type_name<T>(), {rows, cols}) + sums[0] + detail::splitmix64(sums[1]);
}

template <class T>
void expect_specified(index_t rows, index_t cols) {
  SCOPED_TRACE(element_type_name<T>());
  std::vector<T> data(std::size_t(rows * cols));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = T(double(i) * 1.25 - 7);
  EXPECT_EQ(checksum_on_one_rank(data, rows, cols), specified_checksum(data, rows, cols));
}

TEST(Checkpoint, ChecksumIsTheSpecifiedOne) {
  // Rows long enough for the vector loops, with leftover columns.
  expect_specified<double>(3, 37);
  expect_specified<float>(4, 41);
  expect_specified<std::complex<double>>(2, 35);
  expect_specified<std::int32_t>(5, 19);
  expect_specified<std::int64_t>(3, 23);
}

TEST(Checkpoint, EveryChecksumKernelGivesThePortableSums) {
  std::mt19937_64 random(19);
  std::vector<unsigned char> row(16 * 41 + 1);  // rows start at byte 1: unaligned
  std::vector<std::uint64_t> keys0(41), keys1(41);
  for (auto& b : row) b = static_cast<unsigned char>(random());
  for (std::size_t j = 0; j < keys0.size(); ++j) {
    keys0[j] = random();
    keys1[j] = random();
  }
  const auto kernels = detail::keyed_row_kernels();
  EXPECT_STREQ(kernels.front().name, "portable");
  for (const auto& kernel : kernels)
    for (std::size_t bytes : {4, 8, 16})
      for (index_t columns = 0; columns <= 41; ++columns) {
        SCOPED_TRACE(std::string(kernel.name) + ", " + std::to_string(bytes) + "-byte elements, " +
                     std::to_string(columns) + " columns");
        detail::KeyedSums expected{1, 2}, found{1, 2};  // they add to what is there
        detail::add_keyed_row_portable(row.data() + 1, columns, bytes, 5, 7, keys0.data(), keys1.data(),
                                       expected);
        kernel.add(row.data() + 1, columns, bytes, 5, 7, keys0.data(), keys1.data(), found);
        EXPECT_EQ(found.set0, expected.set0);
        EXPECT_EQ(found.set1, expected.set1);
      }
}

TEST(Checkpoint, ChecksumSeesEveryFlippedBitAndEverySwap) {
  expect_checksum_sees_changes<double>(9, 7);
  expect_checksum_sees_changes<float>(5, 11);
  expect_checksum_sees_changes<std::complex<double>>(6, 5);
  expect_checksum_sees_changes<std::int32_t>(3, 13);
}

}  // namespace
}  // namespace distarray
