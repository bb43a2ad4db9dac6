// kernel_ridge: a hand-worked problem, the in-place factorization, the error on a matrix
// that is not positive definite, and the shared band reduction of a λ sweep against one
// Cholesky per λ.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(KernelRidge, SolvesATinyProblemWorkedByHand) {
  // K = [2 1; 1 2], y = (1, 0), λ = 1: (K + I)⁻¹ = [3 −1; −1 3] / 8, β = (3, −1) / 8.
  // At a point with k = (1, 1): kᵀβ = 1/4. Fitted Kβ = y − λβ = (5/8, 1/8).
  auto solver = make_solver("kernel_ridge", {{"lambda", "1"}});
  const arma::mat K = {{2.0, 1.0}, {1.0, 2.0}};
  const arma::mat K_cross = arma::vec{1.0, 1.0};
  const FitResult run = run_dual(*solver, K, K_cross, arma::vec{1.0}, arma::vec{1.0, 0.0});
  EXPECT_NEAR(run.prediction.mean[0], 0.25, 1e-15);
  EXPECT_NEAR(run.report.fitted[0], 5.0 / 8.0, 1e-15);
  EXPECT_NEAR(run.report.fitted[1], 1.0 / 8.0, 1e-15);
  EXPECT_EQ(metric(run.report, "band_reduction"), 0.0);
}

TEST(KernelRidge, FactorsInPlaceAndHandsKBackIntactWhenOthersNeedIt) {
  const Problem p = make_problem(2, 50, 5, 21);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.7), K_cross = gaussian_gram(p.X, p.Xt, 0.7);
  auto solver = make_solver("kernel_ridge", {{"lambda", "0.01"}});
  const double n = 50;

  arma::mat kept = K;
  TrainingData train;
  train.gram = &kept;
  train.targets = &p.y;
  SolverReport copied;
  solver->fit(train, copied);
  EXPECT_TRUE(arma::approx_equal(kept, K, "absdiff", 0.0)) << "K changed without permission";
  EXPECT_EQ(copied.matrix_bytes, 8.0 * n);  // the saved diagonal only, no copy of K

  // Also when the factorization fails part-way: K + λI indefinite.
  arma::mat indefinite = {{1.0, 2.0, 0.5}, {2.0, 1.0, 0.25}, {0.5, 0.25, 3.0}};
  const arma::mat indefinite_before = indefinite;
  TrainingData bad;
  bad.gram = &indefinite;
  const arma::vec y3 = {1.0, 2.0, 3.0};
  bad.targets = &y3;
  SolverReport ignored;
  EXPECT_THROW(solver->fit(bad, ignored), NumericError);
  EXPECT_TRUE(arma::approx_equal(indefinite, indefinite_before, "absdiff", 0.0));

  arma::mat factored = K;
  train.gram = &factored;
  train.gram_writable = true;
  SolverReport in_place;
  solver->fit(train, in_place);
  EXPECT_EQ(in_place.matrix_bytes, 0.0);
  // The lower triangle now holds L with LLᵀ = K + λI.
  const arma::mat L = arma::trimatl(factored);
  arma::mat shifted = K;
  shifted.diag() += 0.01;
  const double eps = std::numeric_limits<double>::epsilon();
  // |LLᵀ − (K + λI)| ≤ γ_{n+1}|L||Lᵀ| ≤ (n+1)·ε/2·max aᵢᵢ (Higham 10.3); forming LLᵀ as much
  EXPECT_LT(arma::abs(L * L.t() - shifted).max(), (n + 1) * eps * arma::abs(shifted).max());
  EXPECT_LT(relative_difference(in_place.fitted, copied.fitted), 1e-15);
}

