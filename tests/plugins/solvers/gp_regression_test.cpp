// gp_regression: a two-point problem worked by hand, the mean against kernel_ridge with
// λ = noise, and variance and log marginal likelihood against their direct formulas.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "kernel_algebra/composite_kernel.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "solvers/gp_likelihood.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(GpRegression, TwoPointProblemWorkedByHand) {
  // K = [1 ½; ½ 1], noise 0.1: C = [1.1 ½; ½ 1.1], det C = 0.96,
  // C⁻¹ = [1.1 −½; −½ 1.1] / 0.96. t = (1, −1): C⁻¹t = (1.6, −1.6) / 0.96.
  // Test point x* = x₁: k = (1, ½), k(x*, x*) = 1.
  //   mean  kᵀC⁻¹t = (1.6 − 0.8) / 0.96
  //   C⁻¹k = (0.85, 0.05) / 0.96, kᵀC⁻¹k = 0.875 / 0.96, var_f = 1 − 0.875 / 0.96
  //   log p(t) = −½ · 3.2 / 0.96 − ½ log 0.96 − log 2π
  auto solver = make_solver("gp_regression", {{"noise", "0.1"}});
  const arma::mat K = {{1.0, 0.5}, {0.5, 1.0}};
  const arma::mat K_cross = arma::vec{1.0, 0.5};
  const FitResult run = run_dual(*solver, K, K_cross, arma::vec{1.0}, arma::vec{1.0, -1.0});
  EXPECT_NEAR(run.prediction.mean[0], 0.8 / 0.96, 1e-14);
  ASSERT_EQ(run.prediction.var_f.n_elem, 1U);
  EXPECT_NEAR(run.prediction.var_f[0], 1.0 - 0.875 / 0.96, 1e-14);
  EXPECT_NEAR(run.prediction.var_y[0], 1.0 - 0.875 / 0.96 + 0.1, 1e-14);
  const double lml = -0.5 * 3.2 / 0.96 - 0.5 * std::log(0.96) - std::log(2.0 * arma::datum::pi);
  EXPECT_NEAR(metric(run.report, "log_marginal_likelihood"), lml, 1e-14);
}

TEST(GpRegression, MeanEqualsKernelRidgeWithLambdaEqualToNoise) {
  const Problem p = make_problem(2, 120, 40, 51);
  const arma::mat K = gaussian_gram(p.X, p.X, 0.6), K_cross = gaussian_gram(p.X, p.Xt, 0.6);
  const arma::vec diag(40, arma::fill::ones);
  for (const char* noise : {"1e-3", "0.05", "1"}) {
    auto gp = make_solver("gp_regression", {{"noise", noise}});
    auto ridge = make_solver("kernel_ridge", {{"lambda", noise}});
    const FitResult g = run_dual(*gp, K, K_cross, diag, p.y, {true});
    const FitResult r = run_dual(*ridge, K, K_cross, diag, p.y);
    const double kappa = arma::cond(K + std::stod(noise) * arma::eye(120, 120));
    // two backward-stable solves of C = K + noise·I: ≤ 2·n·ε·κ(C); κ up to 4e4 (noise 1e-3)
    const double tolerance = 2.0 * 120 * kEps * kappa;
    EXPECT_LT(relative_difference(g.prediction.mean, r.prediction.mean), tolerance) << noise;
    EXPECT_LT(relative_difference(g.report.fitted, r.report.fitted), tolerance) << noise;
  }
}

