// kexp check-kernel: the report and its exit codes (0 valid, 1 not valid, 2 bad input).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(CheckKernelCommand, ValidKernelExitsZeroWithItsReport) {
  const CommandResult r = run_kexp("check-kernel gaussian --set sigma=0.5 --points 100 --dim 3");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("symmetry error"));
  EXPECT_THAT(r.out, HasSubstr("λmin / λmax"));
  EXPECT_THAT(r.out, HasSubstr("PSD             yes"));
  EXPECT_THAT(r.out, HasSubstr("tolerance"));
  EXPECT_THAT(r.out, HasSubstr("feature map     none"));
  EXPECT_THAT(r.out, HasSubstr("verdict: valid"));
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
  EXPECT_THAT(r.out, HasSubstr("PSD             NO"));
  EXPECT_THAT(r.out, HasSubstr("verdict: NOT valid"));
  EXPECT_THAT(r.out, HasSubstr("declared PSD: no"));
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
}

}  // namespace
}  // namespace kexp::test
