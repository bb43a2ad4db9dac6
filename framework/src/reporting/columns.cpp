// The table of results.csv's fixed columns: for each, its name, type, when a row has it,
// which parts read it and its meaning. The meanings are docs/design.md's words (its table
// of columns, checked against this one by tests/framework/reporting/columns_test.cpp);
// columns the document describes together share one text.
#include "reporting/columns.hpp"

namespace kexp::core {

namespace {

// The texts of columns described together.
constexpr const char* kPlugins = "plugin names (`sum(…)`, `product(…)` for kernel algebra)";
constexpr const char* kSizes = "the training points, test points and input dimension";
constexpr const char* kRmse =
    "root-mean-square error of the predictions on the training part and on the test set";
constexpr const char* kFitPredict =
    "wall time of fit(), and of predict() plus the group's test inputs (K(X, X*) or Φ(X*)): "
    "medians of repeated measurements (Timing, below)";
constexpr const char* kGramFeature =
    "wall time of building K(X, X) or Φ(X), shared by the group: the median";
constexpr const char* kPhaseRange =
    "for fit, predict, gram and feature: the range and the count of the measurements";
constexpr const char* kSolverReport =
    "from the solver; non-convergence is a value here, not an error";
constexpr const char* kPairing =
    "the earlier cell of the other form that this one pairs with, and max |ŷ − ŷ′| over the "
    "test set";
constexpr const char* kKernelFit =
    "a kernel that learns from the data: the median, range and count of its fit's "
    "measurements, once per group and repeated in each of the group's rows";
constexpr const char* kValidation =
    "the error on the held-out parts of the training part, the mean over the splits "
    "(Model selection)";
constexpr const char* kValidationStd = "the sample deviation of that error over the folds";

using T = ColumnType;
using S = ColumnSet;

std::vector<ColumnInfo> make_table() {
  const unsigned text = kSummaryText, shape = kDiffShape, accuracy = kDiffAccuracy;
  return {
      {Column::cell, "cell", T::text, S::always, text,
       "the cell's id: 16 hex digits hashed from its dataset, kernel and solver variants, the "
       "same in every run"},
      {Column::repeat, "repeat", T::integer, S::always, text, "the repeat, counted from 0"},
      {Column::status, "status", T::text, S::always, text | shape,
       "`ok`, `failed` (the cell threw, or its process ended; `error` holds the message), "
       "`refused` (over the memory budget or the time limit; `error` holds the estimate) or "
       "`timeout` (killed past its time limit; `error` holds the limit and how it was set)"},
      {Column::dataset, "dataset", T::text, S::always, text, kPlugins},
      {Column::kernel, "kernel", T::text, S::always, text, kPlugins},
      {Column::solver, "solver", T::text, S::always, text, kPlugins},
      {Column::form, "form", T::text, S::always, text, "`primal` or `dual`"},
      {Column::n_train, "n_train", T::integer, S::always, shape, kSizes},
      {Column::n_test, "n_test", T::integer, S::always, shape, kSizes},
      {Column::d, "d", T::integer, S::always, shape, kSizes},
      {Column::feature_dim, "feature_dim", T::integer, S::always, shape, "D, primal cells only"},
      {Column::train_rmse, "train_rmse", T::number, S::always, accuracy, kRmse},
      {Column::test_rmse, "test_rmse", T::number, S::always, accuracy, kRmse},
      {Column::test_accuracy, "test_accuracy", T::number, S::always, accuracy,
       "classification only; a score ≥ 0 counts as +1 (more than two classes: the label predicted "
       "must be the label)"},
      {Column::fit_seconds, "fit_seconds", T::number, S::always, 0, kFitPredict},
      {Column::predict_seconds, "predict_seconds", T::number, S::always, 0, kFitPredict},
      {Column::gram_seconds, "gram_seconds", T::number, S::always, 0, kGramFeature},
      {Column::feature_seconds, "feature_seconds", T::number, S::always, 0, kGramFeature},
      {Column::total_seconds, "total_seconds", T::number, S::always, 0,
       "the run's time: gram_seconds + feature_seconds + fit_seconds + predict_seconds, the "
       "time the summary's cost findings and plots compare"},
      {Column::fit_seconds_min, "fit_seconds_min", T::number, S::always, 0, kPhaseRange},
      {Column::fit_seconds_max, "fit_seconds_max", T::number, S::always, 0, kPhaseRange},
      {Column::fit_measurements, "fit_measurements", T::integer, S::always, 0, kPhaseRange},
      {Column::predict_seconds_min, "predict_seconds_min", T::number, S::always, 0, kPhaseRange},
      {Column::predict_seconds_max, "predict_seconds_max", T::number, S::always, 0, kPhaseRange},
      {Column::predict_measurements, "predict_measurements", T::integer, S::always, 0, kPhaseRange},
      {Column::gram_seconds_min, "gram_seconds_min", T::number, S::always, 0, kPhaseRange},
      {Column::gram_seconds_max, "gram_seconds_max", T::number, S::always, 0, kPhaseRange},
      {Column::gram_measurements, "gram_measurements", T::integer, S::always, 0, kPhaseRange},
      {Column::feature_seconds_min, "feature_seconds_min", T::number, S::always, 0, kPhaseRange},
      {Column::feature_seconds_max, "feature_seconds_max", T::number, S::always, 0, kPhaseRange},
      {Column::feature_measurements, "feature_measurements", T::integer, S::always, 0, kPhaseRange},
      {Column::timing_notes, "timing_notes", T::text, S::always, text,
       "the phases below the noise floor (a median under 1 ms) and the noisy ones (at least "
       "three measurements spread over more than half their median)"},
      {Column::flops, "flops", T::number, S::always, 0,
       "analytic: the kernel's or map's count for the training and test inputs plus the "
       "solver's fit and predict counts"},
      {Column::matrix_bytes, "matrix_bytes", T::number, S::always, 0,
       "bytes of the main matrices: K and K(X, X*), or Φ and Φ(X*), plus what the solver "
       "reports"},
      {Column::peak_rss_bytes, "peak_rss_bytes", T::integer, S::always, 0,
       "the process's peak resident memory during the run (reset before each run where Linux "
       "allows it)"},
      {Column::memory_notes, "memory_notes", T::text, S::always, text,
       "a warning when the run's resident memory grew by more than twice what its memory "
       "estimate counts (and 32 MiB more): the budget, which trusts the estimate, may have "
       "let it run; matrix_bytes then gives the growth measured, not the claim"},
      {Column::flops_notes, "flops_notes", T::text, S::always, text,
       "when a solver that reaches the kernel reported fewer flops than its kernel "
       "evaluations took (counted by the SDK's Gram calls): both figures; flops then gives "
       "the counted one"},
      {Column::iterations, "iterations", T::integer, S::always, 0, kSolverReport},
      {Column::converged, "converged", T::boolean, S::always, text, kSolverReport},
      {Column::paired_with, "paired_with", T::text, S::always, text, kPairing},
      {Column::prediction_max_diff, "prediction_max_diff", T::number, S::always, 0, kPairing},
      {Column::precision_max_diff, "precision_max_diff", T::number, S::always, 0,
       "a cell whose solver ran in `precision: single` or `mixed`: max |ŷ − ŷ′| over the test "
       "set against the same solver in `precision: double` on the same K (the float64 cells "
       "of a group run first)"},
      {Column::seed, "seed", T::text, S::always, text, "the cell's derived seed"},
      {Column::error, "error", T::text, S::always, text,
       "why the run failed or was refused; empty when it is ok"},
      {Column::device_name, "device_name", T::text, S::always, text,
       "the GPU's name, for a cell whose solver ran on it (`device: cuda`); `host backend` "
       "for `device: host`; empty on the CPU"},
      {Column::kernel_fit_seconds, "kernel_fit_seconds", T::number, S::kernel_fit, 0, kKernelFit},
      {Column::kernel_fit_seconds_min, "kernel_fit_seconds_min", T::number, S::kernel_fit, 0,
       kKernelFit},
      {Column::kernel_fit_seconds_max, "kernel_fit_seconds_max", T::number, S::kernel_fit, 0,
       kKernelFit},
      {Column::kernel_fit_measurements, "kernel_fit_measurements", T::integer, S::kernel_fit, 0,
       kKernelFit},
      {Column::validation_rmse, "validation_rmse", T::number, S::validation, accuracy, kValidation},
      {Column::validation_rmse_std, "validation_rmse_std", T::number, S::validation, accuracy,
       kValidationStd},
      {Column::validation_accuracy, "validation_accuracy", T::number, S::validation, accuracy,
       kValidation},
      {Column::validation_accuracy_std, "validation_accuracy_std", T::number, S::validation,
       accuracy, kValidationStd},
      {Column::validation_seconds, "validation_seconds", T::number, S::validation, 0,
       "wall time of all the splits' fits and predictions"},
  };
}

}  // namespace

const std::vector<ColumnInfo>& column_table() {
  static const std::vector<ColumnInfo> table = make_table();
  return table;
}

const ColumnInfo& column_info(Column column) {
  return column_table()[static_cast<std::size_t>(column)];
}

const std::string& column_name(Column column) { return column_info(column).name; }

std::vector<std::string> column_names(ColumnSet set) {
  std::vector<std::string> out;
  for (const ColumnInfo& c : column_table()) {
    if (c.set == set) out.push_back(c.name);
  }
  return out;
}

const ColumnInfo* find_column(const std::string& name) {
  for (const ColumnInfo& c : column_table()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::vector<Column> columns_read_by(ColumnReader reader) {
  std::vector<Column> out;
  for (const ColumnInfo& c : column_table()) {
    if ((c.readers & reader) != 0) out.push_back(c.column);
  }
  return out;
}

}  // namespace kexp::core
