// kexp check-kernel: the report and its exit codes (0 valid, 1 not valid, 2 bad input).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CheckKernelCommand, ValidKernelExitsZeroWithItsReport) {
  const CommandResult r = run_kexp("check-kernel gaussian --set sigma=0.5 --points 100 --dim 3");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("symmetry error"));
  EXPECT_THAT(r.out, HasSubstr("λmin / λmax"));
  EXPECT_THAT(r.out, HasSubstr("PSD             yes: λmin / λmax = "));
  EXPECT_THAT(r.out, HasSubstr(" is at or above −"));
  EXPECT_THAT(r.out, HasSubstr("tolerance"));
  EXPECT_THAT(r.out, HasSubstr("feature map     none"));
  EXPECT_THAT(r.out, HasSubstr("verdict: valid"));
}

TEST(CheckKernelCommand, TakesTheThreadsAndGivesTheSameReportOnEach) {
  const CommandResult one =
      run_kexp("check-kernel gaussian --set sigma=0.5 --points 300 --dim 3 --threads 1");
  const CommandResult two =
      run_kexp("check-kernel gaussian --set sigma=0.5 --points 300 --dim 3 --threads 2");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(two.exit_code, 0) << two.err;
  EXPECT_THAT(one.out, HasSubstr("verdict: valid"));
  EXPECT_THAT(two.out, HasSubstr("verdict: valid"));
  const CommandResult bad = run_kexp("check-kernel gaussian --threads abc");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--threads"));
}

TEST(CheckKernelCommand, ReportsTheErrorOfAnExactMap) {
  const CommandResult r = run_kexp("check-kernel polynomial --set degree=3 --set c=1 --points 50");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("feature map     exact, D = 56"));  // C(8, 5)
  EXPECT_THAT(r.out, HasSubstr("agrees"));
}

TEST(CheckKernelCommand, ReportsAnApproximateMap) {
  const CommandResult r =
      run_kexp("check-kernel gaussian --set map=rff --set features=500 --points 40 --dim 2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("feature map     approximate, D = 500"));
}

TEST(CheckKernelCommand, SigmoidThatIsNotPsdExitsOne) {
  const CommandResult r = run_kexp("check-kernel sigmoid --set a=1 --set b=-1 --seed 3");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("PSD             NO: λmin / λmax = -"));
  EXPECT_THAT(r.out, HasSubstr(" is below −"));  // the test that failed, stated as failing
  EXPECT_THAT(r.out, HasSubstr("verdict: NOT valid"));
  EXPECT_THAT(r.out, HasSubstr("declared PSD: no"));
}

TEST(CheckKernelCommand, ChecksEveryKernelVariantOfAConfig) {
  TempDir dir;
  dir.write("kernels.yaml",
            "experiment: kernels\n"
            "dataset: {plugin: cubic, n: 80, d: 2}\n"
            "kernels:\n"
            "  - sum:\n"
            "      - {plugin: gaussian, sigma: [0.5, 1.0], scale: 2.0}\n"
            "      - {plugin: linear}\n"
            "  - product:\n"
            "      - {plugin: polynomial, degree: 2}\n"
            "      - {plugin: constant, c: 3}\n"
            "    scale: 0.5\n"
            "solvers:\n"
            "  - plugin: kernel_ridge\n");
  const CommandResult r = run_kexp("check-kernel --config kernels.yaml --points 60", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Two variants of the sum (σ swept) and the product, each with its report.
  EXPECT_EQ(count(r.out, "verdict: valid"), 3U) << r.out;
  // each named by its parameters that are not at their default (σ = 1 is gaussian's)
  EXPECT_THAT(r.out, HasSubstr("sum(gaussian,linear)(sum[0].sigma=0.5,sum[0].scale=2)"));
  EXPECT_THAT(r.out, HasSubstr("sum(gaussian,linear)(sum[0].scale=2)"));
  EXPECT_THAT(r.out, HasSubstr("declared PSD: yes"));
  // (xᵀz + 1)² · 3 · 0.5 in d = 5 has an exact map, D = C(7, 5) · 1 = 21.
  EXPECT_THAT(r.out, HasSubstr("feature map     exact, D = 21"));
  EXPECT_THAT(r.out, HasSubstr("agrees"));

  // --set overrides the file; one variant that is not PSD makes the exit code 1.
  dir.write("sigmoid.yaml",
            "experiment: sigmoid\n"
            "dataset: {plugin: cubic, n: 80, d: 2}\n"
            "kernels:\n"
            "  - {plugin: sigmoid, a: 1, b: 1}\n"
            "solvers:\n"
            "  - plugin: nadaraya_watson\n");
  const CommandResult sweep =
      run_kexp("check-kernel --config sigmoid.yaml --set kernels[0].b=-1,1 --seed 3", dir.path());
  EXPECT_EQ(sweep.exit_code, 1) << sweep.out << sweep.err;
  EXPECT_EQ(count(sweep.out, "\nkernel sigmoid("), 1U) << sweep.out;  // the second block
  EXPECT_THAT(sweep.out, HasSubstr("b=-1"));
  EXPECT_THAT(sweep.out, HasSubstr("verdict: NOT valid"));
}

TEST(CheckKernelCommand, BadInputExitsTwo) {
  const CommandResult unknown = run_kexp("check-kernel gausian");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("did you mean 'gaussian'?"));

  const CommandResult sigma = run_kexp("check-kernel gaussian --set sigma=-1");
  EXPECT_EQ(sigma.exit_code, 2);
  EXPECT_THAT(sigma.err, HasSubstr("sigma must be > 0, got -1"));

  const CommandResult degree = run_kexp("check-kernel polynomial --set degree=2.5");
  EXPECT_EQ(degree.exit_code, 2);
  EXPECT_THAT(degree.err, HasSubstr("degree must be an integer, got '2.5'"));

  const CommandResult name = run_kexp("check-kernel gaussian --set sigam=1");
  EXPECT_EQ(name.exit_code, 2);
  EXPECT_THAT(name.err, HasSubstr("did you mean 'sigma'?"));

  EXPECT_EQ(run_kexp("check-kernel gaussian --points 0").exit_code, 2);
  EXPECT_EQ(run_kexp("check-kernel gaussian --set sigma").exit_code, 2);
  EXPECT_EQ(run_kexp("check-kernel").exit_code, 2);  // neither a name nor --config
  EXPECT_EQ(run_kexp("check-kernel gaussian --config x.yaml").exit_code, 2);  // both
  EXPECT_EQ(run_kexp("check-kernel --config no-such-file.yaml").exit_code, 2);
}

}  // namespace
}  // namespace kexp::test
