// libFuzzer target: the option parser of the distarray command, the examples
// and the benchmarks (support/options.hpp).  Input: NUL-
// separated arguments.  Bad options must end in a UsageError, --help or -h
// in HelpAsked; any other exception or a sanitizer report is a crash.

#include <distarray/core/error.hpp>
#include <distarray/support/options.hpp>

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
    const distarray::support::Options args(
        int(argv.size()), argv.data(), {"shape", "from", "to", "repeat", "type", "ts", "t-end"}, {"verify"});
    args.integer("repeat", 1, 1, 1000);
    args.integer("from", 0);
    args.number("t-end", 1.0);
    if (args.has("ts")) args.seconds("ts");
    args.text("type", "f64");
  } catch (const distarray::UsageError&) {
  } catch (const distarray::support::HelpAsked&) {
  }
  return 0;
}
