// dual_gd: hand-worked steps, the automatic step size, and the stopping rule. Agreement
// with primal_gd (the representer theorem) is tested in primal_gd_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(DualGd, TakesTwoStepsWorkedByHand) {
  // K = φφᵀ for φ = (1, 2): [1 2; 2 4]; y = (1, 2), α = 0.1.
  // Step 1: β = αy = (0.1, 0.2), Kβ = (0.5, 1), loss 0.625.
  // Step 2: r = (0.5, 1), β = (0.15, 0.3), Kβ = (0.75, 1.5), loss 0.15625.
  auto solver = make_solver("dual_gd", {{"alpha", "0.1"}, {"iterations", "2"}});
  const arma::mat K = {{1.0, 2.0}, {2.0, 4.0}};
  const arma::mat K_cross = arma::vec{1.0, 2.0};  // a test point with φ = 1
  const FitResult run = run_dual(*solver, K, K_cross, arma::vec{1.0}, arma::vec{1.0, 2.0});
  EXPECT_NEAR(run.prediction.mean[0], 0.15 + 0.6, 1e-15);
  ASSERT_EQ(run.report.loss_curve.size(), 2U);
  EXPECT_NEAR(run.report.loss_curve[0], 0.625, 1e-15);
  EXPECT_NEAR(run.report.loss_curve[1], 0.15625, 1e-15);
  EXPECT_NEAR(run.report.fitted[1], 1.5, 1e-15);
  EXPECT_EQ(run.report.iterations, 2);
}

TEST(DualGd, AutomaticStepIsOneOverTheLargestEigenvalueOfK) {
  // λ_max(K) = 5: α = 0.2, and one step fits y exactly.
  auto solver = make_solver("dual_gd", {{"tolerance", "1e-12"}});
  const arma::mat K = {{1.0, 2.0}, {2.0, 4.0}};
  const FitResult run = run_dual(*solver, K, K, arma::vec{1.0, 4.0}, arma::vec{1.0, 2.0});
  EXPECT_NEAR(metric(run.report, "alpha"), 0.2, 1e-14);
  EXPECT_NEAR(run.report.fitted[0], 1.0, 1e-13);
  EXPECT_EQ(run.report.iterations, 1);
  EXPECT_TRUE(run.report.converged);
}

TEST(DualGd, ConvergesTowardsTheInterpolantOnAGaussianGram) {
  const Problem p = make_problem(2, 30, 3, 41);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.5);
  auto solver = make_solver("dual_gd", {{"iterations", "200"}, {"tolerance", "0"}});
  const FitResult run =
      run_dual(*solver, K, gaussian_gram(p.X, p.Xt, 0.5), arma::vec(3, arma::fill::ones), p.y);
  EXPECT_EQ(run.report.iterations, 200);
  EXPECT_FALSE(run.report.converged);  // tolerance 0: runs every step
  EXPECT_LT(run.report.loss_curve.back(), 0.5 * run.report.loss_curve.front());
  // 201 products with K for the steps and their gradients, plus the power iteration.
  EXPECT_GT(run.report.fit_flops, 201.0 * 2 * 30 * 30);
}

TEST(DualGd, RefusesAGramMatrixWithNoPositiveEigenvalue) {
  // K = −diag(1, 2), as an indefinite kernel gives: λ_max = −1 ≤ 0, so there is no step
  // 1/λ_max, and rᵀKr < 0 would read as a zero gradient ("converged" after no step).
  auto solver = make_solver("dual_gd");
  const arma::mat K = {{-1.0, 0.0}, {0.0, -2.0}};
  try {
    run_dual(*solver, K, K, arma::vec{-1.0, -2.0}, arma::vec{1.0, 2.0});
    FAIL() << "dual_gd fitted a Gram matrix with no positive eigenvalue";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), HasSubstr("λ_max(K) = -"));
    EXPECT_THAT(e.what(), HasSubstr("the kernel is not PSD with these parameters"));
    EXPECT_THAT(e.what(), HasSubstr("give a step size alpha"));
  }
}

TEST(DualGd, RefusesAZeroGramMatrix) {
  auto solver = make_solver("dual_gd");
  const arma::mat K(3, 3, arma::fill::zeros);
  EXPECT_THROW(run_dual(*solver, K, K, arma::vec(3, arma::fill::zeros), arma::vec{1.0, 2.0, 3.0}),
               NumericError);
}

}  // namespace
}  // namespace kexp::test
