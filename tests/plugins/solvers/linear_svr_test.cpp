// linear_svr: the same model as svr with the same c, epsilon, loss and bias on an exact map,
// LIBLINEAR's `-s 13` and `-s 12` where liblinear-train is installed, and its refusals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "plugins/solvers/libsvm_tools.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

FitResult run_linear(Solver& solver, const arma::mat& Phi, const arma::vec& y,
                     const arma::mat& Phi_test, Task task = Task::Regression) {
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

TEST(LinearSvr, IsSvrOnTheExactMapWithTheSameBias) {
  const Problem p = make_problem(3, 150, 40, 13);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  const auto k = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  for (const char* bias : {"regularized", "none"}) {
    for (const char* loss : {"epsilon_insensitive", "squared_epsilon_insensitive"}) {
      SCOPED_TRACE(std::string(bias) + ", " + loss);
      const TextParams params = {
          {"c", "2"}, {"epsilon", "0.2"}, {"loss", loss}, {"bias", bias}, {"tolerance", "1e-10"}};
      TextParams primal_params = params;
      primal_params["epochs"] = "100000";
      const FitResult primal =
          run_linear(*make_solver("linear_svr", primal_params), Phi, p.y, Phi_test);
      TrainingData train;
      train.kernel = k.get();
      train.inputs = &p.X;
      train.targets = &p.y;
      FitResult dual;
      auto svr = make_solver("svr", params);
      svr->fit(train, dual.report);
      TestData test;
      test.kernel = k.get();
      test.inputs = &p.Xt;
      dual.prediction = svr->predict(test, dual.report);
      EXPECT_TRUE(primal.report.converged);
      EXPECT_LT(relative_difference(primal.prediction.mean, dual.prediction.mean), 1e-7);
      EXPECT_LT(relative_difference(primal.report.fitted, dual.report.fitted), 1e-7);
    }
  }
}

TEST(LinearSvr, AgreesWithLiblinear) {
  if (!installed("liblinear-train")) {
    GTEST_SKIP() << "liblinear-train not installed (apt-get install liblinear-tools)";
  }
  Problem p = make_problem(5, 400, 100, 17);
  p.X = arma::round(p.X * 1e6) / 1e6;
  const TempDir dir;
  write_libsvm(dir.path() / "train", p.X, p.y);
  for (const auto& [loss, s] :
       {std::pair{"epsilon_insensitive", 13}, std::pair{"squared_epsilon_insensitive", 12}}) {
    SCOPED_TRACE(loss);
    // LIBLINEAR 2.3.0 stops at 1000 iterations (and at a relative 1e-10 for SVR): a C at
    // which it converges
    const std::string out = run_for_output(
        fmt::format("liblinear-train -s {} -B 1 -c 0.05 -p 0.1 -e 1e-10 {} {}", s,
                    (dir.path() / "train").string(), (dir.path() / "model").string()));
    ASSERT_THAT(out, ::testing::HasSubstr("optimization finished"));
    ASSERT_THAT(out, ::testing::Not(::testing::HasSubstr(kReachedLimit)));
    const arma::vec reference = liblinear_decisions(dir.path() / "model", p.Xt);
    const FitResult r = run_linear(*make_solver("linear_svr", {{"c", "0.05"},
                                                               {"epsilon", "0.1"},
                                                               {"loss", loss},
                                                               {"tolerance", "1e-10"},
                                                               {"epochs", "100000"}}),
                                   p.X, p.y, p.Xt);
    EXPECT_LT(arma::norm(r.prediction.mean - reference) / arma::norm(reference), 1e-6);
  }
}

TEST(LinearSvr, RefusesBadSettings) {
  EXPECT_THROW((void)make_solver("linear_svr", {{"epsilon", "-1"}}), ConfigError);
  EXPECT_THROW((void)make_solver("linear_svr", {{"epochs", "0"}}), ConfigError);
  EXPECT_THROW((void)make_solver("linear_svr", {{"bias", "free"}}), ConfigError);
}

}  // namespace
}  // namespace kexp::test
