// gaussian: k = exp(−‖x − z‖² / (2σ²)), its approximate maps (truncated Taylor, random
// Fourier features) and its input checks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

double max_map_error(const Kernel& k, const arma::mat& X) {
  arma::mat K, Phi;
  k.gram(X, K);
  k.feature_map()->features(X, Phi);
  return arma::abs(Phi.t() * Phi - K).max();
}

TEST(GaussianKernel, HandComputedValues) {
  const auto k = make_kernel("gaussian", {{"sigma", "2"}});
  // ‖(1, 1)‖² = 2: exp(−2 / 8)
  EXPECT_NEAR(k->evaluate(arma::vec{0, 0}, arma::vec{1, 1}), std::exp(-0.25), 1e-16);
  // ‖(3, 4)‖² = 25, σ = 0.5: exp(−25 / 0.5) = exp(−50)
  EXPECT_NEAR(
      make_kernel("gaussian", {{"sigma", "0.5"}})->evaluate(arma::vec{1, 1}, arma::vec{4, 5}),
      std::exp(-50.0), 1e-30);
}

TEST(GaussianKernel, BlockedGramEqualsPairwise) {
  for (const char* sigma : {"0.3", "1", "5"}) {
    expect_blocked_gram_matches_naive(*make_kernel("gaussian", {{"sigma", sigma}}), 10, 1e-12);
  }
}

TEST(GaussianKernel, IsPsdOnRandomPoints) {
  for (const char* sigma : {"0.2", "1", "3"}) {
    const core::KernelCheck c =
        check_on_random_points(*make_kernel("gaussian", {{"sigma", sigma}}));
    EXPECT_TRUE(c.valid()) << "sigma " << sigma << ": λmin/λmax " << c.eigen_min_relative;
  }
}

TEST(GaussianKernel, WithoutAMapHasNone) {
  EXPECT_EQ(make_kernel("gaussian")->feature_map(), nullptr);
  EXPECT_NE(make_kernel("gaussian", {{"map", "taylor"}})->feature_map(), nullptr);
  EXPECT_NE(make_kernel("gaussian", {{"map", "rff"}})->feature_map(), nullptr);
  EXPECT_THROW(make_kernel("gaussian", {{"map", "fourier"}}), ConfigError);
}

TEST(GaussianKernel, TaylorMapHasTheDimensionOfItsMonomials) {
  const auto k = make_kernel("gaussian", {{"map", "taylor"}, {"order", "3"}});
  EXPECT_FALSE(k->feature_map()->exact());
  EXPECT_EQ(k->feature_map()->dimension(4), 35U);  // C(7, 4)
  EXPECT_EQ(
      make_kernel("gaussian", {{"map", "taylor"}, {"order", "0"}})->feature_map()->dimension(4),
      1U);
  const auto huge = make_kernel("gaussian", {{"map", "taylor"}, {"order", "12"}});
  try {
    (void)huge->feature_map()->dimension(100);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("D = "));
    EXPECT_THAT(e.what(), HasSubstr("order m = 12"));
  }
}

TEST(GaussianKernel, TaylorErrorFallsAsTheOrderGrows) {
  const arma::mat X = uniform_points(3, 40, 5);
  std::vector<double> errors;
  for (int m = 0; m <= 10; m += 2) {
    const auto k =
        make_kernel("gaussian", {{"sigma", "1"}, {"map", "taylor"}, {"order", std::to_string(m)}});
    errors.push_back(max_map_error(*k, X));
  }
  // the remainder of exp(t) after t^m/m! is about t^(m+1)/(m+1)!: it shrinks ever faster
  for (std::size_t i = 1; i < errors.size(); ++i) {
    EXPECT_LT(errors[i], errors[i - 1]) << "order " << 2 * i;
  }
  for (std::size_t i = 3; i < errors.size(); ++i) {
    EXPECT_LT(errors[i], 0.1 * errors[i - 1]) << "order " << 2 * i;
  }
  EXPECT_GT(errors.front(), 0.1);
  EXPECT_LT(errors.back(), 1e-5);
}

TEST(GaussianKernel, TaylorMapMatchesItsSeriesByHand) {
  // d = 1, σ = 1, order 2: φ(x) = e^{−x²/2}·(1, x, x²/√2)
  const auto k = make_kernel("gaussian", {{"sigma", "1"}, {"map", "taylor"}, {"order", "2"}});
  arma::mat Phi;
  k->feature_map()->features(arma::mat(1, 1, arma::fill::value(0.5)), Phi);
  const double damp = std::exp(-0.125);
  const arma::vec expected = {damp, damp * 0.5, damp * 0.25 / std::sqrt(2.0)};
  EXPECT_TRUE(arma::approx_equal(Phi.col(0), expected, "absdiff", 1e-15));
}

