// The cubic dataset: its formula, determinism, and the bounds of its parameters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/datasets/loading.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(Cubic, WithoutNoiseYIsTheCubicOfX) {
  for (const char* d : {"1", "4"}) {
    const Data data = load_dataset("cubic", {{"n", "50"}, {"d", d}, {"noise", "0"}});
    ASSERT_EQ(data.X.n_rows, static_cast<arma::uword>(std::stoi(d)));
    ASSERT_EQ(data.X.n_cols, 50U);
    ASSERT_EQ(data.y.n_elem, 50U);
    EXPECT_EQ(data.task, Task::Regression);
    EXPECT_FALSE(data.has_test);
    EXPECT_GE(data.X.min(), -1.0);
    EXPECT_LE(data.X.max(), 1.0);
    const double dim = static_cast<double>(data.X.n_rows);
    for (arma::uword i = 0; i < data.X.n_cols; ++i) {
      const double u = arma::accu(data.X.col(i)) / std::sqrt(dim);
      const double f = u * u * u - u / 2 + arma::accu(arma::square(data.X.col(i))) / (2 * dim);
      EXPECT_NEAR(data.y[i], f, 1e-12);
    }
  }
  // in 1-D: f(x) = x³ + x²/2 − x/2
  const Data one = load_dataset("cubic", {{"n", "5"}, {"noise", "0"}});
  const double x = one.X(0, 0);
  EXPECT_NEAR(one.y[0], x * x * x + x * x / 2 - x / 2, 1e-14);
}

TEST(Cubic, NoiseHasTheRequestedSpread) {
  const TextParams p = {{"n", "20000"}, {"d", "2"}, {"noise", "0.5"}};
  const Data noisy = load_dataset("cubic", p, {}, 3);
  double sum = 0, squares = 0;
  for (arma::uword i = 0; i < noisy.X.n_cols; ++i) {
    const double u = arma::accu(noisy.X.col(i)) / std::sqrt(2.0);
    const double r =
        noisy.y[i] - (u * u * u - u / 2 + arma::accu(arma::square(noisy.X.col(i))) / 4);
    sum += r;
    squares += r * r;
  }
  const double n = 20000;
  EXPECT_NEAR(sum / n, 0.0, 0.02);
  EXPECT_NEAR(std::sqrt(squares / n), 0.5, 0.01);
}

TEST(Cubic, SameSeedSameDataOtherSeedOtherData) {
  const TextParams p = {{"n", "30"}, {"d", "3"}};
  const Data a = load_dataset("cubic", p, {}, 11), b = load_dataset("cubic", p, {}, 11);
  const Data c = load_dataset("cubic", p, {}, 12);
  EXPECT_TRUE(arma::approx_equal(a.X, b.X, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(a.y, b.y, "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(a.X, c.X, "absdiff", 1e-3));
}

TEST(Cubic, ParametersOutOfRangeAreConfigErrors) {
  EXPECT_THAT(config_error("cubic", {{"n", "1"}}),
              HasSubstr("test.n must be in [2, 100000000], got 1"));
  EXPECT_THAT(config_error("cubic", {{"d", "0"}}),
              HasSubstr("test.d must be in [1, 100000], got 0"));
  EXPECT_THAT(config_error("cubic", {{"n", "2.5"}}), HasSubstr("test.n must be an integer"));
  EXPECT_THAT(config_error("cubic", {{"noise", "-1"}}), HasSubstr("test.noise must be ≥ 0"));
  EXPECT_THAT(config_error("cubic", {{"test_fraction", "0"}}),
              HasSubstr("test.test_fraction must be in (0, 1), got 0"));
  EXPECT_THAT(config_error("cubic", {{"test_fraction", "1.5"}}),
              HasSubstr("test.test_fraction must be in (0, 1), got 1.5"));
}

}  // namespace
}  // namespace kexp::test
