// Executing a group of cells with model selection: each validation split's fit and
// held-out error against kernel ridge solved by hand on the split's block of K, and
// against primal ridge on the split's columns of Φ; the test set is never read to
// validate.
#include "exec/group.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "exec/metrics.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using test::checked_params;
using test::make_kernel;
using test::registry;

PreparedData small_problem(const ValidationSpec& validation, std::uint64_t seed) {
  arma::arma_rng::set_seed(5);
  PreparedData data;
  data.X_train = arma::randu<arma::mat>(2, 23);
  data.y_train = arma::sin(3.0 * data.X_train.row(0).t()) + data.X_train.row(1).t();
  data.X_test = arma::randu<arma::mat>(2, 7);
  data.y_test = arma::sin(3.0 * data.X_test.row(0).t()) + data.X_test.row(1).t();
  data.splits = validation_splits(data.X_train.n_cols, validation, seed, "small");
  return data;
}

struct Ran {
  std::vector<CellResult> results;
};

Ran run_group(const Kernel& kernel, const PreparedData& data, const std::string& solver,
              const test::TextParams& params, Form form) {
  Variant v;
  v.plugin = &registry().find(PluginKind::Solver, solver);
  v.params = checked_params(*v.plugin, params);
  v.target = ExecutionTarget::of(v.params);  // as make_plan resolves it
  Cell cell;
  cell.id = "0000000000000001";
  cell.form = form;
  std::vector<GroupCell> cells{{&cell, &v, std::nullopt}};
  Ran ran;
  GroupCallbacks callbacks;
  callbacks.done = [&](const Cell&, CellResult&& r) {
    ran.results.push_back(std::move(r));
    return true;
  };
  execute_group(cells, kernel, "gaussian", data, TimingSpec{}, callbacks);
  return ran;
}

/// Kernel ridge by hand on each split: β = (K_ff + λI)⁻¹ y_f, ŷ_h = K_fhᵀ β.
arma::vec hand_fold_rmses(const arma::mat& K, const PreparedData& data, double lambda) {
  arma::vec out(data.splits.size());
  for (std::size_t f = 0; f < data.splits.size(); ++f) {
    const ValidationSplit& s = data.splits[f];
    const arma::mat Kff = K.submat(s.fit, s.fit);
    const arma::vec beta = arma::solve(Kff + lambda * arma::eye(Kff.n_rows, Kff.n_rows),
                                       arma::vec(data.y_train.elem(s.fit)));
    const arma::vec predicted = K.submat(s.fit, s.held_out).t() * beta;
    out[f] = rmse(arma::vec(data.y_train.elem(s.held_out)), predicted);
  }
  return out;
}

TEST(GroupValidation, KFoldErrorsAreKernelRidgeOnEachFoldsBlockOfK) {
  const PreparedData data = small_problem(ValidationSpec{4, 0, {}}, 11);
  ASSERT_EQ(data.splits.size(), 4U);
  const auto kernel = make_kernel("gaussian", {{"sigma", "0.6"}});
  arma::mat K;
  kernel->gram(data.X_train, K);
  const arma::vec expected = hand_fold_rmses(K, data, 0.05);

  const Ran ran = run_group(*kernel, data, "kernel_ridge", {{"lambda", "0.05"}}, Form::Dual);
  ASSERT_EQ(ran.results.size(), 1U);
  const CellResult& r = ran.results[0];
  ASSERT_EQ(r.status, CellResult::Status::Ok) << r.error;
  ASSERT_TRUE(r.validation_rmse && r.validation_rmse_std && r.validation_seconds);
  EXPECT_NEAR(*r.validation_rmse, arma::mean(expected), 1e-10);
  EXPECT_NEAR(*r.validation_rmse_std, arma::stddev(expected), 1e-10);
  EXPECT_FALSE(r.validation_accuracy);  // a regression
  // The cell's own fit is on the whole training part, as without validation.
  const arma::vec beta =
      arma::solve(K + 0.05 * arma::eye(K.n_rows, K.n_rows), arma::vec(data.y_train));
  arma::mat K_cross;
  kernel->gram(data.X_train, data.X_test, K_cross);
  ASSERT_TRUE(r.test_rmse);
  EXPECT_NEAR(*r.test_rmse, rmse(data.y_test, K_cross.t() * beta), 1e-10);
}

