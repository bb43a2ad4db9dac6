// Names, paths and alphabets that are not UTF-8, through the kexp program: each is refused
// before anything is created, at its file:line:column where it has one, the dry run as the
// run, never an internal error from the JSON writer and never a half-made result folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kRest =
    "kernels:\n  - plugin: gaussian\n    sigma: 1\nsolvers:\n  - plugin: kernel_ridge\n";

/// Runs `args` twice, as a dry run and as a run, and expects both refused with `message`
/// and no result folder.
void expect_refused(const TempDir& dir, const std::string& args, const std::string& message) {
  for (const std::string extra : {" --dry-run", ""}) {
    const CommandResult r = run_kexp("run " + args + " --out out --quiet" + extra, dir.path());
    EXPECT_EQ(r.exit_code, 2) << extra << r.err;
    EXPECT_THAT(r.err, HasSubstr(message)) << extra;
    EXPECT_THAT(r.err, Not(HasSubstr("internal error"))) << extra;
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << extra << ": a result folder was made";
  }
}

TEST(Utf8Names, AnExperimentNameThatIsNotUtf8IsRefusedAtItsLine) {
  // Before: the dry run passed and the run died with json.exception.type_error.316,
  // leaving a half-made folder.
  const TempDir dir;
  dir.write("exp.yaml", "experiment: caf\xe9\nseed: 1\ndataset:\n  plugin: sine\n" + kRest);
  expect_refused(dir, "exp.yaml", "exp.yaml:1:16: byte 0xe9 is not valid UTF-8");
}

TEST(Utf8Names, ADataFileNamedWithANonUtf8ByteIsRefusedAtItsLine) {
  const TempDir dir;
  std::string rows = "x,y\n";
  for (int i = 0; i < 20; ++i) rows += std::to_string(i) + "," + std::to_string(2 * i) + "\n";
  dir.write("d\xff.csv", rows);
  dir.write("exp.yaml",
            "experiment: named\nseed: 1\ndataset:\n  plugin: csv\n  train: d\xff.csv\n" + kRest);
  expect_refused(dir, "exp.yaml", "exp.yaml:5:11: byte 0xff is not valid UTF-8");
}

TEST(Utf8Names, ASetValueThatIsNotUtf8IsRefused) {
  const TempDir dir;
  dir.write("exp.yaml", "experiment: set\nseed: 1\ndataset:\n  plugin: sine\n" + kRest);
  expect_refused(dir, "exp.yaml --set \"experiment=$(printf 'x\\377')\"",
                 "--set: byte 13 of the value (0xff) is not valid UTF-8");
}

TEST(Utf8Names, AnAlphabetSymbolThatIsNotUtf8IsRefusedNamingIt) {
  const TempDir dir;
  std::string lines;
  for (int i = 0; i < 10; ++i) lines += "+1 a b a\n-1 b \xff b\n";
  dir.write("seq.txt", lines);
  dir.write("exp.yaml", R"(experiment: symbols
dataset:
  plugin: sequences
  train: seq.txt
  tokens: words
kernels:
  - plugin: spectrum
    k: 1
solvers:
  - plugin: kernel_ridge_classifier
)");
  expect_refused(dir, "exp.yaml", "of the alphabet is not valid UTF-8");
}

}  // namespace
}  // namespace kexp::test
