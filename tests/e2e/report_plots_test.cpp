// Which plots a report draws, through the kexp program: by default those the summary's
// findings rest on, every plot with `output.plots: all` or `kexp report --plots all`,
// and a rebuild with fewer plots removes the ones it no longer draws.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "support/plugins.hpp"
#include "util/files.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

namespace fs = std::filesystem;

// A primal-dual pair on the polynomial kernel, and the Gaussian kernel in the dual form
// alone: its cost plot is a detail beside the pair's.
constexpr const char* kConfig = R"(experiment: plots
seed: 5
dataset: {plugin: cubic, n: [60, 120, 240], d: 2}
kernels: [{plugin: polynomial, degree: 2}, {plugin: gaussian, sigma: 1}]
solvers:
  - {plugin: primal_ridge, lambda: 0.01}
  - {plugin: kernel_ridge, lambda: 0.01}
)";

class ReportPlots : public ::testing::Test {
 protected:
  // gnuplot is `true`: every script is written, none drawn, so the test needs no gnuplot.
  void SetUp() override { ::setenv("KEXP_GNUPLOT", "true", 1); }
  void TearDown() override { ::unsetenv("KEXP_GNUPLOT"); }
};

TEST_F(ReportPlots, TheFindingsPlotsByDefaultEveryPlotWhenAsked) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  const CommandResult r =
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path plots = dir.path() / "out" / "plots";
  EXPECT_TRUE(fs::exists(plots / "cost_vs_n_polynomial.gp"));
  EXPECT_FALSE(fs::exists(plots / "cost_vs_n_gaussian.gp"));
  const std::string summary = core::read_text_file(dir.path() / "out" / "summary.md");
  EXPECT_THAT(summary,
              HasSubstr("1 more (the cost of one form alone, beside a primal-dual pair's: 1)"));
  EXPECT_THAT(summary, HasSubstr("`kexp report --plots all`"));

  const CommandResult all = run_kexp("report out --plots all", dir.path());
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_TRUE(fs::exists(plots / "cost_vs_n_gaussian.gp"));
  // Back to the findings' plots: the detail drawn before is removed.
  ASSERT_EQ(run_kexp("report out", dir.path()).exit_code, 0);
  EXPECT_FALSE(fs::exists(plots / "cost_vs_n_gaussian.gp"));
  EXPECT_TRUE(fs::exists(plots / "cost_vs_n_polynomial.gp"));

  const CommandResult bad = run_kexp("report out --plots some", dir.path());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("--plots"));
}

TEST_F(ReportPlots, AnExperimentAsksForEveryPlot) {
  TempDir dir;
  dir.write("exp.yaml", std::string(kConfig) + "output: {plots: all}\n");
  ASSERT_EQ(
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path()).exit_code,
      0);
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "plots" / "cost_vs_n_gaussian.gp"));
  // The resolved config keeps the choice, so a rebuild draws the same plots.
  EXPECT_THAT(core::read_text_file(dir.path() / "out" / "config.yaml"), HasSubstr("plots: all"));
  ASSERT_EQ(run_kexp("report out", dir.path()).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "plots" / "cost_vs_n_gaussian.gp"));
}

}  // namespace
}  // namespace kexp::test
