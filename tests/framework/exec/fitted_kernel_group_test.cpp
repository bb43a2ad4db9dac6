// A group whose kernel learns from the training data (flags::fitted): the kernel is
// fitted on the training part only — once for the group, and once on the fit part of
// each validation split, never on points it is judged on — its fit is timed as its own
// phase, predictions use the fitted state for training and test points alike, and a fit
// that throws fails the group's cells without stopping the group.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "exec/group.hpp"
#include "exec/metrics.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using test::checked_params;
using test::registry;
using ::testing::HasSubstr;

/// Every matrix a kernel was fitted on.
struct FitLog {
  std::vector<arma::mat> inputs;
  std::vector<std::uint64_t> seeds;
};

/// φ(x) = x − μ with μ the mean of the inputs it was fitted on, exact: k(x, z) =
/// (x − μ)ᵀ(z − μ).
class CentredMap final : public FeatureMap {
 public:
  explicit CentredMap(const arma::vec& mean) : mean_(mean) {}
  std::size_t dimension(std::size_t d) const override { return d; }
  bool exact() const override { return true; }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    if (mean_.is_empty()) throw std::logic_error("used before fit()");
    Phi = X.each_col() - mean_;
  }

 private:
  const arma::vec& mean_;
};

class CentredLinear final : public Kernel {
 public:
  CentredLinear(FitLog& log, bool fail) : log_(log), fail_(fail), map_(mean_) {}
  bool positive_semidefinite() const override { return true; }
  const FeatureMap* feature_map() const override { return &map_; }

 protected:
  void compute_fit(const KernelFitData& data) override {
    log_.inputs.push_back(*data.X);
    log_.seeds.push_back(data.seed);
    if (fail_) throw std::runtime_error("the model did not converge");
    mean_ = arma::mean(*data.X, 1);
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    if (mean_.is_empty()) throw std::logic_error("used before fit()");
    return arma::dot(x - mean_, z - mean_);
  }

 private:
  FitLog& log_;
  bool fail_;
  arma::vec mean_;
  CentredMap map_;
};

PreparedData problem(const ValidationSpec& validation) {
  arma::arma_rng::set_seed(9);
  PreparedData data;
  data.X_train = arma::randu<arma::mat>(3, 31) + 2.0;  // far from 0: centring matters
  data.y_train = data.X_train.row(0).t() - 2.0 * data.X_train.row(2).t();
  data.X_test = arma::randu<arma::mat>(3, 9) + 2.0;
  data.y_test = data.X_test.row(0).t() - 2.0 * data.X_test.row(2).t();
  data.splits = validation_splits(data.X_train.n_cols, validation, 4, "problem");
  return data;
}

struct Entry {
  Variant solver;
  Cell cell;
};

std::vector<CellResult> run(const PreparedData& data, FitLog& log, bool fail,
                            std::vector<Entry>& entries) {
  std::vector<GroupCell> cells;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i].cell.id = fmt::format("{:016x}", i + 1);
    entries[i].cell.index = i;
    cells.push_back({&entries[i].cell, &entries[i].solver, std::nullopt});
  }
  std::vector<CellResult> results;
  GroupCallbacks callbacks;
  callbacks.done = [&](const Cell&, CellResult&& r) {
    results.push_back(std::move(r));
    return true;
  };
  GroupKernel kernel;
  kernel.name = "centred";
  kernel.make = [&log, fail] { return std::make_shared<CentredLinear>(log, fail); };
  kernel.fit_seed = 77;
  TimingSpec once;
  once.min_seconds = 0;
  once.max_measurements = 1;
  GramBuffer buffer;
  execute_group(cells, kernel, data, once, callbacks, buffer);
  return results;
}

Entry entry(const std::string& solver, const test::TextParams& params, Form form,
            std::size_t component) {
  Entry e;
  e.solver.plugin = &registry().find(PluginKind::Solver, solver);
  e.solver.params = checked_params(*e.solver.plugin, params);
  e.solver.component = component;
  e.cell.form = form;
  return e;
}

/// Kernel ridge by hand with the centred linear kernel of `fit_on`'s mean.
arma::vec hand_ridge(const arma::mat& fit_on, const arma::mat& X, const arma::vec& y,
                     const arma::mat& Z, double lambda) {
  const arma::vec mu = arma::mean(fit_on, 1);
  const arma::mat A = X.each_col() - mu, B = Z.each_col() - mu;
  const arma::mat K = A.t() * A;
  const arma::vec beta =
      arma::solve(K + lambda * arma::eye(K.n_rows, K.n_rows), y, arma::solve_opts::likely_sympd);
  return (A.t() * B).t() * beta;
}

bool same(const arma::mat& a, const arma::mat& b) {
  return a.n_rows == b.n_rows && a.n_cols == b.n_cols && arma::approx_equal(a, b, "absdiff", 0.0);
}

