// The solvers that reach the kernel (flags::kernel_inputs): cg_ridge against kernel ridge
// solved by hand to its tolerance; falkon with every training point a centre against
// kernel ridge with λ·n, with few centres against its own normal equations
// (K_nmᵀK_nm + λnK_mm)α = K_nmᵀy; the memory each says it holds; and their errors.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

struct Reached {
  SolverReport report;
  Prediction prediction;
};

Reached run_reaching(Solver& solver, const Kernel& k, const Problem& p) {
  TrainingData train;
  train.kernel = &k;
  train.inputs = &p.X;
  train.targets = &p.y;
  Reached r;
  solver.fit(train, r.report);
  TestData test;
  test.kernel = &k;
  test.inputs = &p.Xt;
  r.prediction = solver.predict(test, r.report);
  return r;
}

arma::vec kernel_ridge_by_hand(const Kernel& k, const Problem& p, double lambda) {
  arma::mat K, Kt;
  k.gram(p.X, K);
  k.gram(p.X, p.Xt, Kt);
  return Kt.t() * arma::solve(K + lambda * arma::eye(K.n_rows, K.n_rows), p.y);
}

TEST(CgRidge, ConvergesToKernelRidgeWithinItsTolerance) {
  const Problem p = make_problem(3, 300, 40, 5);
  const auto k = make_kernel("gaussian", {{"sigma", "1.5"}});
  auto solver = make_solver("cg_ridge", {{"lambda", "0.1"}, {"tolerance", "1e-10"}});
  const Reached r = run_reaching(*solver, *k, p);
  const arma::vec expected = kernel_ridge_by_hand(*k, p, 0.1);
  EXPECT_TRUE(r.report.converged);
  EXPECT_GT(r.report.iterations, 1);
  EXPECT_LE(metric(r.report, "relative_residual"), 1e-9);
  EXPECT_LE(relative_difference(r.prediction.mean, expected), 1e-7);
  EXPECT_EQ(r.report.fitted.n_elem, 300U);
}

TEST(CgRidge, SaysWhenItStopsBeforeConverging) {
  const Problem p = make_problem(3, 200, 10, 6);
  const auto k = make_kernel("gaussian", {{"sigma", "1.5"}});
  auto solver = make_solver("cg_ridge", {{"lambda", "1e-6"}, {"iterations", "3"}});
  const Reached r = run_reaching(*solver, *k, p);
  EXPECT_FALSE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 3);
  EXPECT_GT(metric(r.report, "relative_residual"), 1e-6);
}

TEST(CgRidge, HoldsOneBlockOfKNotK) {
  auto solver = make_solver("cg_ridge");
  const double n = 100000;
  // five n-vectors, the predictions, and the larger block: K(X*, X) in blocks of 4194
  // columns of 1000 rows (K(X, X) in blocks of 41 columns of 100 000 rows is 4.1 Mi)
  EXPECT_EQ(solver->memory_bytes(100000, 1000, 10), 8.0 * (5 * n + 1000) + 8.0 * 1000 * 4194);
  EXPECT_LT(solver->memory_bytes(100000, 1000, 10), 0.01 * 8 * n * n);
}

TEST(Falkon, WithEveryPointACentreIsKernelRidgeWithLambdaTimesN) {
  const Problem p = make_problem(3, 250, 30, 7);
  const auto k = make_kernel("gaussian", {{"sigma", "1.5"}});
  auto solver = make_solver("falkon", {{"lambda", "1e-3"}, {"m", "250"}});
  const Reached r = run_reaching(*solver, *k, p);
  const arma::vec expected = kernel_ridge_by_hand(*k, p, 1e-3 * 250);
  EXPECT_LE(relative_difference(r.prediction.mean, expected), 1e-6);
  EXPECT_TRUE(r.report.converged);
  EXPECT_LE(r.report.iterations, 3)
      << "the preconditioner is exact when the centres are all points";
}

TEST(Falkon, SolvesItsNormalEquationsWithFewCentres) {
  const Problem p = make_problem(2, 400, 30, 8);
  const auto k = make_kernel("gaussian", {{"sigma", "0.8"}});
  const double lambda = 1e-4;
  auto solver = make_solver(
      "falkon", {{"lambda", "1e-4"}, {"m", "40"}, {"seed", "3"}, {"iterations", "100"}});
  const Reached r = run_reaching(*solver, *k, p);
  // the same centres: seeded partial Fisher–Yates, as the plugin draws them
  std::vector<arma::uword> order(400);
  for (arma::uword i = 0; i < 400; ++i) order[i] = i;
  std::mt19937_64 rng(3);
  for (std::size_t i = 0; i < 40; ++i) {
    std::swap(order[i], order[std::uniform_int_distribution<std::size_t>(i, 399)(rng)]);
  }
  const arma::mat C =
      p.X.cols(arma::uvec(std::vector<arma::uword>(order.begin(), order.begin() + 40)));
  arma::mat K_nm, K_mm, K_tm;
  k->gram(p.X, C, K_nm);
  k->gram(C, K_mm);
  k->gram(p.Xt, C, K_tm);
  const arma::vec alpha = arma::solve(K_nm.t() * K_nm + lambda * 400 * K_mm, K_nm.t() * p.y);
  EXPECT_LE(relative_difference(r.prediction.mean, K_tm * alpha), 1e-6);
  EXPECT_TRUE(r.report.converged);
}

TEST(Falkon, RefusesMoreCentresThanPoints) {
  const Problem p = make_problem(2, 30, 5, 9);
  const auto k = make_kernel("gaussian");
  auto solver = make_solver("falkon", {{"m", "31"}});
  try {
    (void)run_reaching(*solver, *k, p);
    FAIL() << "31 centres from 30 points";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("falkon with m = 31 centres needs at least 31 training points, "
                                    "and the training part has 30; lower m"));
  }
}

}  // namespace
}  // namespace kexp::test