TEST(GroupValidation, TheTestSetIsNotReadToValidate) {
  PreparedData data = small_problem(ValidationSpec{0, 0.3, {}}, 2);
  ASSERT_EQ(data.splits.size(), 1U);
  const auto kernel = make_kernel("gaussian", {{"sigma", "0.6"}});
  const Ran a = run_group(*kernel, data, "kernel_ridge", {{"lambda", "0.01"}}, Form::Dual);
  data.y_test += 100.0;
  data.X_test *= 3.0;
  const Ran b = run_group(*kernel, data, "kernel_ridge", {{"lambda", "0.01"}}, Form::Dual);
  ASSERT_EQ(a.results[0].status, CellResult::Status::Ok) << a.results[0].error;
  ASSERT_EQ(b.results[0].status, CellResult::Status::Ok) << b.results[0].error;
  EXPECT_EQ(*a.results[0].validation_rmse, *b.results[0].validation_rmse);
  EXPECT_FALSE(a.results[0].validation_rmse_std);  // one split has no deviation
  EXPECT_GT(*b.results[0].test_rmse, *a.results[0].test_rmse + 50);
}

TEST(GroupValidation, PrimalFoldsUseTheFoldsColumnsOfPhiAndAgreeWithTheDual) {
  // The degree-2 polynomial kernel has an exact map: primal ridge on a fold's columns of
  // Φ and kernel ridge on its block of K give the same held-out predictions.
  const PreparedData data = small_problem(ValidationSpec{5, 0, {}}, 3);
  const auto kernel = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  const Ran primal = run_group(*kernel, data, "primal_ridge", {{"lambda", "0.1"}}, Form::Primal);
  const Ran dual = run_group(*kernel, data, "kernel_ridge", {{"lambda", "0.1"}}, Form::Dual);
  ASSERT_EQ(primal.results[0].status, CellResult::Status::Ok) << primal.results[0].error;
  ASSERT_EQ(dual.results[0].status, CellResult::Status::Ok) << dual.results[0].error;
  EXPECT_NEAR(*primal.results[0].validation_rmse, *dual.results[0].validation_rmse, 1e-8);
  EXPECT_NEAR(*primal.results[0].validation_rmse_std, *dual.results[0].validation_rmse_std, 1e-8);
}

TEST(GroupValidation, AFoldThatThrowsFailsTheCellNamingTheFold) {
  const PluginRegistry fixtures = PluginRegistry::discover({test::fixture_dir() / "forms"});
  const PreparedData data = small_problem(ValidationSpec{3, 0, {}}, 4);
  const auto kernel = make_kernel("linear");
  Variant v;
  v.plugin = &fixtures.find(PluginKind::Solver, "fixture_flaky");
  v.params = checked_params(*v.plugin, {{"fail", "true"}});
  Cell cell;
  cell.form = Form::Dual;
  std::vector<CellResult> results;
  GroupCallbacks callbacks;
  callbacks.done = [&](const Cell&, CellResult&& r) {
    results.push_back(std::move(r));
    return true;
  };
  execute_group({{&cell, &v, std::nullopt}}, *kernel, "linear", data, TimingSpec{}, callbacks);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, CellResult::Status::Failed);
  EXPECT_NE(results[0].error.find("fixture_flaky"), std::string::npos) << results[0].error;
  EXPECT_NE(results[0].error.find("fitting on validation fold 1 of 3"), std::string::npos)
      << results[0].error;
}

/// A λ sweep of kernel ridge (long enough to share one band reduction) and a GP that
/// keeps K to predict, as the group's last dual cell, allowed to overwrite K.
std::vector<CellResult> sweep_and_gp(const PreparedData& data, const TimingSpec& timing) {
  const auto kernel = make_kernel("gaussian", {{"sigma", "0.6"}});
  std::vector<Variant> variants;
  for (const char* lambda : {"1e-4", "1e-3", "1e-2", "1e-1", "1", "10"}) {
    Variant v;
    v.plugin = &registry().find(PluginKind::Solver, "kernel_ridge");
    v.params = checked_params(*v.plugin, {{"lambda", lambda}});
    variants.push_back(v);
  }
  Variant gp;
  gp.plugin = &registry().find(PluginKind::Solver, "gp_regression");
  gp.params = checked_params(*gp.plugin, {{"noise", "0.01"}});
  gp.component = 1;
  variants.push_back(gp);
  std::vector<Cell> cells(variants.size());
  std::vector<GroupCell> group;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    cells[i].form = Form::Dual;
    group.push_back({&cells[i], &variants[i], std::nullopt});
  }
  std::vector<CellResult> results;
  GroupCallbacks callbacks;
  callbacks.done = [&](const Cell&, CellResult&& r) {
    results.push_back(std::move(r));
    return true;
  };
  execute_group(group, *kernel, "gaussian", data, timing, callbacks);
  return results;
}

