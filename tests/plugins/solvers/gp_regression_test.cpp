// gp_regression: a two-point problem worked by hand, the mean against kernel_ridge with
// λ = noise, and variance and log marginal likelihood against their direct formulas.
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(GpRegression, TwoPointProblemWorkedByHand) {
  // K = [1 ½; ½ 1], noise 0.1: C = [1.1 ½; ½ 1.1], det C = 0.96,
  // C⁻¹ = [1.1 −½; −½ 1.1] / 0.96. t = (1, −1): C⁻¹t = (1.6, −1.6) / 0.96.
  // Test point x* = x₁: k = (1, ½), k(x*, x*) = 1.
  //   mean  kᵀC⁻¹t = (1.6 − 0.8) / 0.96
  //   C⁻¹k = (0.85, 0.05) / 0.96, kᵀC⁻¹k = 0.875 / 0.96, var_f = 1 − 0.875 / 0.96
  //   log p(t) = −½ · 3.2 / 0.96 − ½ log 0.96 − log 2π
  auto solver = make_solver("gp_regression", {{"noise", "0.1"}});
  const arma::mat K = {{1.0, 0.5}, {0.5, 1.0}};
  const arma::mat K_cross = arma::vec{1.0, 0.5};
  const FitResult run = run_dual(*solver, K, K_cross, arma::vec{1.0}, arma::vec{1.0, -1.0});
  EXPECT_NEAR(run.prediction.mean[0], 0.8 / 0.96, 1e-14);
  ASSERT_EQ(run.prediction.var_f.n_elem, 1U);
  EXPECT_NEAR(run.prediction.var_f[0], 1.0 - 0.875 / 0.96, 1e-14);
  EXPECT_NEAR(run.prediction.var_y[0], 1.0 - 0.875 / 0.96 + 0.1, 1e-14);
  const double lml = -0.5 * 3.2 / 0.96 - 0.5 * std::log(0.96) - std::log(2.0 * arma::datum::pi);
  EXPECT_NEAR(metric(run.report, "log_marginal_likelihood"), lml, 1e-14);
}

TEST(GpRegression, MeanEqualsKernelRidgeWithLambdaEqualToNoise) {
  const Problem p = make_problem(2, 120, 40, 51);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.6), K_cross = gaussian_gram(p.X, p.Xt, 0.6);
  const arma::vec diag(40, arma::fill::ones);
  for (const char* noise : {"1e-3", "0.05", "1"}) {
    auto gp = make_solver("gp_regression", {{"noise", noise}});
    auto ridge = make_solver("kernel_ridge", {{"lambda", noise}});
    const FitResult g = run_dual(*gp, K, K_cross, diag, p.y, {true});
    const FitResult r = run_dual(*ridge, K, K_cross, diag, p.y);
    // Tolerance 1e-10 relative: the same Cholesky solve, one in place and one on a copy.
    EXPECT_LT(relative_difference(g.prediction.mean, r.prediction.mean), 1e-10) << noise;
    EXPECT_LT(relative_difference(g.report.fitted, r.report.fitted), 1e-10) << noise;
  }
}

TEST(GpRegression, VarianceAndLogMarginalLikelihoodMatchTheirDirectFormulas) {
  const Problem p = make_problem(3, 60, 25, 52);
  const double noise = 0.02, sigma = 0.9;
  const arma::mat K = gaussian_gram(p.X, p.X, sigma), K_cross = gaussian_gram(p.X, p.Xt, sigma);
  const arma::vec diag(25, arma::fill::ones);
  auto gp = make_solver("gp_regression", {{"noise", "0.02"}});
  const FitResult run = run_dual(*gp, K, K_cross, diag, p.y);

  const arma::mat C = K + noise * arma::eye(60, 60);
  const arma::mat C_inv = arma::inv_sympd(C);
  const arma::vec var_f = diag - arma::sum(K_cross % (C_inv * K_cross), 0).t();
  double log_det = 0, sign = 0;
  arma::log_det(log_det, sign, C);
  const double lml = -0.5 * arma::as_scalar(p.y.t() * C_inv * p.y) - 0.5 * log_det -
                     30.0 * std::log(2.0 * arma::datum::pi);
  // Tolerances: cond(C) ≤ 60 / 0.02 = 3000, so 1e-10 absolute on quantities of order 1.
  EXPECT_LT(arma::abs(run.prediction.var_f - var_f).max(), 1e-10);
  EXPECT_LT(arma::abs(run.prediction.var_y - (var_f + noise)).max(), 1e-10);
  EXPECT_NEAR(metric(run.report, "log_marginal_likelihood"), lml, 1e-9 * std::abs(lml));
  EXPECT_TRUE(arma::all(run.prediction.var_f >= 0));
  EXPECT_EQ(run.report.matrix_bytes, 8.0 * (60 * 60 + 60 * 25));  // copy of K, L⁻¹K(X, X*)
}

TEST(GpRegression, VarianceAtATrainingPointIsBelowTheNoiseAndFarAwayIsThePrior) {
  // Far from the data k → 0: var_f → k(x*, x*) = 1, the prior.
  const Problem p = make_problem(1, 20, 1, 53);
  const arma::mat far(1, 1, arma::fill::value(100.0));
  auto gp = make_solver("gp_regression", {{"noise", "0.01"}});
  const arma::mat K = gaussian_gram(p.X, p.X, 0.3);
  const FitResult run = run_dual(*gp, K, gaussian_gram(p.X, far, 0.3), arma::vec{1.0}, p.y);
  EXPECT_NEAR(run.prediction.var_f[0], 1.0, 1e-15);
  EXPECT_NEAR(run.prediction.mean[0], 0.0, 1e-15);
}

}  // namespace
}  // namespace kexp::test
