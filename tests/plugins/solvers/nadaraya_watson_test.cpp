// nadaraya_watson: weighted averages worked by hand, and the zero-weight rule.
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(NadarayaWatson, AveragesTheTargetsWithKernelWeights) {
  // t = (3, 6). Test point 1: weights (1, 0.2) → (3 + 1.2) / 1.2 = 3.5.
  // Test point 2: weights (0.5, 0.5) → 4.5. Test point 3: weights (0, 0.25) → 6.
  auto solver = make_solver("nadaraya_watson");
  const arma::mat K = {{1.0, 0.5}, {0.5, 1.0}};
  const arma::mat K_cross = {{1.0, 0.5, 0.0}, {0.2, 0.5, 0.25}};
  const FitResult run = run_dual(*solver, K, K_cross, arma::vec(3, arma::fill::ones), {3.0, 6.0});
  EXPECT_NEAR(run.prediction.mean[0], 3.5, 1e-15);
  EXPECT_NEAR(run.prediction.mean[1], 4.5, 1e-15);
  EXPECT_NEAR(run.prediction.mean[2], 6.0, 1e-15);
  // Fitted at the training points: (3 + 3)/1.5 = 4 and (1.5 + 6)/1.5 = 5.
  EXPECT_NEAR(run.report.fitted[0], 4.0, 1e-15);
  EXPECT_NEAR(run.report.fitted[1], 5.0, 1e-15);
  EXPECT_EQ(metric(run.report, "zero_weight_points"), 0.0);
}

TEST(NadarayaWatson, PointWithZeroTotalWeightGetsTheMeanAndIsCounted) {
  auto solver = make_solver("nadaraya_watson");
  const arma::mat K = {{1.0, 0.0}, {0.0, 1.0}};
  const arma::mat K_cross = {{0.0, 1.0}, {0.0, 0.0}};
  const FitResult run = run_dual(*solver, K, K_cross, arma::vec(2, arma::fill::ones), {3.0, 6.0});
  EXPECT_EQ(run.prediction.mean[0], 4.5);
  EXPECT_EQ(run.prediction.mean[1], 3.0);
  EXPECT_EQ(metric(run.report, "zero_weight_points"), 1.0);
}

TEST(NadarayaWatson, LeavesTheGramMatrixIntact) {
  const Problem p = make_problem(2, 20, 5, 61);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.5);
  arma::mat given = K;
  TrainingData train;
  train.gram = &given;
  train.gram_writable = true;
  train.targets = &p.y;
  SolverReport report;
  make_solver("nadaraya_watson")->fit(train, report);
  EXPECT_TRUE(arma::approx_equal(given, K, "absdiff", 0.0));
  EXPECT_EQ(report.matrix_bytes, 0.0);
}

}  // namespace
}  // namespace kexp::test
