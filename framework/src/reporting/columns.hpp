// The fixed columns of results.csv (docs/design.md, "results.csv"), declared once: each
// column's name, the type of its values, when a row has it, its meaning and which parts
// of reporting/ read it beyond results_row, which writes every one. Code names a column
// by its Column entry, never by its text; a new column is an entry here and the code that
// fills it. The parameter, metric and learned columns that follow are named by the plan.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kexp::core {

/// Every fixed column, in the order of results.csv: the columns of every row, then those
/// of a kernel that learns, then those of validation.
enum class Column : std::size_t {
  cell,
  repeat,
  status,
  dataset,
  kernel,
  solver,
  form,
  n_train,
  n_test,
  d,
  feature_dim,
  train_rmse,
  test_rmse,
  test_accuracy,
  fit_seconds,
  predict_seconds,
  gram_seconds,
  feature_seconds,
  total_seconds,
  fit_seconds_min,
  fit_seconds_max,
  fit_measurements,
  predict_seconds_min,
  predict_seconds_max,
  predict_measurements,
  gram_seconds_min,
  gram_seconds_max,
  gram_measurements,
  feature_seconds_min,
  feature_seconds_max,
  feature_measurements,
  timing_notes,
  flops,
  matrix_bytes,
  peak_rss_bytes,
  memory_notes,
  flops_notes,
  iterations,
  converged,
  paired_with,
  prediction_max_diff,
  precision_max_diff,
  seed,
  error,
  device_name,
  kernel_fit_seconds,
  kernel_fit_seconds_min,
  kernel_fit_seconds_max,
  kernel_fit_measurements,
  validation_rmse,
  validation_rmse_std,
  validation_accuracy,
  validation_accuracy_std,
  validation_seconds,
};

/// What a column's fields hold; empty always means "does not apply".
enum class ColumnType { text, integer, number, boolean };

/// When a row has the column.
enum class ColumnSet {
  always,      ///< every row
  kernel_fit,  ///< when a kernel of the plan learns from the data (`flags::fitted`)
  validation,  ///< when the experiment validates (`folds:` or `validation_fraction:`)
};

/// The parts that read a column, beyond results_row, which writes them all.
enum ColumnReader : unsigned {
  kSummaryText = 1U << 0,   ///< summary.md reads it as text, never averaged over repeats
  kDiffShape = 1U << 1,     ///< `kexp diff`: the same text in both folders
  kDiffAccuracy = 1U << 2,  ///< `kexp diff`: the same number up to the tolerance
};

struct ColumnInfo {
  Column column;
  std::string name;
  ColumnType type;
  ColumnSet set;
  unsigned readers;     ///< ColumnReader flags
  std::string meaning;  ///< as docs/design.md's table of columns says it
};

/// Every fixed column, in the order of the Column enumeration (tests/framework/reporting/
/// columns_test.cpp checks each entry is at its place).
const std::vector<ColumnInfo>& column_table();

const ColumnInfo& column_info(Column column);

/// A column's name in results.csv: "test_rmse".
const std::string& column_name(Column column);

/// The names of the columns a row has in the case `set`, in order.
std::vector<std::string> column_names(ColumnSet set);

/// The fixed column of that name; nothing for any other column.
const ColumnInfo* find_column(const std::string& name);

/// The columns a reader reads, in order.
std::vector<Column> columns_read_by(ColumnReader reader);

/// The columns of one timed phase: `<phase>_seconds` (the median of its measurements),
/// `_seconds_min`, `_seconds_max`, `_measurements`.
struct PhaseColumns {
  const char* phase;  ///< as a message names it: "gram", "fit"
  Column seconds, seconds_min, seconds_max, measurements;
};

inline constexpr PhaseColumns kGramPhase = {"gram", Column::gram_seconds, Column::gram_seconds_min,
                                            Column::gram_seconds_max, Column::gram_measurements};
inline constexpr PhaseColumns kFeaturePhase = {
    "feature", Column::feature_seconds, Column::feature_seconds_min, Column::feature_seconds_max,
    Column::feature_measurements};
inline constexpr PhaseColumns kFitPhase = {"fit", Column::fit_seconds, Column::fit_seconds_min,
                                           Column::fit_seconds_max, Column::fit_measurements};
inline constexpr PhaseColumns kPredictPhase = {
    "predict", Column::predict_seconds, Column::predict_seconds_min, Column::predict_seconds_max,
    Column::predict_measurements};
/// The fit of a kernel that learns, once per group.
inline constexpr PhaseColumns kKernelFitPhase = {
    "kernel_fit", Column::kernel_fit_seconds, Column::kernel_fit_seconds_min,
    Column::kernel_fit_seconds_max, Column::kernel_fit_measurements};

/// The phases whose sum is a run's time: Gram or features, fit and predict.
inline constexpr PhaseColumns kTimedPhases[] = {kGramPhase, kFeaturePhase, kFitPhase,
                                                kPredictPhase};

}  // namespace kexp::core