TEST(KernelRidge, MatrixThatIsNotPositiveDefiniteAsksForLargerLambdaOrValidKernel) {
  // Eigenvalues 3 and −1: K + λI is indefinite for λ < 1.
  const arma::mat K = {{1.0, 2.0}, {2.0, 1.0}};
  auto solver = make_solver("kernel_ridge", {{"lambda", "0.5"}});
  try {
    (void)run_dual(*solver, K, K, arma::vec{1.0, 1.0}, arma::vec{1.0, 2.0});
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), HasSubstr("not positive definite"));
    EXPECT_THAT(e.what(), HasSubstr("use a larger lambda, or a valid (PSD) kernel"));
  }
  // The same through the band reduction of a large λ group, on a matrix past several
  // panels of the bandwidth (eigenvalue −1 among 1 … 2): the error names the band form,
  // and K is handed back as it was.
  const arma::uword n = 200;
  arma::arma_rng::set_seed(5);
  const arma::mat Q = arma::orth(arma::randn(n, n));
  arma::vec eigenvalues = arma::linspace(1.0, 2.0, n);
  eigenvalues[n / 2] = -1.0;
  const arma::mat indefinite = arma::symmatu(Q * arma::diagmat(eigenvalues) * Q.t());
  arma::mat kept = indefinite;
  const arma::vec y = arma::ones(n);
  SharedState shared;
  TrainingData train;
  train.gram = &kept;
  train.targets = &y;
  train.shared = &shared;
  train.group_size = 100;
  SolverReport ignored;
  try {
    solver->fit(train, ignored);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), HasSubstr("band form"));
    EXPECT_THAT(e.what(), HasSubstr("use a larger lambda, or a valid (PSD) kernel"));
  }
  EXPECT_TRUE(arma::approx_equal(kept, indefinite, "absdiff", 0.0));
}

TEST(KernelRidge, SharedBandReductionGivesTheSameBetaAsCholesky) {
  // With K(X, X*) = I, the predictions are β itself. n = 200 is past three panels of the
  // bandwidth (64), so Q is a product of several block reflectors.
  const Problem p = make_problem(3, 200, 1, 22);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.8);
  const arma::mat identity = arma::eye(200, 200);
  const arma::vec diag(200, arma::fill::ones);
  const std::vector<double> lambdas = {1e-3, 1e-2, 1e-1, 1.0, 10.0};
  const std::size_t group = 10;  // more cells than a band reduction costs in Choleskys
  const double n = 200, eps = std::numeric_limits<double>::epsilon();
  const arma::vec eigenvalues = arma::eig_sym(K);
  SharedState shared;
  for (std::size_t i = 0; i < lambdas.size(); ++i) {
    const std::string l = fmt::format("{}", lambdas[i]);
    auto by_band = make_solver("kernel_ridge", {{"lambda", l}});
    const bool last = i + 1 == lambdas.size();
    const FitResult b = run_dual(*by_band, K, identity, diag, p.y, {last, &shared, group, i});
    auto by_cholesky = make_solver("kernel_ridge", {{"lambda", l}});
    const FitResult c = run_dual(*by_cholesky, K, identity, diag, p.y);
    const double kappa = (eigenvalues.max() + lambdas[i]) / (eigenvalues.min() + lambdas[i]);
    const arma::vec& beta = c.prediction.mean;
    // two backward-stable solves of (K + λI)β = y: ‖Δβ‖/‖β‖ ≤ n·ε·κ; κ ≈ 6.3e4 at λ = 1e-3
    EXPECT_LT(arma::norm(b.prediction.mean - beta) / arma::norm(beta), n * eps * kappa)
        << "λ = " << l;
    // f = y − λβ: ‖Δf‖/‖f‖ = λ‖Δβ‖/‖f‖ ≤ n·ε·κ·λ‖β‖/‖f‖
    EXPECT_LT(arma::norm(b.report.fitted - c.report.fitted) / arma::norm(c.report.fitted),
              n * eps * kappa * lambdas[i] * arma::norm(beta) / arma::norm(c.report.fitted))
        << "λ = " << l;
    EXPECT_EQ(metric(b.report, "band_reduction"), 1.0);
    EXPECT_EQ(metric(c.report, "band_reduction"), 0.0);
    // The first cell reduces K and carries the cost; the others reuse it.
    EXPECT_EQ(metric(b.report, "decomposition_shared"), i == 0 ? 0.0 : 1.0);
    if (i == 0) {
      // The Householder vectors, about n²/2, B, LAPACK's workspace, the saved diagonal and
      // the factor of B + λI: no copy of K.
      EXPECT_GT(b.report.matrix_bytes, 8.0 * (n - 64) * (n - 64) / 2);
      EXPECT_LT(b.report.matrix_bytes, 8.0 * (n * n / 2 + 8 * n * 64));
      EXPECT_GT(b.report.fit_flops, 4.0 / 3.0 * n * n * n);
    } else {
      EXPECT_EQ(b.report.matrix_bytes, 8.0 * 65 * n);  // the factor of B + λI, (b + 1) × n
      EXPECT_LT(b.report.fit_flops, n * n * n / 3.0);  // less than one Cholesky
    }
  }
}

