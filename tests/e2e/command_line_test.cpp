// What the command line says when it is used wrongly: a command or an option that does not
// exist gets the nearest one, a numeric option that is not a number in its range says what
// it wants, and `kexp help COMMAND` shows a command's options. Each exits 2 and writes
// nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(CommandLine, AMisspeltCommandGetsTheNearestOne) {
  const CommandResult r = run_kexp("runn x.yaml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("'runn' is not a kexp command; did you mean 'run'?"),
                           HasSubstr("The commands: run, "), HasSubstr("kexp help COMMAND")));
  EXPECT_THAT(r.err, Not(HasSubstr("A subcommand is required")));
}

TEST(CommandLine, AMisspeltOptionGetsTheNearestOneOfItsCommand) {
  TempDir dir;
  const CommandResult r = run_kexp("run exp.yaml --thread 2", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("--thread is not an option of `kexp run`"),
                           HasSubstr("did you mean '--threads'?"), HasSubstr("kexp help run")));
  const CommandResult diff = run_kexp("diff a b --tolerence 1e-3", dir.path());
  EXPECT_EQ(diff.exit_code, 2);
  EXPECT_THAT(diff.err, HasSubstr("did you mean '--tolerance'?"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(CommandLine, ANumericOptionThatIsNotANumberInRangeSaysWhatItWants) {
  TempDir dir;
  dir.write("exp.yaml",
            "experiment: e\ndataset: {plugin: cubic}\nkernels: [{plugin: linear}]\n"
            "solvers: [{plugin: kernel_ridge}]\n");
  const CommandResult letters = run_kexp("run exp.yaml --threads abc", dir.path());
  EXPECT_EQ(letters.exit_code, 2);
  EXPECT_THAT(letters.err, AllOf(HasSubstr("kexp: error: --threads: 'abc' is not a whole number"),
                                 HasSubstr("the number of threads"), HasSubstr("from 0 to 4096")));
  // No 309-digit bound.
  EXPECT_LT(letters.err.size(), 300U) << letters.err;
  const CommandResult negative = run_kexp("run exp.yaml --threads -1", dir.path());
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_THAT(negative.err, HasSubstr("-1 is out of range"));
  const CommandResult seconds = run_kexp("run exp.yaml --timing-min-seconds fast", dir.path());
  EXPECT_EQ(seconds.exit_code, 2);
  EXPECT_THAT(seconds.err, HasSubstr("'fast' is not a number"));
  const CommandResult points = run_kexp("check-kernel linear --points 1e9", dir.path());
  EXPECT_EQ(points.exit_code, 2);
  EXPECT_THAT(points.err, HasSubstr("the number of points, a whole number from 1 to 20000"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "results"));
}

TEST(CommandLine, HelpShowsACommandsOptionsOrListsTheCommands) {
  const CommandResult run = run_kexp("help run");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, AllOf(HasSubstr("Run an experiment file"), HasSubstr("--resume"),
                             HasSubstr("--threads")));
  EXPECT_THAT(run.err, Not(HasSubstr("required")));
  const CommandResult all = run_kexp("help");
  EXPECT_EQ(all.exit_code, 0);
  EXPECT_THAT(all.out, AllOf(HasSubstr("run"), HasSubstr("check-kernel"), HasSubstr("diff")));
  const CommandResult wrong = run_kexp("help rnu");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("did you mean 'run'?"));
}

}  // namespace
}  // namespace kexp::test
