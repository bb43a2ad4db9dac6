// The circles dataset: two circles that x₁² + x₂² separates, as scikit-learn's
// make_circles; determinism and parameter bounds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/datasets/loading.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(Circles, WithoutNoiseTheRadiusSeparatesTheClasses) {
  const Data data = load_dataset("circles", {{"n", "101"}, {"noise", "0"}, {"factor", "0.3"}});
  ASSERT_EQ(data.X.n_rows, 2U);
  ASSERT_EQ(data.X.n_cols, 101U);
  EXPECT_EQ(data.task, Task::Classification);
  int outer = 0, inner = 0;
  for (arma::uword i = 0; i < data.X.n_cols; ++i) {
    const double r2 = data.X(0, i) * data.X(0, i) + data.X(1, i) * data.X(1, i);
    if (data.y[i] < 0) {
      EXPECT_EQ(data.y[i], -1.0);
      EXPECT_NEAR(r2, 1.0, 1e-12);
      ++outer;
    } else {
      EXPECT_EQ(data.y[i], 1.0);
      EXPECT_NEAR(r2, 0.09, 1e-12);
      ++inner;
    }
  }
  // n_out = ⌊n/2⌋, n_in = n − n_out, as make_circles
  EXPECT_EQ(outer, 50);
  EXPECT_EQ(inner, 51);
}

TEST(Circles, TheLiftedFeatureSeparatesThemLinearlyAndNoLineInThePlaneDoes) {
  // φ(x) = [x₁, x₂, x₁² + x₂²]: the plane φ₃ = (1 + factor²)/2 separates the classes
  // with a margin while the noise is small.
  const Data data = load_dataset("circles", {{"n", "400"}, {"noise", "0.05"}, {"factor", "0.5"}});
  const arma::rowvec r2 = arma::sum(arma::square(data.X), 0);
  int wrong = 0;
  for (arma::uword i = 0; i < data.X.n_cols; ++i) {
    const double score = (1.0 + 0.25) / 2 - r2[i];  // > 0 inside
    if ((score > 0) != (data.y[i] > 0)) ++wrong;
  }
  EXPECT_EQ(wrong, 0);
  // In the plane, both classes surround the origin: their means are near it, so no line
  // through the data separates them.
  const arma::vec mean_inner = arma::mean(data.X.cols(arma::find(data.y > 0)), 1);
  const arma::vec mean_outer = arma::mean(data.X.cols(arma::find(data.y < 0)), 1);
  EXPECT_LT(arma::norm(mean_inner), 0.05);
  EXPECT_LT(arma::norm(mean_outer), 0.05);
}

TEST(Circles, SamplesAreShuffled) {
  const Data data = load_dataset("circles", {{"n", "100"}});
  EXPECT_LT(arma::accu(data.y.head(50)), 40.0);  // not all −1 first
  EXPECT_GT(arma::accu(data.y.head(50)), -40.0);
}

TEST(Circles, SameSeedSameDataOtherSeedOtherData) {
  const TextParams p = {{"n", "40"}, {"noise", "0.1"}};
  const Data a = load_dataset("circles", p, {}, 5), b = load_dataset("circles", p, {}, 5);
  const Data c = load_dataset("circles", p, {}, 6);
  EXPECT_TRUE(arma::approx_equal(a.X, b.X, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(a.y, b.y, "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(a.X, c.X, "absdiff", 1e-3));
}

TEST(Circles, ParametersOutOfRangeAreConfigErrors) {
  EXPECT_THAT(config_error("circles", {{"n", "1"}}), HasSubstr("test.n must be"));
  EXPECT_THAT(config_error("circles", {{"factor", "1"}}),
              HasSubstr("test.factor must be in (0, 1), got 1"));
  EXPECT_THAT(config_error("circles", {{"factor", "0"}}), HasSubstr("test.factor must be"));
  EXPECT_THAT(config_error("circles", {{"noise", "-0.1"}}), HasSubstr("test.noise must be ≥ 0"));
}

}  // namespace
}  // namespace kexp::test