TEST(KernelRidge, BandReductionHandsKBackIntactToEachCellOfTheGroup) {
  // One K through a whole group, as the runner passes it: every cell but the last must
  // leave K exactly as it was, and each agrees with a Cholesky on its own copy.
  const Problem p = make_problem(2, 150, 5, 24);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.7);
  const std::vector<double> lambdas = {1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0};
  const double n = 150, eps = std::numeric_limits<double>::epsilon();
  const arma::vec eigenvalues = arma::eig_sym(K);
  arma::mat shared_K = K;
  SharedState shared;
  for (std::size_t i = 0; i < lambdas.size(); ++i) {
    const std::string l = fmt::format("{}", lambdas[i]);
    TrainingData train;
    train.gram = &shared_K;
    train.gram_writable = i + 1 == lambdas.size();
    train.targets = &p.y;
    train.shared = &shared;
    train.group_size = lambdas.size();
    train.group_position = i;
    SolverReport report;
    make_solver("kernel_ridge", {{"lambda", l}})->fit(train, report);
    EXPECT_EQ(metric(report, "band_reduction"), 1.0);
    if (!train.gram_writable) {
      EXPECT_TRUE(arma::approx_equal(shared_K, K, "absdiff", 0.0)) << "K changed at λ = " << l;
    }
    arma::mat own = K;
    TrainingData alone;
    alone.gram = &own;
    alone.targets = &p.y;
    SolverReport by_cholesky;
    make_solver("kernel_ridge", {{"lambda", l}})->fit(alone, by_cholesky);
    const double kappa = (eigenvalues.max() + lambdas[i]) / (eigenvalues.min() + lambdas[i]);
    const arma::vec& f = by_cholesky.fitted;  // λβ = y − f
    // |Δf|∞ = λ|Δβ|∞ ≤ λ‖β‖₂·n·ε·κ(K + λI) = n·ε·κ·‖y − f‖₂; κ ≈ 6.4e5 at λ = 1e-4
    EXPECT_LT(relative_difference(report.fitted, f),
              n * eps * kappa * arma::norm(p.y - f) / std::max(1.0, arma::abs(f).max()))
        << "λ = " << l;
  }
}

TEST(KernelRidge, GroupSizeChoosesBetweenCholeskyAndTheBandReduction) {
  // One reduction costs about five Choleskys: five cells factor, six share a reduction.
  const Problem p = make_problem(2, 30, 4, 25);
  const arma::mat K = gaussian_gram(p.X, p.X, 1.0), K_cross = gaussian_gram(p.X, p.Xt, 1.0);
  for (const std::size_t group : {1U, 5U, 6U}) {
    SharedState shared;
    auto solver = make_solver("kernel_ridge", {{"lambda", "0.1"}});
    const FitResult run = run_dual(*solver, K, K_cross, arma::vec(4, arma::fill::ones), p.y,
                                   {false, &shared, group, 0});
    EXPECT_EQ(metric(run.report, "band_reduction"), group > 5 ? 1.0 : 0.0) << group;
    EXPECT_EQ(shared.get("kernel_ridge/band") != nullptr, group > 5) << group;
  }
}

