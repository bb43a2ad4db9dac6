// The sine dataset: its formula, determinism and parameter bounds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/datasets/loading.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(Sine, WithoutNoiseYIsTheSineOfX) {
  const double two_pi = 2 * std::acos(-1.0);
  const Data one = load_dataset("sine", {{"n", "40"}, {"noise", "0"}, {"frequency", "2"}});
  ASSERT_EQ(one.X.n_rows, 1U);
  EXPECT_EQ(one.task, Task::Regression);
  EXPECT_GE(one.X.min(), 0.0);
  EXPECT_LE(one.X.max(), 1.0);
  for (arma::uword i = 0; i < one.X.n_cols; ++i)
    EXPECT_NEAR(one.y[i], std::sin(two_pi * 2 * one.X(0, i)), 1e-14);

  const Data three = load_dataset("sine", {{"n", "40"}, {"d", "3"}, {"noise", "0"}});
  ASSERT_EQ(three.X.n_rows, 3U);
  for (arma::uword i = 0; i < three.X.n_cols; ++i) {
    double sum = 0;
    for (arma::uword j = 0; j < 3; ++j) sum += std::sin(two_pi * three.X(j, i));
    EXPECT_NEAR(three.y[i], sum / std::sqrt(3.0), 1e-14);
  }
}

TEST(Sine, SameSeedSameDataOtherSeedOtherData) {
  const TextParams p = {{"n", "30"}};
  const Data a = load_dataset("sine", p, {}, 1), b = load_dataset("sine", p, {}, 1);
  const Data c = load_dataset("sine", p, {}, 2);
  EXPECT_TRUE(arma::approx_equal(a.X, b.X, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(a.y, b.y, "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(a.y, c.y, "absdiff", 1e-3));
}

TEST(Sine, ParametersOutOfRangeAreConfigErrors) {
  EXPECT_THAT(config_error("sine", {{"n", "0"}}), HasSubstr("test.n must be"));
  EXPECT_THAT(config_error("sine", {{"d", "0"}}), HasSubstr("test.d must be"));
  EXPECT_THAT(config_error("sine", {{"frequency", "0"}}), HasSubstr("test.frequency must be"));
}

}  // namespace
}  // namespace kexp::test
