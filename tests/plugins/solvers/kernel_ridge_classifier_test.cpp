// kernel_ridge_classifier: a hand-worked problem, labels that are not ±1, and accuracy on
// two concentric circles (a problem no linear classifier solves).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

/// Two concentric circles in 2-D: radius 0.5 labelled +1, radius 1 labelled −1, with
/// Gaussian noise of deviation `noise` on each coordinate.
void circles(arma::uword n, double noise, unsigned seed, arma::mat& X, arma::vec& y) {
  arma::arma_rng::set_seed(seed);
  X.set_size(2, n);
  y.set_size(n);
  const arma::vec angle = arma::randu<arma::vec>(n) * 2.0 * arma::datum::pi;
  for (arma::uword i = 0; i < n; ++i) {
    const bool inner = i % 2 == 0;
    const double r = inner ? 0.5 : 1.0;
    X(0, i) = r * std::cos(angle[i]);
    X(1, i) = r * std::sin(angle[i]);
    y[i] = inner ? 1.0 : -1.0;
  }
  X += noise * arma::randn<arma::mat>(2, n);
}

double accuracy(const arma::vec& y, const arma::vec& score) {
  double right = 0;
  for (arma::uword i = 0; i < y.n_elem; ++i) right += (score[i] >= 0 ? 1.0 : -1.0) == y[i];
  return right / static_cast<double>(y.n_elem);
}

TEST(KernelRidgeClassifier, SolvesATinyProblemWorkedByHand) {
  // K = [2 1; 1 2], y = (1, −1), λ = 1: β = (K + I)⁻¹y = (4, −4)/8 = (½, −½).
  // Scores at k = (1, 0) and (0, 1): ½ and −½, the training classes.
  auto solver = make_solver("kernel_ridge_classifier", {{"lambda", "1"}});
  const arma::mat K = {{2.0, 1.0}, {1.0, 2.0}};
  const FitResult run = run_dual(*solver, K, arma::eye(2, 2), arma::vec{2.0, 2.0}, {1.0, -1.0}, {},
                                 Task::Classification);
  EXPECT_NEAR(run.prediction.mean[0], 0.5, 1e-15);
  EXPECT_NEAR(run.prediction.mean[1], -0.5, 1e-15);
  EXPECT_NEAR(run.report.fitted[0], 0.5, 1e-15);  // Kβ = y − λβ
}

TEST(KernelRidgeClassifier, HandsKBackIntactWithoutCopyingItWhenOthersNeedIt) {
  arma::mat X;
  arma::vec y;
  circles(120, 0.08, 73, X, y);
  const arma::mat K = gaussian_gram(X, X, 0.3);
  arma::mat kept = K;
  TrainingData train;
  train.gram = &kept;
  train.targets = &y;
  train.task = Task::Classification;
  SolverReport report;
  make_solver("kernel_ridge_classifier", {{"lambda", "0.1"}})->fit(train, report);
  EXPECT_TRUE(arma::approx_equal(kept, K, "absdiff", 0.0)) << "K changed without permission";
  EXPECT_EQ(report.matrix_bytes, 8.0 * 120);  // the saved diagonal only, no copy of K
  // The same β as a fit allowed to factor K in place.
  const FitResult in_place =
      run_dual(*make_solver("kernel_ridge_classifier", {{"lambda", "0.1"}}), K, K,
               arma::vec(120, arma::fill::ones), y, {true}, Task::Classification);
  EXPECT_LT(arma::abs(report.fitted - in_place.report.fitted).max(), 1e-15);
}

TEST(KernelRidgeClassifier, SeparatesConcentricCircles) {
  arma::mat X, X_test;
  arma::vec y, y_test;
  circles(300, 0.08, 71, X, y);
  circles(300, 0.08, 72, X_test, y_test);
  auto solver = make_solver("kernel_ridge_classifier", {{"lambda", "0.1"}});
  const FitResult run = run_dual(*solver, gaussian_gram(X, X, 0.3), gaussian_gram(X, X_test, 0.3),
                                 arma::vec(300, arma::fill::ones), y, {true}, Task::Classification);
  // The circles are 0.5 apart with noise 0.08: at least 97% on fresh points.
  EXPECT_GE(accuracy(y_test, run.prediction.mean), 0.97);
  EXPECT_GE(accuracy(y, run.report.fitted), 0.97);
  // A linear classifier cannot do much better than chance here.
  auto linear = make_solver("kernel_ridge_classifier", {{"lambda", "0.1"}});
  const FitResult flat = run_dual(*linear, X.t() * X, X.t() * X_test,
                                  arma::vec(300, arma::fill::ones), y, {}, Task::Classification);
  EXPECT_LT(accuracy(y_test, flat.prediction.mean), 0.7);
}

TEST(KernelRidgeClassifier, RefusesLabelsOtherThanPlusMinusOne) {
  auto solver = make_solver("kernel_ridge_classifier");
  const arma::mat K = arma::eye(2, 2);
  try {
    (void)run_dual(*solver, K, K, arma::vec{1.0, 1.0}, {1.0, 0.5});
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("needs labels −1 and +1"));
  }
}

}  // namespace
}  // namespace kexp::test
