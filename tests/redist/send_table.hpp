#pragma once
// Rank 0's send table of a 2-D redistribution, for the execution-half unit tests.

#include <distarray/redist/detail/tables/plan_tables.hpp>

#include <string>

namespace distarray::detail {

/// Rank 0's send table of `from` -> `to` of the given shape, its block stored
/// in `order`, messages in `message` order.
inline CopyTable send_table(const std::string& from_text, const std::string& to_text, const Index<2>& shape,
                            StorageOrder order, StorageOrder message) {
  const auto from = Layout<2>::parse(from_text, shape);
  const auto to = Layout<2>::parse(to_text, shape);
  const auto rank_in = [](const Layout<2>& l) {
    return [&l](const Coord<2>& c) { return l.grid().rank_of(c); };
  };
  return exchange_tables<2>(from, to, Coord<2>{0, 0}, std::nullopt, ScheduleMethod::automatic, rank_in(from),
                            rank_in(to), false, {order, message})
      .first;
}

}  // namespace distarray::detail
