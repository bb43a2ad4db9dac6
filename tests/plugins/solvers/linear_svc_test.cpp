// linear_svc: the same model as svc with the same c, loss and bias on an exact map (the
// primal–dual identity of the SVM), LIBLINEAR's answer where liblinear-train is installed,
// three classes one against one, and the epoch limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/solvers/libsvm_tools.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

FitResult run_linear(Solver& solver, const arma::mat& Phi, const arma::vec& y,
                     const arma::mat& Phi_test, Task task = Task::Classification) {
  TrainingData train;
  train.features = &Phi;
  train.targets = &y;
  train.task = task;
  FitResult r;
  solver.fit(train, r.report);
  TestData test;
  test.features = &Phi_test;
  r.prediction = solver.predict(test, r.report);
  return r;
}

FitResult run_dual_svm(Solver& solver, const Kernel& k, const arma::mat& X, const arma::vec& y,
                       const arma::mat& Xt, Task task = Task::Classification) {
  TrainingData train;
  train.kernel = &k;
  train.inputs = &X;
  train.targets = &y;
  train.task = task;
  FitResult r;
  solver.fit(train, r.report);
  TestData test;
  test.kernel = &k;
  test.inputs = &Xt;
  r.prediction = solver.predict(test, r.report);
  return r;
}

void two_classes(arma::uword n, arma::uword d, unsigned seed, arma::mat& X, arma::vec& y) {
  arma::arma_rng::set_seed(seed);
  y = arma::sign(arma::randu<arma::vec>(n) - 0.5);
  y.replace(0.0, 1.0);
  X = arma::randn<arma::mat>(d, n);
  X.row(0) += 0.7 * y.t();
  X = arma::round(X * 1e6) / 1e6;
}

TEST(LinearSvc, IsSvcOnTheExactMapWithTheSameBias) {
  // The primal on Φ and the dual on K = ΦᵀΦ solve one problem when the bias is treated
  // alike: `regularized` is a feature of value 1 on the primal side and the kernel k + 1 on
  // the dual side; `none` is neither. On the degree-2 polynomial map, at a tolerance far
  // below the differences that matter, the decision values agree.
  const Problem p = make_problem(3, 150, 40, 3);
  arma::vec y = arma::sign(p.y);
  y.replace(0.0, 1.0);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  const auto k = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  for (const char* bias : {"regularized", "none"}) {
    for (const char* loss : {"hinge", "squared_hinge"}) {
      SCOPED_TRACE(std::string(bias) + ", " + loss);
      const TextParams params = {
          {"c", "0.5"}, {"loss", loss}, {"bias", bias}, {"tolerance", "1e-10"}};
      TextParams primal_params = params;
      primal_params["epochs"] = "100000";
      const FitResult primal =
          run_linear(*make_solver("linear_svc", primal_params), Phi, y, Phi_test);
      const FitResult dual = run_dual_svm(*make_solver("svc", params), *k, p.X, y, p.Xt);
      EXPECT_TRUE(primal.report.converged);
      EXPECT_LT(relative_difference(primal.prediction.mean, dual.prediction.mean), 1e-7);
      EXPECT_NEAR(metric(primal.report, "dual_objective"), metric(dual.report, "dual_objective"),
                  1e-7 * std::fabs(metric(dual.report, "dual_objective")));
      EXPECT_EQ(metric(primal.report, "support_vectors"), metric(dual.report, "support_vectors"));
    }
  }
}

TEST(LinearSvc, AgreesWithLiblinear) {
  if (!installed("liblinear-train")) {
    GTEST_SKIP() << "liblinear-train not installed (apt-get install liblinear-tools)";
  }
  arma::mat X, Xt;
  arma::vec y, yt;
  two_classes(500, 6, 11, X, y);
  two_classes(100, 6, 12, Xt, yt);
  const TempDir dir;
  write_libsvm(dir.path() / "train", X, y);
  for (const auto& [loss, s] : {std::pair{"hinge", 3}, std::pair{"squared_hinge", 1}}) {
    SCOPED_TRACE(loss);
    // LIBLINEAR 2.3.0 stops at 1000 iterations: a C at which it converges at 1e-9
    const std::string out = run_for_output(
        fmt::format("liblinear-train -s {} -B 1 -c 0.1 -e 1e-9 {} {}", s,
                    (dir.path() / "train").string(), (dir.path() / "model").string()));
    ASSERT_THAT(out, ::testing::HasSubstr("optimization finished"));
    ASSERT_THAT(out, ::testing::Not(::testing::HasSubstr(kReachedLimit)));
    const arma::vec reference = liblinear_decisions(dir.path() / "model", Xt);
    const FitResult r = run_linear(
        *make_solver("linear_svc",
                     {{"c", "0.1"}, {"loss", loss}, {"tolerance", "1e-9"}, {"epochs", "100000"}}),
        X, y, Xt);
    EXPECT_LT(arma::norm(r.prediction.mean - reference) / arma::norm(reference), 1e-6);
  }
}

TEST(LinearSvc, TrainsThreeClassesOneAgainstOneAsSvcDoes) {
  arma::arma_rng::set_seed(17);
  const arma::uword n = 150;
  arma::mat X = arma::randn<arma::mat>(2, n);
  arma::vec y(n);
  for (arma::uword i = 0; i < n; ++i) {
    y[i] = static_cast<double>(i % 3);
    X(0, i) += 3.0 * std::cos(2.1 * y[i]);
    X(1, i) += 3.0 * std::sin(2.1 * y[i]);
  }
  const arma::mat Xt = X + 0.05;
  const FitResult primal =
      run_linear(*make_solver("linear_svc", {{"tolerance", "1e-10"}, {"epochs", "100000"}}), X, y,
                 Xt, Task::Multiclass);
  const auto k = make_kernel("linear");
  const FitResult dual =
      run_dual_svm(*make_solver("svc", {{"bias", "regularized"}, {"tolerance", "1e-10"}}), *k, X, y,
                   Xt, Task::Multiclass);
  EXPECT_EQ(arma::accu(primal.prediction.mean != dual.prediction.mean), 0U);
  EXPECT_GE(arma::mean(arma::conv_to<arma::vec>::from(primal.prediction.mean == y)), 0.85);
}

TEST(LinearSvc, StopsAtItsEpochLimitUnconverged) {
  arma::mat X;
  arma::vec y;
  two_classes(300, 4, 21, X, y);
  const FitResult r = run_linear(
      *make_solver("linear_svc", {{"epochs", "2"}, {"tolerance", "1e-12"}, {"c", "100"}}), X, y, X);
  EXPECT_FALSE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 2);
}

TEST(LinearSvc, RefusesRegressionTargetsAndBadSettings) {
  const arma::mat X = arma::randn<arma::mat>(2, 4);
  try {
    (void)run_linear(*make_solver("linear_svc"), X, arma::vec{0.1, 0.2, 0.3, 0.4}, X,
                     Task::Regression);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("linear_svc is a classifier"));
  }
  EXPECT_THROW((void)make_solver("linear_svc", {{"c", "0"}}), ConfigError);
  EXPECT_THROW((void)make_solver("linear_svc", {{"bias", "free"}}), ConfigError);
  EXPECT_THROW((void)make_solver("linear_svc", {{"tolerance", "0"}}), ConfigError);
}

}  // namespace
}  // namespace kexp::test
