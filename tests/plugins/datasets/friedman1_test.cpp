// The friedman1 dataset: Friedman's (1991) formula, determinism and parameter bounds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/datasets/loading.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

double friedman1(const double* x) {
  const double pi = std::acos(-1.0);
  return 10 * std::sin(pi * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) + 10 * x[3] + 5 * x[4];
}

TEST(Friedman1, WithoutNoiseYIsFriedmansFunction) {
  const Data data = load_dataset("friedman1", {{"n", "60"}, {"noise", "0"}});
  ASSERT_EQ(data.X.n_rows, 10U);  // Friedman's d = 10 by default
  ASSERT_EQ(data.X.n_cols, 60U);
  EXPECT_EQ(data.task, Task::Regression);
  EXPECT_GE(data.X.min(), 0.0);
  EXPECT_LE(data.X.max(), 1.0);
  for (arma::uword i = 0; i < data.X.n_cols; ++i)
    EXPECT_NEAR(data.y[i], friedman1(data.X.colptr(i)), 1e-12);
  // a hand-checked point: x = (½, 1, ½, 0, 1): 10 sin(π/2) + 0 + 0 + 5 = 15
  const double x[] = {0.5, 1.0, 0.5, 0.0, 1.0};
  EXPECT_NEAR(friedman1(x), 15.0, 1e-14);
}

TEST(Friedman1, DefaultNoiseIsOne) {
  const Data data = load_dataset("friedman1", {{"n", "20000"}, {"d", "5"}}, {}, 9);
  double squares = 0;
  for (arma::uword i = 0; i < data.X.n_cols; ++i) {
    const double r = data.y[i] - friedman1(data.X.colptr(i));
    squares += r * r;
  }
  EXPECT_NEAR(std::sqrt(squares / 20000), 1.0, 0.02);
}

TEST(Friedman1, SameSeedSameDataOtherSeedOtherData) {
  const TextParams p = {{"n", "30"}, {"d", "6"}};
  const Data a = load_dataset("friedman1", p, {}, 1), b = load_dataset("friedman1", p, {}, 1);
  const Data c = load_dataset("friedman1", p, {}, 2);
  EXPECT_TRUE(arma::approx_equal(a.X, b.X, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(a.y, b.y, "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(a.X, c.X, "absdiff", 1e-3));
}

TEST(Friedman1, DimensionBelowFiveIsAConfigError) {
  EXPECT_THAT(config_error("friedman1", {{"d", "4"}}),
              HasSubstr("test.d must be in [5, 100000], got 4"));
  EXPECT_THAT(config_error("friedman1", {{"n", "1"}}), HasSubstr("test.n must be"));
}

}  // namespace
}  // namespace kexp::test
