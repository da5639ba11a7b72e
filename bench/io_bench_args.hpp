#pragma once
// The options both checkpoint benchmarks take (checkpoint_io.cpp,
// checksum_floor.cpp): --mib, the array's size in all (rows of 4096
// doubles), --reps, --dir, where their files go, and --json, the file the
// record goes to (support/json_record.hpp).

#include <distarray/core.hpp>
#include <distarray/support/options.hpp>

#include <climits>
#include <string>

namespace distarray {

struct IoBenchArgs {
  index_t mib = 256;
  int reps = 3;
  std::string dir = ".";
  std::string json;

  /// The array's global shape: rows of 4096 doubles, `mib` MiB in all.
  Index<2> shape() const { return {mib * (1 << 20) / 8 / 4096, 4096}; }
};

/// `defaults` with what argv sets.
inline IoBenchArgs parse_io_bench_args(int argc, char** argv, IoBenchArgs args) {
  const support::Options o(argc, argv, {"mib", "reps", "dir", "json"});
  args.mib = o.integer("mib", args.mib, 1);
  args.reps = int(o.integer("reps", args.reps, 1, INT_MAX));
  args.dir = o.text("dir", args.dir);
  args.json = o.text("json", args.json);
  return args;
}

}  // namespace distarray
