// The one option parser of the distarray command, the examples and the
// benchmarks (support/options.hpp): values, flags, and every malformed
// command line refused with a UsageError that names the option.

#include <distarray/core/error.hpp>
#include <distarray/support/options.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using distarray::UsageError;
using distarray::support::Options;

/// Parses `words` (after a program name) with options n, t and ts and flag verify.
Options parse(std::vector<std::string> words) {
  words.insert(words.begin(), "program");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  return Options(int(argv.size()), argv.data(), {"n", "t", "ts"}, {"verify"});
}

/// The message of the UsageError that `f` throws ("" when none).
template <class F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Options, ValuesFlagsAndFallbacks) {
  const Options args = parse({"--n", "-12", "--verify", "--t", "0.25"});
  EXPECT_TRUE(args.has("verify"));
  EXPECT_FALSE(args.has("ts"));
  EXPECT_EQ(args.integer("n", 0), -12);
  EXPECT_EQ(args.number("t", 1.0), 0.25);
  EXPECT_EQ(args.text("ts", "none"), "none");
  EXPECT_EQ(args.integer("ts", 7, 1, 9), 7);  // absent: the fallback, unchecked
  EXPECT_EQ(parse({"--ts", "1e-3"}).seconds("ts"), 1e-3);
}

TEST(Options, HelpListsTheOptionsWhereverItIs) {
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"--help"}, {"--n", "3", "-h"}, {"--help", "--bogus"}}) {
    try {
      parse(words);
      ADD_FAILURE() << "no HelpAsked for " << words.back();
    } catch (const distarray::support::HelpAsked& help) {
      EXPECT_EQ(help.usage, "[--n VALUE] [--t VALUE] [--ts VALUE] [--verify]");
    }
  }
}

TEST(Options, MalformedCommandLinesNameTheOption) {
  EXPECT_NE(usage_error([] {
              parse({"--bogus", "1"});
            }).find("unknown option '--bogus' (options: --n --t --ts --verify)"),
            std::string::npos);
  EXPECT_NE(usage_error([] {
              parse({"--n", "1", "--n", "2"});
            }).find("option '--n' is given more than once"),
            std::string::npos);
  EXPECT_NE(usage_error([] { parse({"--n"}); }).find("option '--n' needs a value"), std::string::npos);
  EXPECT_NE(usage_error([] { parse({"n", "3"}); }).find("unexpected argument 'n'"), std::string::npos);
  EXPECT_NE(usage_error([] {
              parse({"--verify", "yes"});
            }).find("unexpected argument 'yes'"),
            std::string::npos);
}

TEST(Options, NumbersAreWholeAndInRange) {
  EXPECT_EQ(usage_error([] {
              parse({"--n", "12x"}).integer("n", 0);
            }),
            "option '--n' needs an integer, got '12x'");
  EXPECT_EQ(usage_error([] { parse({"--n", ""}).integer("n", 0); }), "option '--n' needs an integer, got ''");
  EXPECT_EQ(usage_error([] {
              parse({"--n", "99999999999999999999"}).integer("n", 0);
            }),
            "option '--n' needs an integer, got '99999999999999999999'");
  EXPECT_EQ(usage_error([] {
              parse({"--n", "0"}).integer("n", 5, 1);
            }),
            "option '--n' needs an integer >= 1, got '0'");
  EXPECT_EQ(usage_error([] {
              parse({"--n", "11"}).integer("n", 5, 1, 10);
            }),
            "option '--n' needs an integer from 1 to 10, got '11'");
  EXPECT_EQ(usage_error([] {
              parse({"--t", "nan"}).number("t", 0);
            }),
            "option '--t' needs a finite number, got 'nan'");
  EXPECT_EQ(usage_error([] {
              parse({"--t", "1.5s"}).number("t", 0);
            }),
            "option '--t' needs a finite number, got '1.5s'");
  EXPECT_EQ(usage_error([] {
              parse({"--ts", "-1"}).seconds("ts");
            }),
            "option '--ts' needs a finite number >= 0 (seconds), got '-1'");
  EXPECT_EQ(usage_error([] { parse({}).seconds("ts"); }),
            "option '--ts' needs a finite number >= 0 (seconds), got ''");
}

}  // namespace
