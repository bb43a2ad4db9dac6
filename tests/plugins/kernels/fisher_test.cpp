// fisher: the Fisher score of a diagonal Gaussian mixture against central differences of
// the log-likelihood, the score of one Gaussian by hand, the empirical-information map
// (its features whiten the training scores: (1/n) Σ φφᵀ = I), invariance of the kernel to
// rescaling the data's units, and the kernel in both forms.
#include <gtest/gtest.h>

#include <cmath>

#include "common/gaussian_mixture.hpp"
#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using kexp_kernels::DiagonalMixture;

arma::mat two_clusters(std::uint64_t seed, arma::uword n = 200) {
  arma::arma_rng::set_seed(seed);
  arma::mat X(3, n);
  for (arma::uword k = 0; k < n; ++k) {
    X.col(k) = (k % 2 == 0 ? arma::vec{-2.0, 0.0, 1.0} : arma::vec{2.0, 1.0, -1.0}) +
               arma::vec{0.5, 1.0, 0.3} % arma::randn<arma::vec>(3);
  }
  return X;
}

DiagonalMixture fitted(const arma::mat& X, arma::uword G) {
  kexp_kernels::MixtureFitOptions options;
  options.components = G;
  options.seed = 2;
  return kexp_kernels::fit_mixture(X, options).model;
}

/// The model with parameter `p` of the score's order moved by h.
DiagonalMixture moved(const DiagonalMixture& m, arma::uword p, double h) {
  DiagonalMixture out = m;
  const arma::uword G = m.components(), d = m.means.n_rows;
  if (p + 1 < G) {
    arma::vec logits = arma::log(m.weights / m.weights[G - 1]);
    logits[p] += h;
    out.weights = arma::exp(logits) / arma::accu(arma::exp(logits));
    return out;
  }
  const arma::uword q = p - (G - 1), i = q / (2 * d), r = q % (2 * d);
  if (r < d) {
    out.means(r, i) += h;
  } else {
    out.variances(r - d, i) += h;
  }
  return out;
}

TEST(FisherScore, MatchesCentralDifferencesOfTheLogLikelihood) {
  const arma::mat X = two_clusters(1);
  for (const arma::uword G : {1U, 2U, 3U}) {
    const DiagonalMixture m = fitted(X, G);
    const arma::mat points = X.cols(0, 4);
    const arma::mat S = kexp_kernels::fisher_scores(m, points);
    ASSERT_EQ(S.n_rows, G - 1 + 2 * G * 3);
    for (arma::uword p = 0; p < S.n_rows; ++p) {
      const double h = 1e-5;
      const arma::vec difference =
          (moved(m, p, h).log_likelihood(points) - moved(m, p, -h).log_likelihood(points)) /
          (2 * h);
      for (arma::uword k = 0; k < points.n_cols; ++k) {
        EXPECT_NEAR(S(p, k), difference[k], 1e-6 * std::max(1.0, std::abs(difference[k])))
            << "G = " << G << ", parameter " << p << ", point " << k;
      }
    }
  }
}

TEST(FisherScore, OneGaussianByHand) {
  DiagonalMixture m;
  m.weights = {1.0};
  m.means = arma::mat(arma::vec{1.0, -2.0});
  m.variances = arma::mat(arma::vec{4.0, 0.5});
  const arma::vec x = {3.0, -1.0};
  const arma::vec s = kexp_kernels::fisher_scores(m, x);
  // ∂μ = (x − μ)/v; ∂v = ((x − μ)²/v² − 1/v)/2
  const arma::vec expected = {2.0 / 4.0, 1.0 / 0.5, (4.0 / 16.0 - 1.0 / 4.0) / 2.0,
                              (1.0 / 0.25 - 1.0 / 0.5) / 2.0};
  EXPECT_LE(arma::abs(s - expected).max(), 1e-15);
}

TEST(FisherKernel, TheEmpiricalMapWhitensTheTrainingScores) {
  const arma::mat X = two_clusters(2, 400);
  const arma::vec y(X.n_cols, arma::fill::zeros);
  const auto k = make_kernel("fisher", {{"components", "2"}});
  k->fit(KernelFitData{&X, &y, 5});
  arma::mat Phi;
  k->feature_map()->features(X, Phi);
  ASSERT_EQ(Phi.n_rows, 13U);  // G − 1 + 2Gd = 1 + 12
  const arma::mat covariance = Phi * Phi.t() / static_cast<double>(X.n_cols);
  EXPECT_LE(arma::abs(covariance - arma::eye(13, 13)).max(), 1e-8);
  const core::KernelCheck r = check_on_random_points(*k, 3, 60);
  EXPECT_TRUE(r.valid());
}

TEST(FisherKernel, WithTheEmpiricalInformationIgnoresTheUnitsOfTheData) {
  // Rescaling the inputs reparametrises the model (μ → sμ, v → s²v); the Fisher kernel
  // with its own information does not change. With F = I it does.
  const arma::mat X = two_clusters(3);
  const arma::vec y(X.n_cols, arma::fill::zeros);
  const arma::mat X_scaled = 7.0 * X;
  const arma::mat Z = X.cols(0, 9), Z_scaled = 7.0 * Z;
  const auto kernel_on = [&](const char* information, const arma::mat& train,
                             const arma::mat& points) {
    const auto k = make_kernel("fisher", {{"components", "2"}, {"information", information}});
    k->fit(KernelFitData{&train, &y, 5});
    arma::mat K;
    k->gram(points, K);
    return K;
  };
  const arma::mat K = kernel_on("empirical", X, Z);
  EXPECT_LE(arma::abs(kernel_on("empirical", X_scaled, Z_scaled) - K).max(),
            1e-6 * arma::abs(K).max());
  const arma::mat I = kernel_on("identity", X, Z);
  EXPECT_GT(arma::abs(kernel_on("identity", X_scaled, Z_scaled) - I).max(),
            1e-2 * arma::abs(I).max());
}

}  // namespace
}  // namespace kexp::test