TEST(GroupTiming, MeasuringAgainLeavesEveryFigureButTheTimesAsOneMeasurement) {
  const PreparedData data = small_problem(ValidationSpec{}, 1);
  const auto once = sweep_and_gp(data, TimingSpec{0, 1});
  // a minimum time no phase reaches: every phase measured the maximum number of times
  const auto four = sweep_and_gp(data, TimingSpec{1e6, 4});
  ASSERT_EQ(once.size(), 7U);
  ASSERT_EQ(four.size(), 7U);
  for (std::size_t i = 0; i < once.size(); ++i) {
    ASSERT_EQ(once[i].status, CellResult::Status::Ok) << once[i].error;
    ASSERT_EQ(four[i].status, CellResult::Status::Ok) << four[i].error;
    EXPECT_EQ(once[i].fit->count, 1);
    EXPECT_EQ(once[i].gram->count, 1);
    EXPECT_EQ(four[i].fit->count, 4);
    EXPECT_EQ(four[i].gram->count, 4);
    EXPECT_EQ(four[i].predict->count, 4);
    EXPECT_LE(four[i].fit->min, four[i].fit->median);
    EXPECT_LE(four[i].fit->median, four[i].fit->max);
    // The same predictions: the measurements after the first fit solvers of their own,
    // and the GP, which reads K again to predict, sees K as its own fit left it.
    EXPECT_TRUE(
        arma::approx_equal(once[i].prediction.mean, four[i].prediction.mean, "absdiff", 0.0))
        << "cell " << i;
    EXPECT_EQ(*once[i].test_rmse, *four[i].test_rmse);
    EXPECT_EQ(once[i].metrics, four[i].metrics);  // the shared band reduction, the LML
  }
  EXPECT_FALSE(four.back().prediction.var_f.is_empty());
  EXPECT_TRUE(arma::approx_equal(once.back().prediction.var_f, four.back().prediction.var_f,
                                 "absdiff", 0.0));
}

/// One cell of `solver` in `form`, run as a group with `buffer`.
CellResult run_with_buffer(const Kernel& kernel, const PreparedData& data,
                           const std::string& solver, const test::TextParams& params, Form form,
                           GramBuffer& buffer) {
  Variant v;
  v.plugin = &registry().find(PluginKind::Solver, solver);
  v.params = checked_params(*v.plugin, params);
  v.target = ExecutionTarget::of(v.params);  // as make_plan resolves it
  Cell cell;
  cell.form = form;
  CellResult result;
  GroupCallbacks callbacks;
  callbacks.done = [&](const Cell&, CellResult&& r) {
    result = std::move(r);
    return true;
  };
  execute_group({{&cell, &v, std::nullopt}}, kernel, "kernel", data, TimingSpec{}, callbacks,
                buffer);
  return result;
}