TEST(FittedKernelGroup, FitsOnceOnTheTrainingPartAndPredictsWithTheFittedState) {
  const PreparedData data = problem({});
  FitLog log;
  std::vector<Entry> entries{entry("kernel_ridge", {{"lambda", "0.1"}}, Form::Dual, 0),
                             entry("kernel_ridge", {{"lambda", "1"}}, Form::Dual, 0),
                             entry("primal_ridge", {{"lambda", "0.1"}}, Form::Primal, 1)};
  const std::vector<CellResult> results = run(data, log, false, entries);
  ASSERT_EQ(results.size(), 3U);
  ASSERT_EQ(log.inputs.size(), 1U) << "one fit for the group's three cells";
  EXPECT_TRUE(same(log.inputs[0], data.X_train)) << "fitted on the training part, nothing else";
  EXPECT_EQ(log.seeds[0], 77U);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(results[i].status, CellResult::Status::Ok) << results[i].error;
    ASSERT_TRUE(results[i].kernel_fit.has_value()) << "the fit is timed as a phase";
    EXPECT_EQ(results[i].kernel_fit->count, 1U);
  }
  const double lambdas[] = {0.1, 1.0};
  for (std::size_t i = 0; i < 2; ++i) {
    const arma::vec expected =
        hand_ridge(data.X_train, data.X_train, data.y_train, data.X_test, lambdas[i]);
    EXPECT_LE(arma::abs(results[i].prediction.mean - expected).max(), 1e-10);
  }
  // primal ridge on φ = x − μ predicts as kernel ridge with λ = 0.1
  ASSERT_TRUE(results[2].prediction_max_diff.has_value());
  EXPECT_LE(*results[2].prediction_max_diff, 1e-9);
}

TEST(FittedKernelGroup, EachValidationSplitFitsItsOwnKernelOnItsFitPart) {
  ValidationSpec folds;
  folds.folds = 3;
  const PreparedData data = problem(folds);
  ASSERT_EQ(data.splits.size(), 3U);
  FitLog log;
  std::vector<Entry> entries{entry("kernel_ridge", {{"lambda", "0.1"}}, Form::Dual, 0),
                             entry("kernel_ridge", {{"lambda", "1"}}, Form::Dual, 0),
                             entry("primal_ridge", {{"lambda", "0.1"}}, Form::Primal, 1)};
  const std::vector<CellResult> results = run(data, log, false, entries);
  ASSERT_EQ(results.size(), 3U);
  // the group's own fit, then one per split, kept for the later cells
  ASSERT_EQ(log.inputs.size(), 4U);
  EXPECT_TRUE(same(log.inputs[0], data.X_train));
  for (std::size_t f = 0; f < 3; ++f) {
    EXPECT_TRUE(same(log.inputs[f + 1], data.X_train.cols(data.splits[f].fit)))
        << "split " << f << " is fitted on its fit part only";
    EXPECT_NE(log.seeds[f + 1], log.seeds[0]);
  }
  const double lambdas[] = {0.1, 1.0};
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(results[i].status, CellResult::Status::Ok) << results[i].error;
    arma::vec rmses(3);
    for (std::size_t f = 0; f < 3; ++f) {
      const ValidationSplit& s = data.splits[f];
      const arma::mat X_fit = data.X_train.cols(s.fit);
      const arma::vec y_fit = data.y_train.elem(s.fit);
      const arma::vec predicted =
          hand_ridge(X_fit, X_fit, y_fit, data.X_train.cols(s.held_out), lambdas[i]);
      rmses[f] = rmse(arma::vec(data.y_train.elem(s.held_out)), predicted);
    }
    ASSERT_TRUE(results[i].validation_rmse.has_value());
    EXPECT_NEAR(*results[i].validation_rmse, arma::mean(rmses), 1e-10);
    EXPECT_NEAR(*results[i].validation_rmse_std, arma::stddev(rmses), 1e-10);
  }
  ASSERT_EQ(results[2].status, CellResult::Status::Ok) << results[2].error;
  EXPECT_NEAR(*results[2].validation_rmse, *results[0].validation_rmse, 1e-9)
      << "primal ridge on the split's fitted map validates as kernel ridge";
}

TEST(FittedKernelGroup, AFitThatThrowsFailsEveryCellOnceAndTheGroupGoesOn) {
  const PreparedData data = problem({});
  FitLog log;
  std::vector<Entry> entries{entry("kernel_ridge", {{"lambda", "0.1"}}, Form::Dual, 0),
                             entry("primal_ridge", {{"lambda", "0.1"}}, Form::Primal, 1)};
  const std::vector<CellResult> results = run(data, log, true, entries);
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(log.inputs.size(), 1U) << "not fitted again for the second cell";
  for (const CellResult& r : results) {
    EXPECT_EQ(r.status, CellResult::Status::Failed);
    EXPECT_THAT(r.error, HasSubstr("kernel 'centred' failed while fitting the kernel to the "
                                   "training points: the model did not converge"));
  }
}

}  // namespace
}  // namespace kexp::core
