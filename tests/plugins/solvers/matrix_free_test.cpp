// The solvers that reach the kernel (flags::kernel_inputs): cg_ridge against kernel ridge
// solved by hand to its tolerance; falkon with every training point a centre against
// kernel ridge with λ·n, with few centres against its own normal equations
// (K_nmᵀK_nm + λnK_mm)α = K_nmᵀy solved in quadruple precision; the memory each says it
// holds; and their errors.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

using Reached = FitResult;

// The reference for systems too ill-conditioned for a double-precision solve: 113-bit
// floating point (GCC's __float128, in software), or long double where there is none.
#if defined(__SIZEOF_FLOAT128__)
__extension__ typedef __float128 Wide;
#else
typedef long double Wide;
#endif

/// x with (AᵀA + c·B)x = Aᵀb, B symmetric, every sum and the LDLᵀ factorization in Wide:
/// its relative error is about κ·u with u = 2⁻¹¹³, so negligible below κ ≈ 10²⁰.
arma::vec normal_equations_in_wide(const arma::mat& A, double c, const arma::mat& B,
                                   const arma::vec& b) {
  const arma::uword n = A.n_rows, m = A.n_cols;
  std::vector<Wide> M(m * m), x(m);
  const auto at = [m](arma::uword i, arma::uword j) { return i * m + j; };
  for (arma::uword i = 0; i < m; ++i) {
    for (arma::uword j = 0; j <= i; ++j) {
      Wide s = Wide(c) * Wide(B(i, j));
      for (arma::uword r = 0; r < n; ++r) s += Wide(A(r, i)) * Wide(A(r, j));
      M[at(i, j)] = s;
    }
    Wide s = 0;
    for (arma::uword r = 0; r < n; ++r) s += Wide(A(r, i)) * Wide(b(r));
    x[i] = s;
  }
  // M = LDLᵀ in place (L unit lower below the diagonal, D on it), then L, D and Lᵀ solves
  for (arma::uword j = 0; j < m; ++j) {
    for (arma::uword q = 0; q < j; ++q) M[at(j, j)] -= M[at(j, q)] * M[at(j, q)] * M[at(q, q)];
    for (arma::uword i = j + 1; i < m; ++i) {
      for (arma::uword q = 0; q < j; ++q) M[at(i, j)] -= M[at(i, q)] * M[at(j, q)] * M[at(q, q)];
      M[at(i, j)] /= M[at(j, j)];
    }
  }
  for (arma::uword i = 0; i < m; ++i)
    for (arma::uword q = 0; q < i; ++q) x[i] -= M[at(i, q)] * x[q];
  for (arma::uword i = 0; i < m; ++i) x[i] /= M[at(i, i)];
  for (arma::uword i = m; i-- > 0;)
    for (arma::uword q = i + 1; q < m; ++q) x[i] -= M[at(q, i)] * x[q];
  arma::vec out(m);
  for (arma::uword i = 0; i < m; ++i) out(i) = static_cast<double>(x[i]);
  return out;
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

TEST(CgRidge, ConvergedMeansTheTrueResidualIsWithinTheTolerance) {
  // On an ill-conditioned K + λI (κ = (λmax + λ)/λ up to 10¹¹ here) the recurrence's
  // residual drifts below the true ‖y − (K + λI)β‖ / ‖y‖ that relative_residual reports:
  // it reached the tolerance 1e-10 while the true residual was 1.6e-9 (σ = 3, λ = 1e-6),
  // and cg_ridge said converged. Converged must mean the true residual is within it.
  const Problem p = make_problem(5, 400, 10, 17);
  int converged = 0, not_converged = 0;
  for (const char* sigma : {"3", "10"}) {
    for (const char* lambda : {"1e-2", "1e-6", "1e-8"}) {  // 1e-2: well conditioned
      for (const char* tolerance : {"1e-8", "1e-10"}) {
        SCOPED_TRACE(fmt::format("σ = {}, λ = {}, tolerance = {}", sigma, lambda, tolerance));
        const auto k = make_kernel("gaussian", {{"sigma", sigma}});
        auto solver = make_solver(
            "cg_ridge", {{"lambda", lambda}, {"tolerance", tolerance}, {"iterations", "1500"}});
        const Reached r = run_reaching(*solver, *k, p);
        const double residual = metric(r.report, "relative_residual");
        ASSERT_TRUE(std::isfinite(residual));
        EXPECT_LE(r.report.iterations, 1500);
        if (r.report.converged) {
          EXPECT_LE(residual, std::stod(tolerance));
          ++converged;
        } else {
          EXPECT_GT(residual, std::stod(tolerance));
          ++not_converged;
        }
      }
    }
  }
  EXPECT_GT(converged, 0);  // both outcomes occur over this grid
  EXPECT_GT(not_converged, 0);
}

TEST(CgRidge, HoldsOneTileOfKAThreadNotK) {
  auto solver = make_solver("cg_ridge");
  const double n = 100000;
  // seven n-vectors, the predictions, and a tile of 2¹⁶ entries of K on each thread
  EXPECT_EQ(solver->memory_bytes(100000, 1000, 10),
            8.0 * (7 * n + 1000) + 8.0 * thread_count() * 65536);
  EXPECT_LT(solver->memory_bytes(100000, 1000, 10), 0.01 * 8 * n * n);
}

TEST(Falkon, WithEveryPointACentreIsKernelRidgeWithLambdaTimesN) {
  const Problem p = make_problem(3, 250, 30, 7);
  const auto k = make_kernel("gaussian", {{"sigma", "1.5"}});
  // With every point a centre, K_mm is K, numerically singular here (κ ≈ 4e18; falkon
  // factors it with a jitter), and the true residual b − Hβ, computed through those
  // factors, carries rounding of about 4e-8 whatever β is: converged is judged against a
  // tolerance above that, 1e-6, not the default 1e-10, which cannot be reached.
  auto solver = make_solver("falkon", {{"lambda", "1e-3"}, {"m", "250"}, {"tolerance", "1e-6"}});
  const Reached r = run_reaching(*solver, *k, p);
  const arma::vec expected = kernel_ridge_by_hand(*k, p, 1e-3 * 250);
  EXPECT_LE(relative_difference(r.prediction.mean, expected), 1e-6);
  EXPECT_TRUE(r.report.converged) << metric(r.report, "relative_residual");
  EXPECT_LE(metric(r.report, "relative_residual"), 1e-6);
  EXPECT_LE(r.report.iterations, 3)
      << "the preconditioner is exact when the centres are all points";
}

TEST(Falkon, SolvesItsNormalEquationsWithFewCentres) {
  const Problem p = make_problem(2, 400, 30, 8);
  const auto k = make_kernel("gaussian", {{"sigma", "0.8"}});
  const double lambda = 1e-4;
  // The true residual b − Hβ carries rounding of about 2e-10 here (κ(K_mm) ≈ 1e11): the
  // tolerance is 1e-9, above it.
  auto solver = make_solver("falkon", {{"lambda", "1e-4"},
                                       {"m", "40"},
                                       {"seed", "3"},
                                       {"iterations", "100"},
                                       {"tolerance", "1e-9"}});
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
  // The normal equations are nearly singular (κ(M) ≈ 4e14: K_mm's κ is 1e11 and K_nmᵀK_nm
  // squares K_nm's), so a double-precision solve of them is itself wrong by up to 1e-6 in
  // the predictions, and by how much depends on the BLAS: the reference is solved in Wide.
  const arma::vec alpha = normal_equations_in_wide(K_nm, lambda * 400, K_mm, p.y);
  const double kappa = arma::cond(K_nm.t() * K_nm + lambda * 400 * K_mm);
  const double eps = std::numeric_limits<double>::epsilon(), tolerance = 1e-9;
  // falkon applies K_nm and T⁻¹ one at a time and never forms M, so, like a least-squares
  // solve with K_nm, its predictions carry about ε·κ(K_nm) = ε·√κ(M) of rounding, times m
  // for the m-term sums, plus CG's stop at 1e-9 of the preconditioned residual (≈ I):
  // m·ε·√κ(M) + 10·tol ≈ 2e-7 here; measured 5e-9 on four OpenBLAS cores, 1 and 2 threads.
  const double bound = 40 * eps * std::sqrt(kappa) + 10 * tolerance;
  EXPECT_LE(relative_difference(r.prediction.mean, K_tm * alpha), bound) << "κ(M) = " << kappa;
  EXPECT_TRUE(r.report.converged) << metric(r.report, "relative_residual");
  EXPECT_LE(metric(r.report, "relative_residual"), tolerance);
}

TEST(Falkon, MixedPrecisionPredictsAsFloat64ToFloat32Rounding) {
  const Problem p = make_problem(3, 2000, 50, 12);
  const arma::vec truth = arma::sin(2.0 * arma::sum(p.Xt, 0)).t();
  for (const char* sigma : {"0.5", "1.2"}) {
    SCOPED_TRACE(sigma);
    const auto k = make_kernel("gaussian", {{"sigma", sigma}});
    const auto fit = [&](const char* precision) {
      auto solver = make_solver(
          "falkon",
          {{"lambda", "1e-3"}, {"m", "200"}, {"tolerance", "1e-6"}, {"precision", precision}});
      return run_reaching(*solver, *k, p);
    };
    const Reached twice = fit("double"), mixed = fit("mixed");
    // float32 kernel values: 4.8·10⁻⁶ (σ = 0.5) and 3.5·10⁻⁵ (σ = 1.2)
    const double difference = relative_difference(mixed.prediction.mean, twice.prediction.mean);
    EXPECT_LT(difference, 1e-3);
    EXPECT_GT(difference, 1e-12) << "mixed ran in float64";
    // conjugate gradients on float32 kernel values with float64 products converge as in
    // float64
    EXPECT_TRUE(mixed.report.converged) << metric(mixed.report, "relative_residual");
    EXPECT_LE(mixed.report.iterations, twice.report.iterations + 2);
    const double rmse_double = arma::norm(twice.prediction.mean - truth) / std::sqrt(50.0);
    const double rmse_mixed = arma::norm(mixed.prediction.mean - truth) / std::sqrt(50.0);
    EXPECT_NEAR(rmse_mixed, rmse_double, 1e-3 * rmse_double);
    // K_mm at σ = 1.2 has pivots below float32's resolution: mixed raises the jitter to
    // εm = 2⁻²³; at σ = 0.5 it keeps float64's, and float64's model
    const double jitter = metric(mixed.report, "jitter");
    if (std::string(sigma) == "1.2") {
      EXPECT_DOUBLE_EQ(jitter * 200, 0x1p-23);
    } else {
      EXPECT_EQ(jitter, metric(twice.report, "jitter"));
    }
    EXPECT_EQ(metric(mixed.report, "gram_converted"), 0.0);
    EXPECT_TRUE(std::isnan(metric(twice.report, "gram_converted")));
  }
}

TEST(CgRidge, MixedPrecisionConvergesToKernelRidgeToFloat32Rounding) {
  const Problem p = make_problem(3, 300, 40, 5);
  const auto k = make_kernel("gaussian", {{"sigma", "1.5"}});
  auto solver =
      make_solver("cg_ridge", {{"lambda", "0.1"}, {"tolerance", "1e-5"}, {"precision", "mixed"}});
  const Reached r = run_reaching(*solver, *k, p);
  const arma::vec expected = kernel_ridge_by_hand(*k, p, 0.1);
  EXPECT_TRUE(r.report.converged);
  const double difference = relative_difference(r.prediction.mean, expected);
  EXPECT_LT(difference, 1e-4);
  EXPECT_GT(difference, 1e-12) << "mixed ran in float64";
  // a float32 copy of the points (training and test); float32 tiles of float64's bytes
  auto twice = make_solver("cg_ridge");
  EXPECT_DOUBLE_EQ(solver->memory_bytes(100000, 1000, 10) - twice->memory_bytes(100000, 1000, 10),
                   4.0 * 101000 * 10);
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
