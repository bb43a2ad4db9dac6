// Solver::fit_flops_bound of every built-in solver: at least the flops the fit reports
// when it runs every iteration its parameters allow, growing with the iterations, the
// restarts and the evaluations, and negative (unknown) for a solver that reaches the
// kernel when it is not given one.
#include <gtest/gtest.h>

#include <string>

#include "kexp/device.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

constexpr arma::uword kN = 120, kM = 20, kD = 3;

/// The bound and what the fit reported, for a solver run on a Gaussian K.
void expect_bound_holds_on_gram(const std::string& name, const TextParams& params,
                                const arma::vec& y) {
  SCOPED_TRACE(name);
  const Problem p = make_problem(kD, kN, kM, 11);
  auto solver = make_solver(name, params);
  const FitResult r =
      run_dual(*solver, gaussian_gram(p.X, p.X, 1.0), gaussian_gram(p.X, p.Xt, 1.0),
               arma::ones<arma::vec>(kM), y, {},
               name == "kernel_ridge_classifier" ? Task::Classification : Task::Regression);
  const double bound = solver->fit_flops_bound(kN, kD, nullptr);
  EXPECT_GT(r.report.fit_flops, 0);
  EXPECT_GE(bound, r.report.fit_flops);
  EXPECT_LT(bound, 20 * r.report.fit_flops);  // near what it bounds
}

TEST(FitFlopsBound, HoldsForEverySolverThatReadsK) {
  const Problem p = make_problem(kD, kN, kM, 11);
  const arma::vec labels = arma::sign(p.y - arma::median(p.y)) + (p.y == arma::median(p.y));
  expect_bound_holds_on_gram("kernel_ridge", {{"lambda", "0.1"}}, p.y);
  expect_bound_holds_on_gram("kernel_ridge_classifier", {{"lambda", "0.1"}}, labels);
  expect_bound_holds_on_gram("nadaraya_watson", {}, p.y);
  expect_bound_holds_on_gram("gp_regression", {{"noise", "0.1"}}, p.y);
  expect_bound_holds_on_gram("kernel_ridge", {{"lambda", "0.1"}, {"precision", "mixed"}}, p.y);
  expect_bound_holds_on_gram("gp_regression", {{"noise", "0.1"}, {"precision", "mixed"}}, p.y);
  // mixed precision falling back to float64 (λ far below float32's resolution of K)
  expect_bound_holds_on_gram("gp_regression", {{"noise", "1e-12"}, {"precision", "mixed"}}, p.y);
  // every iteration runs: no tolerance reached
  expect_bound_holds_on_gram("dual_gd", {{"iterations", "400"}, {"tolerance", "1e-300"}}, p.y);
}

TEST(FitFlopsBound, HoldsForThePrimalSolversInTheirFeatures) {
  const Problem p = make_problem(kD, kN, kM, 12);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);
  for (const auto& [name, params] : std::vector<std::pair<std::string, TextParams>>{
           {"primal_ridge", {{"lambda", "0.1"}}},
           {"primal_ridge", {{"lambda", "0.1"}, {"precision", "single"}}},
           {"primal_ridge", {{"lambda", "0.1"}, {"precision", "mixed"}}},
           {"primal_gd", {{"iterations", "400"}, {"tolerance", "1e-300"}}},
           {"linear_svr", {{"epochs", "40"}, {"tolerance", "1e-300"}}}}) {
    SCOPED_TRACE(name);
    auto solver = make_solver(name, params);
    const FitResult r = run_primal(*solver, Phi, Phi_test, p.y);
    const double bound = solver->fit_flops_bound(kN, Phi.n_rows, nullptr);
    EXPECT_GT(r.report.fit_flops, 0);
    EXPECT_GE(bound, r.report.fit_flops);
    EXPECT_LT(bound, 20 * r.report.fit_flops);
  }
}