TEST(GpRegression, VarianceAndLogMarginalLikelihoodMatchTheirDirectFormulas) {
  const Problem p = make_problem(3, 60, 25, 52);
  const double noise = 0.02, sigma = 0.9;
  const arma::mat K = gaussian_gram(p.X, p.X, sigma), K_cross = gaussian_gram(p.X, p.Xt, sigma);
  const arma::vec diag(25, arma::fill::ones);
  auto gp = make_solver("gp_regression", {{"noise", "0.02"}});
  const FitResult run = run_dual(*gp, K, K_cross, diag, p.y);

  const arma::mat C = K + noise * arma::eye(60, 60);
  const arma::mat C_inv = arma::inv_sympd(C);
  const arma::vec var_f = diag - arma::sum(K_cross % (C_inv * K_cross), 0).t();
  double log_det = 0, sign = 0;
  arma::log_det(log_det, sign, C);
  const double lml = -0.5 * arma::as_scalar(p.y.t() * C_inv * p.y) - 0.5 * log_det -
                     30.0 * std::log(2.0 * arma::datum::pi);
  // Cholesky vs inv_sympd, both backward stable: ≤ 2·n·ε·κ(C)·(k** or |log p|); κ(C) ≈ 1.2e3
  const double tolerance = 2.0 * 60 * kEps * arma::cond(C);
  EXPECT_LT(arma::abs(run.prediction.var_f - var_f).max(), tolerance * diag.max());
  EXPECT_LT(arma::abs(run.prediction.var_y - (var_f + noise)).max(), tolerance * diag.max());
  EXPECT_NEAR(metric(run.report, "log_marginal_likelihood"), lml, tolerance * std::abs(lml));
  EXPECT_TRUE(arma::all(run.prediction.var_f >= 0));
  EXPECT_EQ(run.report.matrix_bytes, 8.0 * (60 * 60 + 60 * 25));  // copy of K, L⁻¹K(X, X*)
}

TEST(GpRegression, MixedPrecisionPredictsMeanAndVarianceAsFloat64Does) {
  const Problem p = make_problem(3, 300, 60, 53);
  const double sigma = 0.8;
  const arma::mat K = gaussian_gram(p.X, p.X, sigma), K_cross = gaussian_gram(p.X, p.Xt, sigma);
  const arma::vec diag(60, arma::fill::ones);
  for (const char* noise : {"0.1", "1e-3"}) {
    auto in_double = make_solver("gp_regression", {{"noise", noise}});
    auto mixed = make_solver("gp_regression", {{"noise", noise}, {"precision", "mixed"}});
    const FitResult d = run_dual(*in_double, K, K_cross, diag, p.y);
    const FitResult m = run_dual(*mixed, K, K_cross, diag, p.y);
    EXPECT_EQ(metric(m.report, "precision_fallback"), 0.0) << noise;
    EXPECT_GE(metric(m.report, "refinement_steps"), 1.0) << noise;
    EXPECT_EQ(metric(d.report, "refinement_steps"), 0.0);
    const double kappa = arma::cond(K + std::stod(noise) * arma::eye(300, 300));
    // The mean as accurate as a float64 solve: ≤ 2·n·ε·κ(C) apart (κ up to 2e5 at 1e-3)
    const double tolerance = 2.0 * 300 * kEps * kappa;
    EXPECT_LT(relative_difference(m.prediction.mean, d.prediction.mean), tolerance) << noise;
    // The variances and log det C from the float32 factor, unrefined: float32's accuracy
    // (measured: variances 4.9e-7 and 8.4e-7 apart, log p(t) 5.7e-5 and 8.2e-3).
    const double var_diff = arma::abs(m.prediction.var_f - d.prediction.var_f).max();
    EXPECT_GT(var_diff, 0.0) << "ran in float64";
    EXPECT_LT(var_diff, 1e-3) << noise;
    const double lml = metric(d.report, "log_marginal_likelihood");
    EXPECT_NEAR(metric(m.report, "log_marginal_likelihood"), lml, 1e-4 * std::abs(lml)) << noise;
    // K not writable: copied as in float64 (8n²), and the float32 factor besides (4n²)
    EXPECT_EQ(m.report.matrix_bytes - d.report.matrix_bytes, 4.0 * 300 * 300 + 4.0 * 300 * 60);
    EXPECT_TRUE(arma::all(m.prediction.var_f >= 0.0));
  }
}