TEST(GramBuffer, GroupsOfOneSizeShareKsMemoryAndPredictAsWithNewMemory) {
  const PreparedData data = small_problem(ValidationSpec{}, 1);
  const arma::uword n = data.X_train.n_cols;
  const auto narrow = make_kernel("gaussian", {{"sigma", "0.3"}});
  const auto wide = make_kernel("gaussian", {{"sigma", "2"}});
  GramBuffer buffer;
  // K's memory is handed on after a group of one kernel_ridge cell, with K(X, X*) built
  // in it after the fit...
  const CellResult first =
      run_with_buffer(*narrow, data, "kernel_ridge", {{"lambda", "0.01"}}, Form::Dual, buffer);
  ASSERT_EQ(first.status, CellResult::Status::Ok) << first.error;
  ASSERT_EQ(buffer.memory.n_rows, n);
  ASSERT_EQ(buffer.memory.n_cols, n);
  const double* memory = buffer.memory.memptr();
  // ...so its last columns hold K(X, X*) of the narrow kernel now.
  arma::mat K_cross;
  narrow->gram(data.X_train, data.X_test, K_cross);
  const arma::mat in_buffer(const_cast<double*>(memory), n, data.X_test.n_cols, false, true);
  EXPECT_TRUE(arma::approx_equal(in_buffer, K_cross, "absdiff", 0.0));

  // The next group of the same n computes its K there, over what the last one left.
  const CellResult second =
      run_with_buffer(*wide, data, "kernel_ridge", {{"lambda", "0.01"}}, Form::Dual, buffer);
  ASSERT_EQ(second.status, CellResult::Status::Ok) << second.error;
  EXPECT_EQ(buffer.memory.memptr(), memory);
  GramBuffer fresh;
  const CellResult alone =
      run_with_buffer(*wide, data, "kernel_ridge", {{"lambda", "0.01"}}, Form::Dual, fresh);
  EXPECT_TRUE(arma::approx_equal(second.prediction.mean, alone.prediction.mean, "absdiff", 0.0));
  EXPECT_EQ(*second.train_rmse, *alone.train_rmse);

  // A GP keeps K to predict: K(X, X*) gets memory of its own, and K goes to the buffer
  // after the prediction.
  const CellResult gp =
      run_with_buffer(*wide, data, "gp_regression", {{"noise", "0.01"}}, Form::Dual, buffer);
  ASSERT_EQ(gp.status, CellResult::Status::Ok) << gp.error;
  GramBuffer fresh_gp;
  const CellResult gp_alone =
      run_with_buffer(*wide, data, "gp_regression", {{"noise", "0.01"}}, Form::Dual, fresh_gp);
  EXPECT_TRUE(arma::approx_equal(gp.prediction.mean, gp_alone.prediction.mean, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(gp.prediction.var_f, gp_alone.prediction.var_f, "absdiff", 0.0));
  EXPECT_EQ(buffer.memory.n_elem, n * n);

  // A group whose dual cell runs before a primal one frees K's memory, and K(X, X*) in
  // it, before the primal cell: Φ is not budgeted to sit beside them.
  {
    Variant ridge, primal;
    ridge.plugin = &registry().find(PluginKind::Solver, "kernel_ridge");
    ridge.params = checked_params(*ridge.plugin, {{"lambda", "0.01"}});
    primal.plugin = &registry().find(PluginKind::Solver, "primal_ridge");
    primal.params = checked_params(*primal.plugin, {{"lambda", "0.01"}});
    primal.component = 1;
    Cell dual_cell, primal_cell;
    dual_cell.form = Form::Dual;
    primal_cell.form = Form::Primal;
    const auto poly2 = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
    std::size_t held_at_primal = 0;
    std::vector<CellResult> results;
    GroupCallbacks callbacks;
    callbacks.started = [&](const Cell& c) {
      if (c.form == Form::Primal) held_at_primal = buffer.memory.n_elem;
    };
    callbacks.done = [&](const Cell&, CellResult&& r) {
      results.push_back(std::move(r));
      return true;
    };
    execute_group({{&dual_cell, &ridge, std::nullopt}, {&primal_cell, &primal, std::nullopt}},
                  *poly2, "polynomial", data, TimingSpec{}, callbacks, buffer);
    ASSERT_EQ(results.size(), 2U);
    EXPECT_EQ(results[0].status, CellResult::Status::Ok) << results[0].error;
    EXPECT_EQ(results[1].status, CellResult::Status::Ok) << results[1].error;
    EXPECT_EQ(held_at_primal, 0U);
    // The exact map: primal and dual predict the same, the pairing saw both.
    EXPECT_LE(arma::abs(results[0].prediction.mean - results[1].prediction.mean).max(), 1e-8);
  }

  // A primal group frees the buffer before it allocates anything.
  const auto poly = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  const CellResult primal =
      run_with_buffer(*poly, data, "primal_ridge", {{"lambda", "0.1"}}, Form::Primal, buffer);
  ASSERT_EQ(primal.status, CellResult::Status::Ok) << primal.error;
  EXPECT_EQ(buffer.memory.n_elem, 0U);
}

}  // namespace
}  // namespace kexp::core