TEST(FitFlopsBound, HoldsForTheSolversThatReachTheKernel) {
  const Problem p = make_problem(kD, kN, kM, 13);
  const auto k = make_kernel("gaussian", {{"sigma", "1"}});
  for (const auto& [name, params] : std::vector<std::pair<std::string, TextParams>>{
           {"cg_ridge", {{"lambda", "1e-9"}, {"tolerance", "1e-300"}, {"iterations", "30"}}},
           {"falkon",
            {{"lambda", "1e-9"}, {"m", "30"}, {"tolerance", "1e-300"}, {"iterations", "30"}}},
           {"gp_regression", {{"optimize", "true"}, {"evaluations", "15"}, {"restarts", "1"}}},
           {"svr", {{"iterations", "30"}, {"tolerance", "1e-300"}}}}) {
    SCOPED_TRACE(name);
    auto solver = make_solver(name, params);
    const FitResult r = run_reaching(*solver, *k, p);
    const double bound = solver->fit_flops_bound(kN, kD, k.get());
    EXPECT_GT(r.report.fit_flops, 0);
    EXPECT_GE(bound, r.report.fit_flops);
    EXPECT_LT(bound, 20 * r.report.fit_flops);
    EXPECT_LT(solver->fit_flops_bound(kN, kD, nullptr), 0) << "no kernel: unknown";
  }
}

TEST(FitFlopsBound, HoldsForTheSolversOnTheGpu) {
  // without a GPU: the bound of a solver that builds K on the GPU counts K
  const auto k = make_kernel("gaussian", {{"sigma", "1"}});
  EXPECT_DOUBLE_EQ(
      make_solver("gp_regression", {{"device", "cuda"}})->fit_flops_bound(kN, kD, k.get()) -
          make_solver("gp_regression")->fit_flops_bound(kN, kD, k.get()),
      k->gram_flops(kN, kN, kD));
  if (!device::gpu_info().present) GTEST_SKIP() << "no GPU: " << device::gpu_info().reason;
  const Problem p = make_problem(kD, kN, kM, 13);
  for (const auto& [name, params] :
       std::vector<std::pair<std::string, TextParams>>{{"kernel_ridge", {{"device", "cuda"}}},
                                                       {"gp_regression", {{"device", "cuda"}}},
                                                       {"cg_ridge",
                                                        {{"lambda", "1e-9"},
                                                         {"tolerance", "1e-300"},
                                                         {"iterations", "30"},
                                                         {"device", "cuda"}}},
                                                       {"falkon",
                                                        {{"lambda", "1e-9"},
                                                         {"m", "30"},
                                                         {"tolerance", "1e-300"},
                                                         {"iterations", "30"},
                                                         {"device", "cuda"}}}}) {
    SCOPED_TRACE(name);
    auto solver = make_solver(name, params);
    const FitResult r = run_reaching(*solver, *k, p);
    EXPECT_GT(r.report.fit_flops, 0);
    EXPECT_GE(solver->fit_flops_bound(kN, kD, k.get()), r.report.fit_flops);
  }
}

TEST(FitFlopsBound, GrowsWithWhatRepeatsTheWork) {
  const auto k = make_kernel("gaussian", {{"sigma", "1"}});
  const auto bound = [&](const std::string& name, const TextParams& p) {
    return make_solver(name, p)->fit_flops_bound(1000, 10, k.get());
  };
  EXPECT_GT(bound("dual_gd", {{"iterations", "1000000000000"}}),
            1e8 * bound("dual_gd", {{"iterations", "1000"}}));
  EXPECT_GT(bound("cg_ridge", {{"iterations", "1000000000000"}}),
            1e8 * bound("cg_ridge", {{"iterations", "1000"}}));
  EXPECT_GT(bound("gp_regression", {{"optimize", "true"}, {"restarts", "1000000000"}}),
            1e8 * bound("gp_regression", {{"optimize", "true"}, {"restarts", "1"}}));
  EXPECT_GT(bound("falkon", {{"iterations", "2000"}}),
            50 * bound("falkon", {{"iterations", "20"}}));
}

}  // namespace
}  // namespace kexp::test