TEST(GpRegression, MixedPrecisionFallsBackToFloat64WhereFloat32CannotHoldC) {
  const Problem p = make_problem(2, 200, 20, 54);
  const arma::mat K = gaussian_gram(p.X, p.X, 2.0), K_cross = gaussian_gram(p.X, p.Xt, 2.0);
  const arma::vec diag(20, arma::fill::ones);
  auto in_double = make_solver("gp_regression", {{"noise", "1e-10"}});
  auto mixed = make_solver("gp_regression", {{"noise", "1e-10"}, {"precision", "mixed"}});
  const FitResult d = run_dual(*in_double, K, K_cross, diag, p.y);
  const FitResult m = run_dual(*mixed, K, K_cross, diag, p.y);
  EXPECT_EQ(metric(m.report, "precision_fallback"), 1.0);
  EXPECT_TRUE(arma::approx_equal(m.prediction.mean, d.prediction.mean, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(m.prediction.var_f, d.prediction.var_f, "absdiff", 0.0));
  EXPECT_EQ(metric(m.report, "log_marginal_likelihood"),
            metric(d.report, "log_marginal_likelihood"));
}

TEST(GpRegression, LearningRefusesMixedPrecision) {
  EXPECT_THAT(
      [] {
        make_solver("gp_regression", {{"optimize", "true"}, {"precision", "mixed"}});
      },
      ThrowsMessage<PluginError>(HasSubstr("use precision: double with optimize")));
}

TEST(GpRegression, VarianceAtATrainingPointIsBelowTheNoiseAndFarAwayIsThePrior) {
  // Far from the data k → 0: var_f → k(x*, x*) = 1, the prior.
  const Problem p = make_problem(1, 20, 1, 53);
  const arma::mat far(1, 1, arma::fill::value(100.0));
  auto gp = make_solver("gp_regression", {{"noise", "0.01"}});
  const arma::mat K = gaussian_gram(p.X, p.X, 0.3);
  const FitResult run = run_dual(*gp, K, gaussian_gram(p.X, far, 0.3), arma::vec{1.0}, p.y);
  EXPECT_NEAR(run.prediction.var_f[0], 1.0, 1e-15);
  EXPECT_NEAR(run.prediction.mean[0], 0.0, 1e-15);
}

/// A fit and prediction as the runner makes them for a solver with flags::learns_kernel:
/// with `optimize: true` (`learns`) only the kernel and the points, as for a solver that
/// reaches the kernel; otherwise K and K(X, X*) as well.
FitResult run_learning(Solver& solver, const Kernel& kernel, const Problem& p, bool learns = true) {
  arma::mat K, K_cross;
  arma::vec diag;
  TrainingData train;
  TestData test;
  if (!learns) {
    kernel.gram(p.X, K);
    kernel.gram(p.X, p.Xt, K_cross);
    diag = kernel.diagonal(p.Xt);
    train.gram = &K;
    test.gram = &K_cross;
    test.gram_diagonal = &diag;
  }
  train.targets = &p.y;
  train.kernel = &kernel;
  train.inputs = &p.X;
  FitResult run;
  solver.fit(train, run.report);
  test.kernel = &kernel;
  test.inputs = &p.Xt;
  run.prediction = solver.predict(test, run.report);
  return run;
}

double learned(const SolverReport& report, const std::string& name) {
  for (const auto& [key, value] : report.learned)
    if (key == name) return value;
  return std::nan("");
}

std::shared_ptr<Kernel> gp_kernel(double amplitude, double sigma, double c, double slope) {
  return algebra::combined(
      algebra::Combination::Sum,
      {algebra::scaled(make_kernel("gaussian", {{"sigma", std::to_string(sigma)}}), amplitude),
       make_kernel("constant", {{"c", std::to_string(c)}}),
       algebra::scaled(make_kernel("linear"), slope)});
}

TEST(GpLikelihood, ValueMatchesTheDirectFormula) {
  const Problem p = make_problem(2, 50, 1, 61);
  const auto k = make_kernel("gaussian", {{"sigma", "0.8"}});
  const arma::vec x{std::log(0.8), std::log(0.05)};
  const double lml = kexp_solvers::gp_log_likelihood(*k, p.X, p.y, x, nullptr);
  const arma::mat C = gaussian_gram(p.X, p.X, 0.8) + 0.05 * arma::eye(50, 50);
  double log_det = 0, sign = 0;
  arma::log_det(log_det, sign, C);
  const double direct = -0.5 * arma::as_scalar(p.y.t() * arma::solve(C, p.y)) - 0.5 * log_det -
                        25.0 * std::log(2.0 * arma::datum::pi);
  // two backward-stable evaluations: |Δ| ≤ 2·n·ε·κ(C)·|log p|; κ(C) ≈ 470, n = 50
  EXPECT_NEAR(lml, direct, 2.0 * 50 * kEps * arma::cond(C) * std::abs(direct));
}

// The gradient's terms ½ Σᵢₖ (ααᵀ − C⁻¹)ᵢₖ dKᵢₖ from C⁻¹'s lower triangle alone, against
// W formed in full, and the same bits on one thread and on three.
TEST(GpLikelihood, GradientTermsFromTheLowerTriangleAreThoseOfTheFullMatrix) {
  arma::arma_rng::set_seed(5);
  const arma::uword n = 301;
  const arma::mat B = arma::randn<arma::mat>(n, n);
  const arma::mat inverse = B.t() * B;  // symmetric; only its lower triangle is read
  arma::mat upper_garbage = arma::trimatl(inverse);
  upper_garbage.elem(arma::trimatu_ind(arma::size(inverse), 1)).fill(arma::datum::nan);
  const arma::vec alpha = arma::randn<arma::vec>(n);
  arma::cube dK(n, n, 2);
  for (arma::uword j = 0; j < 2; ++j) {
    const arma::mat G = arma::randn<arma::mat>(n, n);
    dK.slice(j) = G + G.t();
  }
  const arma::mat W = alpha * alpha.t() - inverse;
  double one[3], three[3];
  kexp::set_thread_count(1);
  kexp_solvers::gp_gradient_terms(upper_garbage, alpha, dK, one);
  kexp::set_thread_count(3);
  kexp_solvers::gp_gradient_terms(upper_garbage, alpha, dK, three);
  kexp::set_thread_count(0);
  for (arma::uword j = 0; j < 2; ++j) {
    const double full = 0.5 * arma::accu(W % dK.slice(j));
    // n² terms of size ≤ max|W|·max|dK|, summed in two orders
    const double bound = n * n * kEps * arma::abs(W).max() * arma::abs(dK.slice(j)).max();
    EXPECT_NEAR(one[j], full, bound) << "slice " << j;
    EXPECT_EQ(one[j], three[j]) << "slice " << j;
  }
  EXPECT_NEAR(one[2], 0.5 * arma::trace(W), n * kEps * arma::abs(W).max());
  EXPECT_EQ(one[2], three[2]);
}

TEST(GpLikelihood, GradientMatchesDifferences) {
  // Central differences in log space with step h = 1e-5 against the analytic gradient.
  const Problem p = make_problem(3, 60, 1, 62);
  const auto gaussian = make_kernel("gaussian", {{"sigma", "1.3"}});
  const auto sum = gp_kernel(1.5, 0.9, 0.4, 0.2);
  for (const Kernel* k : {gaussian.get(), sum.get()}) {
    arma::vec x(k->hyperparameters().size() + 1);
    for (std::size_t j = 0; j + 1 < x.n_elem; ++j) x[j] = std::log(k->hyperparameters()[j].value);
    x[x.n_elem - 1] = std::log(0.1);
    arma::vec g;
    const double lml = kexp_solvers::gp_log_likelihood(*k, p.X, p.y, x, &g);
    ASSERT_EQ(g.n_elem, x.n_elem);
    arma::mat C;
    k->with_hyperparameters(arma::exp(x.head(x.n_elem - 1)))->gram(p.X, C);
    const double kappa = arma::cond(C + 0.1 * arma::eye(arma::size(C)));
    const auto lml_at = [&](arma::uword j, double step) {
      arma::vec moved = x;
      moved[j] += step;
      return kexp_solvers::gp_log_likelihood(*k, p.X, p.y, moved, nullptr);
    };
    const double h = 1e-5, wide = 1e-2;  // wide: the step of the third difference
    for (arma::uword j = 0; j < x.n_elem; ++j) {
      const double fd = (lml_at(j, h) - lml_at(j, -h)) / (2.0 * h);
      const double third = (lml_at(j, 2 * wide) - 2 * lml_at(j, wide) + 2 * lml_at(j, -wide) -
                            lml_at(j, -2 * wide)) /
                           (2 * wide * wide * wide);
      // h²·|f'''|/6 truncation + κ(C)·ε·|lml|/h rounding; κ ≈ 400–600, the sum ≈ 5e-7 here
      const double bound = h * h * std::abs(third) / 6 + kappa * kEps * std::abs(lml) / h;
      EXPECT_NEAR(g[j], fd, bound) << "parameter " << j;
    }
  }
}

TEST(GpRegression, OptimizeReachesTheBestLikelihoodOfAGrid) {
  // Targets from a smooth function plus noise: the learned (σ, noise) must be at least as
  // likely as the best point of a 25 × 25 log grid over the search range's middle, and a
  // stationary point: no step of 1e-3 in log σ or log noise raises log p(t) by more than
  // 1e-7 (the optimizer stops within ftol 1e-12 of a maximum).
  const Problem p = make_problem(2, 80, 20, 63);
  const auto k = make_kernel("gaussian", {{"sigma", "3"}});
  auto gp = make_solver("gp_regression", {{"noise", "0.5"}, {"optimize", "true"}});
  const FitResult run = run_learning(*gp, *k, p);
  const double sigma = learned(run.report, "kernel.sigma");
  const double noise = learned(run.report, "solver.noise");
  ASSERT_TRUE(std::isfinite(sigma) && std::isfinite(noise));
  const double best = metric(run.report, "log_marginal_likelihood");
  const arma::vec at{std::log(sigma), std::log(noise)};
  arma::mat C = gaussian_gram(p.X, p.X, sigma);
  C.diag() += noise;
  const double kappa = arma::cond(C);
  // two evaluations, each to n·ε·κ(C)·|log p|: 2·n·ε·κ(C)·|log p|; κ(C) ≈ 3.4e3, n = 80
  const double rounding = 2.0 * 80 * kEps * kappa * std::abs(best);
  EXPECT_NEAR(best, kexp_solvers::gp_log_likelihood(*k, p.X, p.y, at, nullptr), rounding);
  double grid_best = -arma::datum::inf;
  for (const double ls : arma::linspace<arma::vec>(std::log(0.05), std::log(20.0), 25))
    for (const double ln : arma::linspace<arma::vec>(std::log(1e-4), std::log(10.0), 25))
      grid_best = std::max(
          grid_best, kexp_solvers::gp_log_likelihood(*k, p.X, p.y, arma::vec{ls, ln}, nullptr));
  EXPECT_GE(best, grid_best - rounding);  // the grid's values carry the same rounding
  for (arma::uword j = 0; j < 2; ++j) {
    for (const double step : {-1e-3, 1e-3}) {
      arma::vec moved = at;
      moved[j] += step;
      EXPECT_LE(kexp_solvers::gp_log_likelihood(*k, p.X, p.y, moved, nullptr), best + 1e-7);
    }
  }
  EXPECT_GT(run.report.iterations, 1);

  // The predictions are those of gp_regression written with the learned values.
  const auto at_learned = make_kernel("gaussian", {{"sigma", format_value(sigma)}});
  auto fixed = make_solver("gp_regression", {{"noise", format_value(noise)}});
  const FitResult again = run_learning(*fixed, *at_learned, p, false);
  // two backward-stable solves of the same C: ≤ 2·n·ε·κ(C); κ(C) ≈ 3.4e3, n = 80
  const double tolerance = 2.0 * 80 * kEps * kappa;
  EXPECT_LT(relative_difference(run.prediction.mean, again.prediction.mean), tolerance);
  EXPECT_LT(relative_difference(run.prediction.var_y, again.prediction.var_y), tolerance);
}

TEST(GpRegression, WithoutKItNeedsToLearnAndWithoutTestPointsItCannotPredictWhatItLearned) {
  const Problem p = make_problem(1, 20, 5, 65);
  const auto k = make_kernel("gaussian", {{"sigma", "1"}});
  TrainingData train;
  train.targets = &p.y;
  train.kernel = k.get();
  train.inputs = &p.X;
  SolverReport report;
  auto fixed = make_solver("gp_regression", {{"noise", "0.1"}});
  EXPECT_THAT([&] { fixed->fit(train, report); },
              ThrowsMessage<Error>(HasSubstr("needs the Gram matrix K(X, X)")));
  auto learning = make_solver("gp_regression", {{"noise", "0.1"}, {"optimize", "true"}});
  learning->fit(train, report);
  EXPECT_THAT([&] { (void)learning->predict(TestData{}, report); },
              ThrowsMessage<Error>(HasSubstr("needs the test points to predict")));
}

TEST(GpRegression, ALearningFitRepeatedGivesTheSameAnswer) {
  // The runner fits a solver several times to time it: each fit starts from the configured
  // noise, not from the one the fit before learned, so the answers are equal to the bit.
  const Problem p = make_problem(2, 60, 10, 64);
  const auto k = gp_kernel(1.0, 1.0, 0.5, 0.1);
  auto gp = make_solver("gp_regression", {{"noise", "0.5"}, {"optimize", "true"}});
  const FitResult first = run_learning(*gp, *k, p);
  const FitResult second = run_learning(*gp, *k, p);
  ASSERT_EQ(first.report.learned.size(), second.report.learned.size());
  for (std::size_t j = 0; j < first.report.learned.size(); ++j) {
    EXPECT_EQ(first.report.learned[j].second, second.report.learned[j].second)
        << first.report.learned[j].first;
  }
  EXPECT_EQ(arma::abs(first.prediction.mean - second.prediction.mean).max(), 0.0);
}

TEST(GpRegression, RestartsNeverEndBelowTheFirstStart) {
  const Problem p = make_problem(2, 60, 10, 64);
  const auto k = gp_kernel(1.0, 1.0, 0.5, 0.1);
  auto once = make_solver("gp_regression", {{"optimize", "true"}});
  auto thrice = make_solver("gp_regression", {{"optimize", "true"}, {"restarts", "2"}});
  const double a = metric(run_learning(*once, *k, p).report, "log_marginal_likelihood");
  const FitResult b = run_learning(*thrice, *k, p);
  ASSERT_EQ(b.report.learned.size(),
            5U);  // sum[0].sigma, sum[0].scale, sum[1].c, sum[2].scale, noise
  arma::vec theta(4);
  for (arma::uword j = 0; j < 4; ++j) theta[j] = b.report.learned[j].second;
  arma::mat C;
  k->with_hyperparameters(theta)->gram(p.X, C);
  C.diag() += learned(b.report, "solver.noise");
  // log p(t) of each run to n·ε·κ(C)·|log p|: slack 2·n·ε·κ(C)·|a|; κ(C) ≈ 2.3e3, n = 60
  EXPECT_GE(metric(b.report, "log_marginal_likelihood"),
            a - 2.0 * 60 * kEps * arma::cond(C) * std::abs(a));
  EXPECT_TRUE(std::isfinite(learned(b.report, "kernel.sum[2].scale")));
}

TEST(GpRegression, OptimizeRefusesWhatItCannotLearn) {
  const Problem p = make_problem(2, 30, 5, 65);
  auto gp = make_solver("gp_regression", {{"optimize", "true"}});
  try {
    (void)run_learning(*gp, *make_kernel("cubic"), p);
    ADD_FAILURE() << "a kernel without gradients was learned";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("optimize: false"), std::string::npos) << e.what();
  }
  auto outside = make_solver("gp_regression", {{"optimize", "true"}, {"bounds", "sigma=2:10"}});
  try {
    (void)run_learning(*outside, *make_kernel("gaussian", {{"sigma", "1"}}), p);
    ADD_FAILURE() << "a start outside its bounds was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("sigma = 1 lies outside its bounds [2, 10]"),
              std::string::npos)
        << e.what();
  }
  auto unknown = make_solver("gp_regression", {{"optimize", "true"}, {"bounds", "sigam=1:2"}});
  EXPECT_THROW((void)run_learning(*unknown, *make_kernel("gaussian"), p), InvalidArgument);
  // Bounds that cannot be read: the solver is not made, and says how to write them.
  for (const char* bad : {"sigma=2", "sigma=5:1", "sigma=0:1", "sigma=a:2", "=1:2"}) {
    try {
      (void)make_solver("gp_regression", {{"bounds", bad}});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const PluginError& e) {
      EXPECT_NE(std::string(e.what()).find("write name=lower:upper"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace kexp::test
