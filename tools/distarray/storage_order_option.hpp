#pragma once
// The --from-order and --to-order options of the distarray command.

#include <distarray/core/error.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/support/options.hpp>

#include <string>

namespace distarray::cli {

/// The storage order of local blocks that `option` names (row-major, the
/// default, or column-major); UsageError for anything else.
inline StorageOrder storage_order_option(const support::Options& args, const std::string& option) {
  const std::string text = args.text(option, "row-major");
  if (text == "row-major") return StorageOrder::row_major;
  if (text == "column-major") return StorageOrder::column_major;
  throw UsageError("--" + option + " takes row-major or column-major, not '" + text + "'");
}

}  // namespace distarray::cli
