// libFuzzer target: the distarray command's option parser.  Input: NUL-
// separated arguments.  Bad options must end in a UsageError; any other
// exception or a sanitizer report is a crash.

#include "args.hpp"

#include <distarray/core/error.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words{"distarray"};
  std::string word;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.push_back(word);
      word.clear();
    } else {
      word += char(data[i]);
    }
  }
  words.push_back(word);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  try {
    const distarray::cli::Args args(int(argv.size()), argv.data(), 1,
                                    {"shape", "from", "to", "repeat", "type", "ts"}, {"verify"});
    args.get_int("repeat", 1, 1, 1000);
    if (args.has("ts")) args.get_seconds("ts");
    args.get("type", "f64");
  } catch (const distarray::UsageError&) {
  }
  return 0;
}
