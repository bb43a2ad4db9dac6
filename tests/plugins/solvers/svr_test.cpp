// svr: hand-solved problems, the KKT conditions of the tube on a larger one, LIBSVM's
// `-s 3` answer where svm-train is installed, and the targets it refuses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/solvers/libsvm_tools.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

FitResult run_svr(Solver& solver, const Kernel& k, const arma::mat& X, const arma::vec& y,
                  const arma::mat& Xt, Task task = Task::Regression) {
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

TEST(Svr, SolvesTwoPointsByHand) {
  // x = ±1, y = ±1, the linear kernel. ε = 0 with a large C: the only f = wx + b without
  // error is f(x) = x. ε = ½: the flattest f within the tube is f(x) = x/2.
  const auto k = make_kernel("linear");
  const arma::mat X = {{-1.0, 1.0}};
  const arma::vec y = {-1.0, 1.0};
  const arma::mat Xt = {{3.0, 0.0}};
  const FitResult exact = run_svr(
      *make_solver("svr", {{"epsilon", "0"}, {"c", "100"}, {"tolerance", "1e-12"}}), *k, X, y, Xt);
  EXPECT_NEAR(exact.prediction.mean[0], 3.0, 1e-9);
  EXPECT_NEAR(exact.prediction.mean[1], 0.0, 1e-9);
  const FitResult tube =
      run_svr(*make_solver("svr", {{"epsilon", "0.5"}, {"c", "100"}, {"tolerance", "1e-12"}}), *k,
              X, y, Xt);
  EXPECT_NEAR(tube.prediction.mean[0], 1.5, 1e-9);
  EXPECT_EQ(metric(tube.report, "support_vectors"), 2.0);
  // the training values from the gradient: f(±1) = ±½
  EXPECT_NEAR(tube.report.fitted[1], 0.5, 1e-9);
  // a wide tube holds every point with f = 0: no support vector
  const FitResult wide = run_svr(*make_solver("svr", {{"epsilon", "2"}}), *k, X, y, Xt);
  EXPECT_EQ(metric(wide.report, "support_vectors"), 0.0);
  EXPECT_NEAR(wide.prediction.mean[0], 0.0, 1e-12);
}

TEST(Svr, MeetsTheConditionsOfTheTube) {
  // at the optimum a point strictly inside the tube has no weight, one outside has weight
  // ±C; those with weight strictly between lie on its edge
  const Problem p = make_problem(3, 300, 20, 5);
  const auto k = make_kernel("gaussian", {{"sigma", "0.8"}});
  const double eps = 0.1;
  auto s = make_solver("svr", {{"epsilon", "0.1"}, {"c", "2"}, {"tolerance", "1e-9"}});
  const FitResult r = run_svr(*s, *k, p.X, p.y, p.Xt);
  const arma::vec residual = p.y - r.report.fitted;
  EXPECT_TRUE(r.report.converged);
  EXPECT_GT(metric(r.report, "support_vectors"), 0.0);
  // every point more than ε + tolerance outside is bounded; none inside is a support vector
  std::size_t outside = 0;
  for (arma::uword i = 0; i < residual.n_elem; ++i) outside += std::fabs(residual[i]) > eps + 1e-7;
  EXPECT_EQ(metric(r.report, "bounded_support_vectors"), static_cast<double>(outside));
  std::size_t on_or_out = 0;
  for (arma::uword i = 0; i < residual.n_elem; ++i)
    on_or_out += std::fabs(residual[i]) >= eps - 1e-7;
  EXPECT_GE(static_cast<double>(on_or_out), metric(r.report, "support_vectors"));
}

TEST(Svr, AgreesWithLibsvm) {
  if (!installed("svm-train"))
    GTEST_SKIP() << "svm-train not installed (apt-get install libsvm-tools)";
  Problem p = make_problem(4, 500, 100, 7);
  p.X = arma::round(p.X * 1e6) / 1e6;  // what LIBSVM's model file (8 digits) holds exactly
  p.Xt = arma::round(p.Xt * 1e6) / 1e6;
  const TempDir dir;
  write_libsvm(dir.path() / "train", p.X, p.y);
  const std::string out =
      run_for_output(fmt::format("svm-train -s 3 -t 2 -g 0.5 -c 1 -p 0.1 -e 1e-9 {} {}",
                                 (dir.path() / "train").string(), (dir.path() / "model").string()));
  ASSERT_THAT(out, ::testing::HasSubstr("optimization finished"));
  ASSERT_THAT(out, ::testing::Not(::testing::HasSubstr(kReachedLimit)));
  const LibsvmModel model = read_libsvm_model(dir.path() / "model", 4);
  const arma::vec reference = libsvm_gaussian_decisions(model, p.Xt);
  const auto k = make_kernel("gaussian", {{"sigma", "1"}});  // γ = ½
  auto s = make_solver("svr", {{"c", "1"}, {"epsilon", "0.1"}, {"tolerance", "1e-9"}});
  const FitResult r = run_svr(*s, *k, p.X, p.y, p.Xt);
  EXPECT_LT(arma::norm(r.prediction.mean - reference) / arma::norm(reference), 1e-6);
  EXPECT_EQ(metric(r.report, "support_vectors"), static_cast<double>(model.total_sv));
}

TEST(Svr, SquaredLossAndBiasSettingsSolveTheirOwnProblems) {
  // the squared ε-insensitive loss without an upper bound: on two points with ε = 0 and
  // C = ½ (Q + I): min ½w² + ½Σ(yᵢ − wxᵢ)² ⇒ w = 2/3 at x = ±1, y = ±1
  const auto k = make_kernel("linear");
  const arma::mat X = {{-1.0, 1.0}};
  const arma::vec y = {-1.0, 1.0};
  const FitResult r = run_svr(*make_solver("svr", {{"epsilon", "0"},
                                                   {"c", "0.5"},
                                                   {"loss", "squared_epsilon_insensitive"},
                                                   {"bias", "none"},
                                                   {"tolerance", "1e-12"}}),
                              *k, X, y, arma::mat(1, 1, arma::fill::ones));
  EXPECT_NEAR(r.prediction.mean[0], 2.0 / 3.0, 1e-9);
}

TEST(Svr, RefusesParametersOutOfRange) {
  EXPECT_THROW((void)make_solver("svr", {{"epsilon", "-0.1"}}), ConfigError);
  EXPECT_THROW((void)make_solver("svr", {{"c", "0"}}), ConfigError);
  EXPECT_THROW((void)make_solver("svr", {{"tolerance", "-1"}}), ConfigError);
}

}  // namespace
}  // namespace kexp::test
