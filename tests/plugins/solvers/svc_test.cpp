// svc: hand-solved problems through the plugin, the bias settings, LIBSVM's answer where
// svm-train is installed, one against one on three classes, a small cache, an indefinite
// kernel, the iteration limit, and the targets it refuses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "plugins/solvers/libsvm_tools.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

/// fit with the kernel and X, predict at Xt; the task as given.
FitResult run_svm(Solver& solver, const Kernel& k, const arma::mat& X, const arma::vec& y,
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

/// Two overlapping Gaussian classes in d dimensions, labels ±1, values rounded to 10⁻⁶ (so
/// that LIBSVM's model file, 8 digits, holds them exactly).
void two_classes(arma::uword n, arma::uword d, unsigned seed, arma::mat& X, arma::vec& y) {
  arma::arma_rng::set_seed(seed);
  y = arma::sign(arma::randu<arma::vec>(n) - 0.5);
  y.replace(0.0, 1.0);
  X = arma::randn<arma::mat>(d, n);
  X.row(0) += 0.8 * y.t();
  X.row(1) += 0.5 * y.t();
  X = arma::round(X * 1e6) / 1e6;
}

double accuracy(const arma::vec& y, const arma::vec& f) {
  return arma::mean(arma::conv_to<arma::vec>::from((f >= 0) == (y > 0)));
}

TEST(Svc, SolvesTwoPointsByHand) {
  // x = ±1, labels ±1, the linear kernel: the widest margin is f(x) = x, with both points
  // support vectors, whatever the bias setting (k + 1 gives b = Σαᵢyᵢ = 0 here)
  const auto k = make_kernel("linear");
  const arma::mat X = {{1.0, -1.0}};
  const arma::vec y = {1.0, -1.0};
  const arma::mat Xt = {{0.5, -2.0, 0.0}};
  for (const char* bias : {"free", "regularized", "none"}) {
    SCOPED_TRACE(bias);
    auto s = make_solver("svc", {{"c", "10"}, {"bias", bias}, {"tolerance", "1e-10"}});
    const FitResult r = run_svm(*s, *k, X, y, Xt);
    EXPECT_NEAR(r.prediction.mean[0], 0.5, 1e-9);
    EXPECT_NEAR(r.prediction.mean[1], -2.0, 1e-9);
    EXPECT_NEAR(r.prediction.mean[2], 0.0, 1e-9);
    // without a bias α is not unique (any α₁ + α₂ = 1 gives f(x) = x): one or two
    EXPECT_EQ(metric(r.report, "support_vectors"), std::string(bias) == "none" ? 1.0 : 2.0);
    EXPECT_EQ(metric(r.report, "bounded_support_vectors"), 0.0);
    // the dual objective ½αᵀQα − Σα at α = (½, ½) with Q = [1 1; 1 1] (+1 when regularized:
    // Q = [2 0; 0 2], the same α)
    EXPECT_NEAR(metric(r.report, "dual_objective"), -0.5, 1e-9);
    // the training decision values come from the gradient, at no cost
    ASSERT_EQ(r.report.fitted.n_elem, 2U);
    EXPECT_NEAR(r.report.fitted[0], 1.0, 1e-9);
    EXPECT_NEAR(r.report.fitted[1], -1.0, 1e-9);
  }
}

TEST(Svc, SolvesFourPointsByHandWithEachBias) {
  // x = 0, 1 (−) and 3, 4 (+), C = 100, the linear kernel.
  // free: the margin is set by 1 and 3: w = 1, b = −2, α = (0, ½, ½, 0) (w = Σαᵢyᵢxᵢ,
  //   Σαᵢyᵢ = 0); the dual objective ½‖w‖² − Σα = ½ − 1 = −½.
  // regularized: min ½(w² + b²) under the same two active constraints gives the same
  //   w = 1, b = −2 (multipliers α = (0, 7/2, 3/2, 0), both ≥ 0); the dual objective is
  //   −½(w² + b²) = −5/2.
  // none: f = wx leaves x = 0 on the boundary whatever w; the cheapest w is ⅓ (x = 3 on its
  //   margin): f(x) = x/3.
  const auto k = make_kernel("linear");
  const arma::mat X = {{0.0, 1.0, 3.0, 4.0}};
  const arma::vec y = {-1.0, -1.0, 1.0, 1.0};
  const arma::mat Xt = {{2.0, 5.0}};
  const auto fit = [&](const char* bias) {
    return run_svm(*make_solver("svc", {{"c", "100"}, {"tolerance", "1e-12"}, {"bias", bias}}), *k,
                   X, y, Xt);
  };
  const FitResult free = fit("free");
  EXPECT_NEAR(free.prediction.mean[0], 0.0, 1e-9);
  EXPECT_NEAR(free.prediction.mean[1], 3.0, 1e-9);
  EXPECT_EQ(metric(free.report, "support_vectors"), 2.0);
  EXPECT_NEAR(metric(free.report, "dual_objective"), -0.5, 1e-9);
  const FitResult regularized = fit("regularized");
  EXPECT_NEAR(regularized.prediction.mean[0], 0.0, 1e-9);
  EXPECT_NEAR(regularized.prediction.mean[1], 3.0, 1e-9);
  EXPECT_NEAR(metric(regularized.report, "dual_objective"), -2.5, 1e-9);
  const FitResult none = fit("none");
  EXPECT_NEAR(none.prediction.mean[0], 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(none.prediction.mean[1], 5.0 / 3.0, 1e-9);
}

TEST(Svc, AgreesWithLibsvm) {
  if (!installed("svm-train"))
    GTEST_SKIP() << "svm-train not installed (apt-get install libsvm-tools)";
  arma::mat X, Xt;
  arma::vec y, yt;
  two_classes(600, 5, 21, X, y);
  two_classes(200, 5, 22, Xt, yt);
  const TempDir dir;
  write_libsvm(dir.path() / "train", X, y);
  const std::string out =
      run_for_output(fmt::format("svm-train -s 0 -t 2 -g 0.2 -c 1 -e 1e-9 {} {}",
                                 (dir.path() / "train").string(), (dir.path() / "model").string()));
  ASSERT_THAT(out, HasSubstr("optimization finished"));
  ASSERT_THAT(out, ::testing::Not(HasSubstr(kReachedLimit)));
  const LibsvmModel model = read_libsvm_model(dir.path() / "model", 5);
  const arma::vec reference = libsvm_gaussian_decisions(model, Xt);
  // γ = 0.2 is σ = 1/√(2γ)
  const auto k = make_kernel("gaussian", {{"sigma", fmt::format("{:.17g}", 1 / std::sqrt(0.4))}});
  auto s = make_solver("svc", {{"c", "1"}, {"tolerance", "1e-9"}});
  const FitResult r = run_svm(*s, *k, X, y, Xt);
  EXPECT_LT(arma::norm(r.prediction.mean - reference) / arma::norm(reference), 1e-6);
  EXPECT_EQ(metric(r.report, "support_vectors"), static_cast<double>(model.total_sv));
  EXPECT_EQ(accuracy(yt, r.prediction.mean), accuracy(yt, reference));
}

TEST(Svc, TrainsThreeClassesOneAgainstOne) {
  // three blobs: the prediction is a label, and it is what the three binary problems
  // trained apart vote for
  arma::arma_rng::set_seed(31);
  const arma::uword n = 240;
  arma::mat X = arma::randn<arma::mat>(2, n);
  arma::vec y(n);
  const double centres[3][2] = {{0, 3}, {-3, -2}, {3, -2}};
  for (arma::uword i = 0; i < n; ++i) {
    const int c = static_cast<int>(i % 3);
    y[i] = 10.0 + c;  // labels 10, 11, 12: kept as they are
    X(0, i) += centres[c][0];
    X(1, i) += centres[c][1];
  }
  const arma::mat Xt = X.cols(0, 59) + 0.1;
  const auto k = make_kernel("gaussian", {{"sigma", "1"}});
  auto s = make_solver("svc", {{"c", "1"}});
  const FitResult r = run_svm(*s, *k, X, y, Xt, Task::Multiclass);
  std::set<double> labels(r.prediction.mean.begin(), r.prediction.mean.end());
  for (const double l : labels) EXPECT_TRUE(l == 10 || l == 11 || l == 12) << l;
  const arma::vec truth = y.head(60);
  EXPECT_GE(arma::mean(arma::conv_to<arma::vec>::from(r.prediction.mean == truth)), 0.9);
  EXPECT_TRUE(r.report.fitted.is_empty()) << "more classes: the runner predicts the training set";
  // the vote by hand: classes in order of appearance 10, 11, 12; pairs (10,11), (10,12),
  // (11,12), each trained on its two classes with +1 for the first
  arma::mat votes(3, Xt.n_cols, arma::fill::zeros);
  const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (const auto& p : pairs) {
    const arma::uvec pick = arma::find((y == 10.0 + p[0]) + (y == 10.0 + p[1]));
    arma::vec yy = arma::vec(y.elem(pick));
    yy.transform([&](double v) { return v == 10.0 + p[0] ? 1.0 : -1.0; });
    auto binary = make_solver("svc", {{"c", "1"}});
    const arma::mat Xp = X.cols(pick);
    const FitResult b = run_svm(*binary, *k, Xp, yy, Xt);
    for (arma::uword j = 0; j < Xt.n_cols; ++j)
      votes(b.prediction.mean[j] > 0 ? p[0] : p[1], j) += 1;
  }
  for (arma::uword j = 0; j < Xt.n_cols; ++j) {
    EXPECT_EQ(r.prediction.mean[j], 10.0 + static_cast<double>(votes.col(j).index_max())) << j;
  }
}

TEST(Svc, ConvergesToTheSameAnswerWithOnePercentOfKCached) {
  arma::mat X, Xt;
  arma::vec y, yt;
  two_classes(1000, 4, 41, X, y);
  two_classes(100, 4, 42, Xt, yt);
  const auto k = make_kernel("gaussian", {{"sigma", "1.5"}});
  auto whole = make_solver("svc", {{"tolerance", "1e-8"}, {"cache_bytes", "8e6"}});
  auto small = make_solver("svc", {{"tolerance", "1e-8"}, {"cache_bytes", "8e4"}});  // 1% of K
  const FitResult a = run_svm(*whole, *k, X, y, Xt), b = run_svm(*small, *k, X, y, Xt);
  EXPECT_TRUE(b.report.converged);
  EXPECT_LT(relative_difference(b.prediction.mean, a.prediction.mean), 1e-6);
  EXPECT_EQ(metric(a.report, "support_vectors"), metric(b.report, "support_vectors"));
  EXPECT_LT(metric(b.report, "cache_hit_rate"), metric(a.report, "cache_hit_rate"));
  EXPECT_GT(metric(b.report, "kernel_evaluations"), metric(a.report, "kernel_evaluations"));
  EXPECT_LE(metric(b.report, "cache_bytes"), 8e4 + 1);
  // whole K cached: no column computed twice, at most n² evaluations
  EXPECT_LE(metric(a.report, "kernel_evaluations"), 1000.0 * 1000.0);
  // flops follow the evaluations: more with the small cache
  EXPECT_GT(b.report.fit_flops, a.report.fit_flops);
}

TEST(Svc, GivesTheSameAnswerOnAnyNumberOfThreads) {
  // every kernel value and every pass of a step are computed alike whatever the parts: the
  // steps, and so the answer, are the same bit for bit on one thread and on four
  arma::mat X, Xt;
  arma::vec y, yt;
  two_classes(20000, 3, 71, X, y);
  two_classes(50, 3, 72, Xt, yt);
  const auto k = make_kernel("gaussian", {{"sigma", "2"}});
  const int before = thread_count();
  set_thread_count(1);
  const FitResult one = run_svm(*make_solver("svc", {{"iterations", "3000"}}), *k, X, y, Xt);
  set_thread_count(4);
  const FitResult four = run_svm(*make_solver("svc", {{"iterations", "3000"}}), *k, X, y, Xt);
  set_thread_count(before);
  EXPECT_EQ(thread_count(), before) << "the solver gives kexp's threads back";
  EXPECT_EQ(one.report.iterations, four.report.iterations);
  EXPECT_TRUE(arma::approx_equal(one.prediction.mean, four.prediction.mean, "absdiff", 0.0));
}

TEST(Svc, EndsOnAnIndefiniteKernelAndSaysSo) {
  arma::mat X, Xt;
  arma::vec y, yt;
  two_classes(300, 3, 51, X, y);
  two_classes(50, 3, 52, Xt, yt);
  const auto k = make_kernel("sigmoid", {{"a", "1"}, {"b", "-1"}});
  ASSERT_FALSE(k->positive_semidefinite());
  auto s = make_solver("svc", {{"c", "1"}});
  const FitResult r = run_svm(*s, *k, X, y, Xt);
  EXPECT_EQ(metric(r.report, "kernel_indefinite"), 1.0);
  EXPECT_TRUE(r.prediction.mean.is_finite());
  const auto g = make_kernel("gaussian");
  EXPECT_EQ(metric(run_svm(*make_solver("svc"), *g, X, y, Xt).report, "kernel_indefinite"), 0.0);
}

TEST(Svc, StopsAtItsIterationLimitUnconverged) {
  arma::mat X, Xt;
  arma::vec y, yt;
  two_classes(300, 3, 61, X, y);
  two_classes(10, 3, 62, Xt, yt);
  const auto k = make_kernel("gaussian");
  const FitResult r = run_svm(*make_solver("svc", {{"iterations", "7"}}), *k, X, y, Xt);
  EXPECT_FALSE(r.report.converged);
  EXPECT_EQ(r.report.iterations, 7);
  EXPECT_TRUE(r.prediction.mean.is_finite());
}

TEST(Svc, RefusesTargetsThatAreNotClasses) {
  const auto k = make_kernel("gaussian");
  const arma::mat X = arma::randn<arma::mat>(2, 6);
  const auto error = [&](const arma::vec& y, Task task) {
    try {
      (void)run_svm(*make_solver("svc"), *k, X, y, X, task);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error(arma::linspace(0, 1, 6), Task::Regression), HasSubstr("is a classifier"));
  EXPECT_THAT(error(arma::vec{1, -1, 1, -1, 1, 2}, Task::Classification),
              HasSubstr("binary labels are −1 and +1"));
  EXPECT_THAT(error(arma::vec(6, arma::fill::ones), Task::Classification),
              HasSubstr("one class (label 1)"));
}

TEST(Svc, RefusesParametersOutOfRange) {
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"c", "0"},
                                                        {"c", "-1"},
                                                        {"tolerance", "0"},
                                                        {"iterations", "0"},
                                                        {"cache_bytes", "-1"}}) {
    SCOPED_TRACE(key + "=" + value);
    EXPECT_THROW((void)make_solver("svc", {{key, value}}), ConfigError);
  }
  EXPECT_THROW((void)make_solver("svc", {{"bias", "both"}}), ConfigError);
}

TEST(Svc, BudgetsItsCacheAndBoundsItsFlops) {
  auto s = make_solver("svc", {{"cache_bytes", "1e6"}});
  // the cache never passes the whole K, nor the setting
  EXPECT_LT(s->memory_bytes(100, 10, 3), 8.0 * 100 * 100 + 1e5);
  EXPECT_GT(s->memory_bytes(10000, 10, 3), 1e6);
  EXPECT_LT(s->memory_bytes(10000, 10, 3), 1e6 + 8e6);
  const auto k = make_kernel("gaussian");
  EXPECT_LT(s->fit_flops_bound(100, 3, nullptr), 0);
  EXPECT_GT(make_solver("svc", {{"iterations", "1000000"}})->fit_flops_bound(100, 3, k.get()),
            100 * make_solver("svc", {{"iterations", "1000"}})->fit_flops_bound(100, 3, k.get()));
}

}  // namespace
}  // namespace kexp::test