TEST(GaussianKernel, RandomFeatureErrorFallsAsTheirNumberGrows) {
  const arma::mat X = uniform_points(3, 30, 6);
  std::vector<double> errors;
  for (const char* D : {"10", "100", "1000", "10000"}) {
    double mean = 0;
    for (const char* seed : {"1", "2", "3"}) {
      const auto k = make_kernel("gaussian",
                                 {{"sigma", "1"}, {"map", "rff"}, {"features", D}, {"seed", seed}});
      EXPECT_EQ(k->feature_map()->dimension(3), std::stoul(D));
      mean += max_map_error(*k, X) / 3.0;
    }
    errors.push_back(mean);
  }
  // ~1/√D: each tenfold increase in D divides the error by about √10 ≈ 3.2
  for (std::size_t i = 1; i < errors.size(); ++i) {
    EXPECT_LT(errors[i], 0.6 * errors[i - 1]) << "step " << i;
  }
  EXPECT_LT(errors.back(), 0.1);
}

TEST(GaussianKernel, RandomFeaturesAreReproducibleFromTheirSeed) {
  const arma::mat X = uniform_points(3, 5, 7);
  arma::mat A, B, C;
  make_kernel("gaussian", {{"map", "rff"}, {"seed", "4"}})->feature_map()->features(X, A);
  make_kernel("gaussian", {{"map", "rff"}, {"seed", "4"}})->feature_map()->features(X, B);
  make_kernel("gaussian", {{"map", "rff"}, {"seed", "5"}})->feature_map()->features(X, C);
  EXPECT_TRUE(arma::approx_equal(A, B, "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(A, C, "absdiff", 1e-3));
}

TEST(GaussianKernel, RandomFeaturesAreCosinesOfAnAffineFunction) {
  // In d = 1, φ_i(t) = c·cos(w_i t + b_i), c = √(2/D). Then
  //   φ(t) + φ(−t) = 2 cos(w t) φ(0),
  // so u(t) = (φ(t) + φ(−t)) / (2φ(0)) is cos(w t), which must satisfy the double-angle
  // identity u(2t) = 2u(t)² − 1, feature by feature, to rounding. Over many features and
  // arguments this checks every value the vectorized cosine returns.
  const std::string D = "1024";
  const arma::rowvec t = {0.3, 1.7, 4.0};
  arma::mat X(1, 1 + 4 * t.n_elem, arma::fill::zeros);
  for (arma::uword k = 0; k < t.n_elem; ++k) {
    X(0, 1 + 4 * k) = t[k];
    X(0, 2 + 4 * k) = -t[k];
    X(0, 3 + 4 * k) = 2 * t[k];
    X(0, 4 + 4 * k) = -2 * t[k];
  }
  arma::mat Phi;
  make_kernel("gaussian", {{"sigma", "0.5"}, {"map", "rff"}, {"features", D}, {"seed", "9"}})
      ->feature_map()
      ->features(X, Phi);
  ASSERT_EQ(Phi.n_rows, 1024U);
  const double c = std::sqrt(2.0 / 1024.0);
  int checked = 0;
  for (arma::uword i = 0; i < Phi.n_rows; ++i) {
    const double at_zero = Phi(i, 0);
    EXPECT_LE(std::abs(at_zero), c * (1 + 1e-15));
    if (std::abs(at_zero) < 0.1 * c) continue;  // cos b_i near 0: u(t) is ill-conditioned
    for (arma::uword k = 0; k < t.n_elem; ++k) {
      const double u = (Phi(i, 1 + 4 * k) + Phi(i, 2 + 4 * k)) / (2 * at_zero);
      const double u2 = (Phi(i, 3 + 4 * k) + Phi(i, 4 + 4 * k)) / (2 * at_zero);
      EXPECT_NEAR(u2, 2 * u * u - 1, 1e-12) << "feature " << i << ", t = " << t[k];
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000);
}

TEST(GaussianKernel, RejectsANonPositiveSigma) {
  for (const char* sigma : {"0", "-1", "nan", "abc"}) {
    EXPECT_THROW(make_kernel("gaussian", {{"sigma", sigma}}), ConfigError) << sigma;
  }
  try {
    make_kernel("gaussian", {{"sigma", "-1"}});
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("must be > 0, got -1"));
  }
}

TEST(GaussianKernel, RejectsNonFinitePointsAndMismatchedDimensions) {
  const auto k = make_kernel("gaussian");
  arma::mat X = uniform_points(3, 4, 1);
  const arma::mat Z = uniform_points(3, 5, 2);
  X(1, 2) = std::numeric_limits<double>::quiet_NaN();
  arma::mat K;
  try {
    k->gram(X, Z, K);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("X has a non-finite value (nan) at feature 1 of sample 2"));
  }
  EXPECT_THROW(k->gram(X, K), InvalidArgument);
  try {
    k->gram(uniform_points(3, 4, 1), uniform_points(2, 4, 1), K);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("points of different dimension"));
  }
  EXPECT_THROW((void)k->evaluate(arma::vec{1, 2}, arma::vec{1, 2, 3}), InvalidArgument);
}

}  // namespace
}  // namespace kexp::test
