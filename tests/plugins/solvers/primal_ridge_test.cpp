// primal_ridge: a hand-worked problem, and the primal = dual identity of ridge regression
// on exact feature maps, Φᵀ(ΦΦᵀ + λI)⁻¹ = (ΦᵀΦ + λI)⁻¹Φᵀ, against kernel_ridge.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(PrimalRidge, SolvesATinyProblemWorkedByHand) {
  // D = 1, φ = (1, 2), y = (1, 2), λ = 1: θ = Σφy / (Σφ² + λ) = 5/6.
  auto solver = make_solver("primal_ridge", {{"lambda", "1"}});
  const arma::mat Phi = {{1.0, 2.0}};
  const arma::mat Phi_test(1, 1, arma::fill::value(3.0));
  const arma::vec y = {1.0, 2.0};
  const FitResult run = run_primal(*solver, Phi, Phi_test, y);
  EXPECT_NEAR(run.prediction.mean[0], 3.0 * 5.0 / 6.0, 1e-14);
  ASSERT_EQ(run.report.fitted.n_elem, 2U);
  EXPECT_NEAR(run.report.fitted[1], 2.0 * 5.0 / 6.0, 1e-14);
  EXPECT_EQ(run.report.matrix_bytes, 8.0);  // the 1 × 1 system
  EXPECT_GT(run.report.fit_flops, 0);
  EXPECT_EQ(run.report.predict_flops, 2.0);
}

void expect_primal_equals_dual(const arma::mat& Phi, const arma::mat& Phi_test, const arma::mat& K,
                               const arma::mat& K_cross, const arma::vec& y, double lambda) {
  const std::string l = fmt::format("{}", lambda);
  auto primal = make_solver("primal_ridge", {{"lambda", l}});
  auto dual = make_solver("kernel_ridge", {{"lambda", l}});
  const FitResult p = run_primal(*primal, Phi, Phi_test, y);
  const FitResult d = run_dual(*dual, K, K_cross, arma::vec(K_cross.n_cols, arma::fill::ones), y);
  arma::mat primal_system = Phi * Phi.t(), dual_system = K;  // ΦΦᵀ + λI (D × D), K + λI (n × n)
  primal_system.diag() += lambda;
  dual_system.diag() += lambda;
  // two backward-stable solves: ≤ (D·κ(ΦΦᵀ + λI) + n·κ(K + λI))·ε; κ(K + λI) ≤ 1.1e5 here
  const double tolerance =
      (Phi.n_rows * arma::cond(primal_system) + K.n_rows * arma::cond(dual_system)) * kEps;
  EXPECT_LT(relative_difference(p.prediction.mean, d.prediction.mean), tolerance)
      << "λ = " << lambda;
  EXPECT_LT(relative_difference(p.report.fitted, d.report.fitted), tolerance) << "λ = " << lambda;
}

TEST(PrimalRidge, EqualsKernelRidgeOnTheLinearMap) {
  // φ(x) = x, K = XᵀX: D = 4 < n = 60.
  const Problem p = make_problem(4, 60, 25, 11);
  for (double lambda : {1e-3, 1e-1, 10.0}) {
    expect_primal_equals_dual(p.X, p.Xt, p.X.t() * p.X, p.X.t() * p.Xt, p.y, lambda);
  }
}

TEST(PrimalRidge, EqualsKernelRidgeOnTheExactQuadraticMap) {
  const Problem p = make_problem(3, 80, 30, 12);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  ASSERT_EQ(Phi.n_rows, 10U);
  const arma::mat K = quadratic_gram(p.X, p.X), K_cross = quadratic_gram(p.X, p.Xt);
  // The map is exact: ⟨φ(x), φ(z)⟩ = (xᵀz + 1)² to rounding.
  ASSERT_LT(arma::abs(Phi.t() * Phi_test - K_cross).max(), 1e-13);
  for (double lambda : {1e-3, 1e-1, 10.0}) {
    expect_primal_equals_dual(Phi, Phi_test, K, K_cross, p.y, lambda);
  }
}

TEST(PrimalRidge, EqualsKernelRidgeWhenDExceedsN) {
  // D = 21 (d = 5) > n = 15: the dual system is the smaller one, the answers still agree.
  const Problem p = make_problem(5, 15, 10, 13);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  expect_primal_equals_dual(Phi, Phi_test, quadratic_gram(p.X, p.X), quadratic_gram(p.X, p.Xt), p.y,
                            0.5);
}

TEST(PrimalRidge, SingularSystemAsksForALargerLambda) {
  // λ = 0 with D = 21 > n = 15: ΦΦᵀ has rank at most 15.
  const Problem p = make_problem(5, 15, 10, 14);
  auto solver = make_solver("primal_ridge", {{"lambda", "0"}});
  try {
    (void)run_primal(*solver, quadratic_map(p.X), quadratic_map(p.Xt), p.y);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("use a larger lambda"));
  }
}

}  // namespace
}  // namespace kexp::test
