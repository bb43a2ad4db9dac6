// The hyperparameters of the built-in kernels that can be learned: their names and
// values, a copy with other values that keeps every other parameter, and ∂K/∂ log θ
// against central differences. Kernels that cannot be learned say so.
#include <gtest/gtest.h>

#include <cmath>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(KernelGradients, NamesAndValuesOfTheHyperparameters) {
  const auto gaussian = make_kernel("gaussian", {{"sigma", "0.8"}});
  ASSERT_EQ(gaussian->hyperparameters().size(), 1U);
  EXPECT_EQ(gaussian->hyperparameters()[0].name, "sigma");
  EXPECT_EQ(gaussian->hyperparameters()[0].value, 0.8);
  EXPECT_EQ(make_kernel("polynomial", {{"degree", "3"}, {"c", "2"}})->hyperparameters()[0].name,
            "c");
  // c = 0 cannot be learned in log space: nothing to learn, still learnable.
  EXPECT_TRUE(make_kernel("polynomial", {{"c", "0"}})->hyperparameters().empty());
  EXPECT_TRUE(make_kernel("polynomial", {{"c", "0"}})->learnable());
  EXPECT_TRUE(make_kernel("linear")->hyperparameters().empty());
  EXPECT_TRUE(make_kernel("linear")->learnable());
  for (const char* name : {"sigmoid", "cubic", "mixture", "fisher"}) {
    EXPECT_FALSE(make_kernel(name)->learnable()) << name;
  }
}

TEST(KernelGradients, GaussianAndLaplacianAgainstDifferences) {
  const arma::mat X = uniform_points(3, 40, 5, -2.0, 2.0);
  for (const char* sigma : {"0.3", "1", "4"}) {
    expect_gradient_matches_differences(*make_kernel("gaussian", {{"sigma", sigma}}), X);
    expect_gradient_matches_differences(*make_kernel("laplacian", {{"sigma", sigma}}), X);
  }
}

TEST(KernelGradients, PolynomialAndConstantAgainstDifferences) {
  const arma::mat X = uniform_points(4, 30, 6);
  for (const char* degree : {"1", "2", "5"}) {
    expect_gradient_matches_differences(
        *make_kernel("polynomial", {{"degree", degree}, {"c", "0.7"}}), X);
  }
  expect_gradient_matches_differences(*make_kernel("constant", {{"c", "2.5"}}), X);
}

TEST(KernelGradients, GaussianByHand) {
  // x = 0, z = 1 in one dimension, σ = 2: k = exp(−1/8), ∂k/∂ log σ = k·‖x − z‖²/σ² = k/4.
  const auto k = make_kernel("gaussian", {{"sigma", "2"}});
  const arma::mat X = {{0.0, 1.0}};
  arma::cube dK;
  k->gram_gradient(X, dK);
  EXPECT_NEAR(dK(0, 1, 0), std::exp(-0.125) / 4.0, 1e-15);
  EXPECT_EQ(dK(0, 0, 0), 0.0);
}

TEST(KernelGradients, ACopyKeepsTheOtherParameters) {
  // The random Fourier map's size and seed survive a new σ: the copy's map is the one a
  // kernel written with that σ has.
  const auto k =
      make_kernel("gaussian", {{"sigma", "1"}, {"map", "rff"}, {"features", "64"}, {"seed", "9"}});
  const auto copy = k->with_hyperparameters(arma::vec{0.5});
  const auto written = make_kernel(
      "gaussian", {{"sigma", "0.5"}, {"map", "rff"}, {"features", "64"}, {"seed", "9"}});
  const arma::mat X = uniform_points(2, 10, 7);
  arma::mat a, b;
  copy->feature_map()->features(X, a);
  written->feature_map()->features(X, b);
  EXPECT_EQ(a.n_rows, 64U);
  EXPECT_TRUE(arma::approx_equal(a, b, "absdiff", 0.0));
  EXPECT_EQ(copy->hyperparameters()[0].value, 0.5);
}

TEST(KernelGradients, BadValuesAndKernelsWithoutGradientsAreRefused) {
  const auto k = make_kernel("gaussian");
  EXPECT_THROW((void)k->with_hyperparameters(arma::vec{-1.0}), InvalidArgument);
  EXPECT_THROW((void)k->with_hyperparameters(arma::vec{1.0, 2.0}), InvalidArgument);
  EXPECT_THROW((void)k->with_hyperparameters(arma::vec{arma::datum::nan}), InvalidArgument);
  arma::cube dK;
  EXPECT_THROW(make_kernel("sigmoid")->gram_gradient(arma::mat(2, 3, arma::fill::ones), dK),
               InvalidArgument);
}

}  // namespace
}  // namespace kexp::test
