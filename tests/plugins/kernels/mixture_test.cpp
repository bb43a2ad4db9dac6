// mixture: EM on a diagonal Gaussian mixture (the log-likelihood never decreases, the
// clusters are found, the fit is the same from the same seed), the kernel against its
// formula Σᵢ p(x|i) p(z|i) p(i) with densities computed by hand, its map, the product
// kernel of one component, and the fit's errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "common/gaussian_mixture.hpp"
#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

/// Three clusters in 2 dimensions around (−4, 0), (0, 3) and (4, 0), 60 points each.
arma::mat three_clusters(std::uint64_t seed) {
  arma::arma_rng::set_seed(seed);
  const arma::mat centres = {{-4.0, 0.0, 4.0}, {0.0, 3.0, 0.0}};
  arma::mat X(2, 180);
  for (arma::uword k = 0; k < 180; ++k) {
    X.col(k) = centres.col(k % 3) + 0.5 * arma::randn<arma::vec>(2);
  }
  return X;
}

/// N(x; μ, diag v), term by term.
double density(const arma::vec& x, const arma::vec& mu, const arma::vec& v) {
  double p = 1.0;
  for (arma::uword j = 0; j < x.n_elem; ++j) {
    p *= std::exp(-0.5 * (x[j] - mu[j]) * (x[j] - mu[j]) / v[j]) /
         std::sqrt(2.0 * arma::datum::pi * v[j]);
  }
  return p;
}

TEST(GaussianMixture, EmNeverLowersTheLikelihoodAndFindsTheClusters) {
  const arma::mat X = three_clusters(3);
  kexp_kernels::MixtureFitOptions options;
  options.components = 3;
  options.seed = 11;
  const kexp_kernels::MixtureFit fit = kexp_kernels::fit_mixture(X, options);
  ASSERT_GE(fit.log_likelihood.size(), 2U);
  for (std::size_t i = 1; i < fit.log_likelihood.size(); ++i) {
    EXPECT_GE(fit.log_likelihood[i], fit.log_likelihood[i - 1] - 1e-12) << "iteration " << i;
  }
  EXPECT_TRUE(fit.converged);
  // each true centre has a fitted mean within 0.25, weights near 1/3
  const arma::mat centres = {{-4.0, 0.0, 4.0}, {0.0, 3.0, 0.0}};
  for (arma::uword c = 0; c < 3; ++c) {
    double nearest = 1e9;
    for (arma::uword i = 0; i < 3; ++i) {
      nearest = std::min(nearest, arma::norm(fit.model.means.col(i) - centres.col(c)));
    }
    EXPECT_LT(nearest, 0.25) << "centre " << c;
  }
  EXPECT_LT(arma::abs(fit.model.weights - 1.0 / 3).max(), 0.02);
  EXPECT_NEAR(arma::accu(fit.model.weights), 1.0, 1e-14);
  // the mean log-likelihood the fit reports is the model's
  EXPECT_NEAR(fit.log_likelihood.back(), arma::mean(fit.model.log_likelihood(X)), 1e-12);

  const kexp_kernels::MixtureFit again = kexp_kernels::fit_mixture(X, options);
  EXPECT_TRUE(arma::approx_equal(again.model.means, fit.model.means, "absdiff", 0.0))
      << "deterministic from the seed";
}

TEST(GaussianMixture, OneComponentIsTheMaximumLikelihoodGaussian) {
  const arma::mat X = three_clusters(4);
  kexp_kernels::MixtureFitOptions options;
  const kexp_kernels::MixtureFit fit = kexp_kernels::fit_mixture(X, options);
  EXPECT_LE(arma::abs(fit.model.means.col(0) - arma::mean(X, 1)).max(), 1e-12);
  EXPECT_LE(arma::abs(fit.model.variances.col(0) - arma::var(X, 1, 1)).max(), 1e-12)
      << "variances divided by n";
}

TEST(MixtureKernel, EqualsItsFormulaWithTheFittedModel) {
  const arma::mat X = three_clusters(5);
  const arma::vec y(X.n_cols, arma::fill::zeros);
  const auto k = make_kernel("mixture", {{"components", "3"}});
  k->fit(KernelFitData{&X, &y, 21});
  kexp_kernels::MixtureFitOptions options;
  options.components = 3;
  options.iterations = 200;
  options.seed = 21;
  const kexp_kernels::DiagonalMixture m = kexp_kernels::fit_mixture(X, options).model;
  const arma::mat Z = X.cols(0, 9) + 0.3;
  arma::mat K;
  k->gram(X.cols(20, 29), Z, K);
  for (arma::uword a = 0; a < 10; ++a) {
    for (arma::uword b = 0; b < 10; ++b) {
      const arma::vec x = X.col(20 + a), z = Z.col(b);
      double expected = 0;
      for (arma::uword i = 0; i < 3; ++i) {
        expected += density(x, m.means.col(i), m.variances.col(i)) *
                    density(z, m.means.col(i), m.variances.col(i)) * m.weights[i];
      }
      EXPECT_NEAR(K(a, b), expected, 1e-12 * std::max(expected, 1e-300) + 1e-300) << a << ", " << b;
      EXPECT_NEAR(k->evaluate(x, z), expected, 1e-12 * expected + 1e-300);
    }
  }
  const core::KernelCheck r = check_on_random_points(*k, 2, 50);
  EXPECT_TRUE(r.valid());
  EXPECT_EQ(r.feature_dim, 3U);
}

TEST(MixtureKernel, OneComponentIsTheProductKernelAndNormalizeGivesUnitDiagonal) {
  const arma::mat X = three_clusters(6);
  const arma::vec y(X.n_cols, arma::fill::zeros);
  const auto k = make_kernel("mixture", {{"components", "1"}});
  k->fit(KernelFitData{&X, &y, 1});
  const arma::vec mu = arma::mean(X, 1), v = arma::var(X, 1, 1);
  const arma::vec x = X.col(3), z = X.col(7);
  EXPECT_NEAR(k->evaluate(x, z), density(x, mu, v) * density(z, mu, v), 1e-14);

  const auto unit = make_kernel("mixture", {{"components", "3"}, {"normalize", "true"}});
  unit->fit(KernelFitData{&X, &y, 1});
  EXPECT_LE(arma::abs(unit->diagonal(X) - 1.0).max(), 1e-12);
  // far from every component the densities underflow; the normalised map does not
  const arma::vec far = {40.0, -40.0};
  EXPECT_NEAR(unit->evaluate(far, far), 1.0, 1e-12);
}

TEST(MixtureKernel, NeedsAFitAndAsManySamplesAsComponents) {
  const auto k = make_kernel("mixture", {{"components", "5"}});
  const arma::vec x = {1.0, 2.0};
  EXPECT_THROW((void)k->evaluate(x, x), InvalidArgument);
  const arma::mat X = arma::randu<arma::mat>(2, 4);
  const arma::vec y(4, arma::fill::zeros);
  try {
    k->fit(KernelFitData{&X, &y, 1});
    FAIL() << "4 samples for 5 components";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("lower `components`"));
  }
  const arma::vec wrong(3, arma::fill::zeros);
  EXPECT_THROW(k->fit(KernelFitData{&X, &wrong, 1}), InvalidArgument);
}

}  // namespace
}  // namespace kexp::test
