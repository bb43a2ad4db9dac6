// primal_gd: a hand-worked problem, the automatic step size, and the representer
// theorem: after T steps from zero it predicts exactly as dual_gd on K = ΦᵀΦ.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(PrimalGd, TakesTwoStepsWorkedByHand) {
  // φ = (1, 2), y = (1, 2), α = 0.1. Step 1: g = Φy = 5, θ = 0.5, residual (0.5, 1),
  // loss (0.25 + 1)/2 = 0.625. Step 2: g = 2.5, θ = 0.75, residual (0.25, 0.5),
  // loss 0.15625.
  auto solver = make_solver("primal_gd", {{"alpha", "0.1"}, {"iterations", "2"}});
  const arma::mat Phi = {{1.0, 2.0}};
  const FitResult run =
      run_primal(*solver, Phi, arma::mat(1, 1, arma::fill::value(1.0)), arma::vec{1.0, 2.0});
  EXPECT_NEAR(run.prediction.mean[0], 0.75, 1e-15);
  ASSERT_EQ(run.report.loss_curve.size(), 2U);
  EXPECT_NEAR(run.report.loss_curve[0], 0.625, 1e-15);
  EXPECT_NEAR(run.report.loss_curve[1], 0.15625, 1e-15);
  EXPECT_EQ(run.report.iterations, 2);
  EXPECT_FALSE(run.report.converged);
  EXPECT_EQ(metric(run.report, "alpha"), 0.1);
}

TEST(PrimalGd, AutomaticStepIsOneOverTheLargestEigenvalue) {
  // λ_max(ΦΦᵀ) = 5, so α = 1/5 and one step reaches θ = 1, the exact fit: converged.
  auto solver = make_solver("primal_gd", {{"tolerance", "1e-12"}});
  const arma::mat Phi = {{1.0, 2.0}};
  const FitResult run =
      run_primal(*solver, Phi, arma::mat(1, 1, arma::fill::value(3.0)), arma::vec{1.0, 2.0});
  EXPECT_NEAR(metric(run.report, "alpha"), 0.2, 1e-14);
  EXPECT_NEAR(metric(run.report, "lambda_max"), 5.0, 1e-13);
  EXPECT_NEAR(run.prediction.mean[0], 3.0, 1e-13);
  EXPECT_EQ(run.report.iterations, 1);
  EXPECT_TRUE(run.report.converged);
}

TEST(PrimalGd, TooLargeAStepDivergesWithoutThrowing) {
  auto solver = make_solver("primal_gd", {{"alpha", "1"}, {"iterations", "20"}});
  const arma::mat Phi = {{1.0, 2.0}};
  const FitResult run =
      run_primal(*solver, Phi, arma::mat(1, 1, arma::fill::value(1.0)), arma::vec{1.0, 2.0});
  EXPECT_FALSE(run.report.converged);
  EXPECT_GT(run.report.loss_curve.back(), run.report.loss_curve.front());
}

// The representer theorem, at several T, with a given α and with the automatic one.
// Tolerance: 1e-9 relative; the two forms do the same arithmetic in a different order.
TEST(PrimalGd, AgreesWithDualGdAfterTStepsFromZero) {
  const Problem p = make_problem(3, 60, 20, 31);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  const arma::mat K = Phi.t() * Phi, K_cross = Phi.t() * Phi_test;
  const arma::vec diag(K_cross.n_cols, arma::fill::ones);
  for (const char* alpha : {"0", "0.002"}) {
    for (int T : {1, 2, 10, 100, 500}) {
      const TextParams params = {
          {"alpha", alpha}, {"iterations", std::to_string(T)}, {"tolerance", "0"}};
      auto primal = make_solver("primal_gd", params);
      auto dual = make_solver("dual_gd", params);
      const FitResult pr = run_primal(*primal, Phi, Phi_test, p.y);
      const FitResult du = run_dual(*dual, K, K_cross, diag, p.y);
      const std::string where = fmt::format("α = {}, T = {}", alpha, T);
      EXPECT_NEAR(metric(pr.report, "alpha"), metric(du.report, "alpha"),
                  1e-10 * metric(du.report, "alpha"))
          << where;
      EXPECT_LT(relative_difference(pr.prediction.mean, du.prediction.mean), 1e-9) << where;
      EXPECT_LT(relative_difference(pr.report.fitted, du.report.fitted), 1e-9) << where;
      ASSERT_EQ(pr.report.loss_curve.size(), static_cast<std::size_t>(T));
      ASSERT_EQ(du.report.loss_curve.size(), static_cast<std::size_t>(T));
      EXPECT_NEAR(pr.report.loss_curve.back(), du.report.loss_curve.back(),
                  1e-9 * du.report.loss_curve.front())
          << where;
      EXPECT_EQ(pr.report.iterations, T);
      EXPECT_EQ(du.report.iterations, T);
    }
  }
}

TEST(PrimalGd, StopsAtTheToleranceInBothFormsAtTheSameStep) {
  const Problem p = make_problem(2, 40, 5, 32);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  const TextParams params = {{"iterations", "100000"}, {"tolerance", "1e-3"}};
  auto primal = make_solver("primal_gd", params);
  auto dual = make_solver("dual_gd", params);
  const FitResult pr = run_primal(*primal, Phi, Phi_test, p.y);
  const FitResult du =
      run_dual(*dual, Phi.t() * Phi, Phi.t() * Phi_test, arma::vec(5, arma::fill::ones), p.y);
  EXPECT_TRUE(pr.report.converged);
  EXPECT_TRUE(du.report.converged);
  EXPECT_LT(pr.report.iterations, 100000);
  EXPECT_EQ(pr.report.iterations, du.report.iterations);
  // The loss never increases with α = 1/λ_max.
  for (std::size_t t = 1; t < pr.report.loss_curve.size(); ++t) {
    EXPECT_LE(pr.report.loss_curve[t], pr.report.loss_curve[t - 1] * (1 + 1e-12));
  }
}

}  // namespace
}  // namespace kexp::test