TEST(KernelRidge, MixedPrecisionPredictsAsDoubleAndSingleWithinFloat32) {
  const Problem p = make_problem(2, 300, 20, 4);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.7), K_cross = gaussian_gram(p.X, p.Xt, 0.7);
  const auto fit = [&](const char* precision) {
    auto solver = make_solver("kernel_ridge", {{"lambda", "0.1"}, {"precision", precision}});
    return run_dual(*solver, K, K_cross, arma::vec(20, arma::fill::ones), p.y);
  };
  const FitResult twice = fit("double"), refined = fit("mixed");
  EXPECT_LT(relative_difference(refined.prediction.mean, twice.prediction.mean), 1e-12);
  EXPECT_GE(metric(refined.report, "refinement_steps"), 1.0);
  EXPECT_EQ(metric(refined.report, "precision_fallback"), 0.0);
  // The float32 copy of K + λI is counted; float64 counts only the saved diagonal.
  EXPECT_GE(refined.report.matrix_bytes, 4.0 * 300 * 300);

  // single builds K itself, in float32, from the kernel's formula
  const auto gaussian = make_kernel("gaussian", {{"sigma", "0.7"}});
  auto single = make_solver("kernel_ridge", {{"lambda", "0.1"}, {"precision", "single"}});
  const FitResult once = run_reaching(*single, *gaussian, p);
  const double single_error = relative_difference(once.prediction.mean, twice.prediction.mean);
  EXPECT_LT(single_error, 1e-4);
  EXPECT_GT(single_error, 1e-10) << "single ran in float64";
  EXPECT_EQ(metric(once.report, "refinement_steps"), 0.0);
  EXPECT_EQ(metric(once.report, "gram_converted"), 0.0);
  // its float32 K, and no float64 one: half of 8n²
  EXPECT_GE(once.report.matrix_bytes, 4.0 * 300 * 300);
  EXPECT_LT(once.report.matrix_bytes, 8.0 * 300 * 300);
}

TEST(KernelRidge, SingleWithAKernelWithoutADeviceFormRoundsItsFloat64Gram) {
  const Problem p = make_problem(2, 200, 15, 6);
  const auto cubic = make_kernel("cubic");
  arma::mat K, K_cross;
  cubic->gram(p.X, K);
  cubic->gram(p.X, p.Xt, K_cross);
  auto twice = make_solver("kernel_ridge", {{"lambda", "1"}});
  const FitResult exact = run_dual(*twice, K, K_cross, arma::vec(15, arma::fill::ones), p.y);
  auto single = make_solver("kernel_ridge", {{"lambda", "1"}, {"precision", "single"}});
  const FitResult once = run_reaching(*single, *cubic, p);
  EXPECT_EQ(metric(once.report, "gram_converted"), 1.0);
  const double error = relative_difference(once.prediction.mean, exact.prediction.mean);
  EXPECT_LT(error, 1e-3);
  EXPECT_GT(error, 1e-10) << "single ran in float64";
}

TEST(KernelRidge, SingleSaysWhenFloat32CannotHoldKPlusLambdaI) {
  const Problem p = make_problem(2, 200, 10, 8);
  const auto gaussian = make_kernel("gaussian", {{"sigma", "3"}});
  auto single = make_solver("kernel_ridge", {{"lambda", "1e-12"}, {"precision", "single"}});
  try {
    (void)run_reaching(*single, *gaussian, p);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), HasSubstr("not positive definite in single precision"));
    EXPECT_THAT(e.what(), HasSubstr("use precision: mixed"));
  }
}

TEST(KernelRidge, MixedPrecisionFallsBackOnAnIllConditionedKAndHandsKBack) {
  const Problem p = make_problem(2, 200, 10, 8);
  const arma::mat K = gaussian_gram(p.X, p.X, 3.0);
  auto mixed = make_solver("kernel_ridge", {{"lambda", "1e-10"}, {"precision", "mixed"}});
  arma::mat kept = K;
  TrainingData train;
  train.gram = &kept;
  train.targets = &p.y;
  SolverReport report;
  mixed->fit(train, report);
  EXPECT_EQ(metric(report, "precision_fallback"), 1.0);
  EXPECT_TRUE(arma::approx_equal(kept, K, "absdiff", 0.0)) << "K changed without permission";
  auto twice = make_solver("kernel_ridge", {{"lambda", "1e-10"}});
  arma::mat again = K;
  train.gram = &again;
  SolverReport twice_report;
  twice->fit(train, twice_report);
  EXPECT_LT(relative_difference(report.fitted, twice_report.fitted), 1e-12);
}

TEST(KernelRidge, PrecisionOtherThanDoubleIsRefusedOnTheGpu) {
  try {
    (void)make_solver("kernel_ridge", {{"device", "cuda"}, {"precision", "mixed"}});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_THAT(e.what(), HasSubstr("device: cuda runs in float64 only; use precision: double"));
  }
}

}  // namespace
}  // namespace kexp::test
