// `kexp diff`: two runs of one experiment (one thread against two) have the same results
// and exit 0, whatever their times; a changed error, a changed status or a missing run
// is printed and exits 1.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/plugins.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: regenerate
seed: 4
folds: 3
dataset: {plugin: cubic, n: [120, 240], d: 3}
kernels: [{plugin: polynomial, degree: 2}]
solvers: [{plugin: primal_ridge, lambda: 0.01}, {plugin: kernel_ridge, lambda: 0.01}]
)";

TEST(Diff, TwoRegenerationsHaveTheSameResultsWhateverTheirTimes) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(run_kexp("run exp.yaml --out a --quiet --threads 1", dir.path()).exit_code, 0);
  ASSERT_EQ(run_kexp("run exp.yaml --out b --quiet --threads 2", dir.path()).exit_code, 0);
  const CommandResult same = run_kexp("diff a b", dir.path());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_THAT(same.out, AllOf(HasSubstr("configurations: the same cells"),
                              HasSubstr("4 runs in both a and b"),
                              HasSubstr("results: the same in every run"),
                              HasSubstr("phases outside each other's measured range")));

  // A test error changed in the fifth significant digit, and a run removed.
  core::CsvTable t = core::read_csv(dir.path() / "b" / "results.csv");
  const std::size_t rmse = *t.column("test_rmse");
  t.rows[0][rmse] = std::to_string(std::stod(t.rows[0][rmse]) * 1.0001);
  const std::string removed = t.rows.back()[0];
  t.rows.pop_back();
  {
    std::ofstream out(dir.path() / "b" / "results.csv");
    out << core::csv_text(t);
  }
  const CommandResult differ = run_kexp("diff a b", dir.path());
  EXPECT_EQ(differ.exit_code, 1) << differ.out << differ.err;
  EXPECT_THAT(differ.out, AllOf(HasSubstr("results that differ (1)"), HasSubstr("test_rmse"),
                                HasSubstr("only in a (1)"), HasSubstr(removed)));
  // Within a looser tolerance the error matches; the missing run still counts.
  const CommandResult loose = run_kexp("diff a b --tolerance 1e-3", dir.path());
  EXPECT_EQ(loose.exit_code, 1);
  EXPECT_THAT(loose.out, ::testing::Not(HasSubstr("results that differ")));
}

TEST(Diff, TheConfigurationsDifferencesComeFirst) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(run_kexp("run exp.yaml --out a --quiet", dir.path()).exit_code, 0);
  ASSERT_EQ(run_kexp("run exp.yaml --out b --quiet --set solvers[1].lambda=0.1 --set "
                     "dataset.n=120",
                     dir.path())
                .exit_code,
            0);
  const CommandResult r = run_kexp("diff a b", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("configurations differ (2)"),
                           HasSubstr("dataset.n: [120, 240] in A, 120 in B"),
                           HasSubstr("solvers[1].lambda: 0.01 in A, 0.1 in B")));
  EXPECT_LT(r.out.find("configurations differ"), r.out.find("runs in both"));
}

TEST(Diff, AFolderThatIsNotAResultFolderIsAnError) {
  TempDir dir;
  const CommandResult r = run_kexp("diff nowhere elsewhere", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("nowhere"));
}

}  // namespace
}  // namespace kexp::test
