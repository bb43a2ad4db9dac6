// The rows of results.csv: the columns a plan's file has (the fixed ones of the column
// table, those of a learning kernel and of validation when the plan has them, then its
// parameters, metrics and learned values) and the row of one run, from its cell and what
// the run measured.
#include "reporting/results_row.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "reporting/columns.hpp"

namespace kexp::core {

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> columns = column_names(ColumnSet::always);
  return columns;
}

const std::vector<std::string>& validation_columns() {
  static const std::vector<std::string> columns = column_names(ColumnSet::validation);
  return columns;
}

const std::vector<std::string>& kernel_fit_columns() {
  static const std::vector<std::string> columns = column_names(ColumnSet::kernel_fit);
  return columns;
}

std::vector<std::string> result_columns(const Plan& plan) {
  std::vector<std::string> columns = fixed_columns();
  if (plan.fitted_kernels) {
    columns.insert(columns.end(), kernel_fit_columns().begin(), kernel_fit_columns().end());
  }
  if (plan.validation.enabled()) {
    columns.insert(columns.end(), validation_columns().begin(), validation_columns().end());
  }
  columns.insert(columns.end(), plan.param_columns.begin(), plan.param_columns.end());
  columns.insert(columns.end(), plan.metric_columns.begin(), plan.metric_columns.end());
  columns.insert(columns.end(), plan.learned_columns.begin(), plan.learned_columns.end());
  return columns;
}

const char* to_string(CellResult::Status status) {
  switch (status) {
    case CellResult::Status::Ok:
      return "ok";
    case CellResult::Status::Failed:
      return "failed";
    case CellResult::Status::Refused:
      return "refused";
    case CellResult::Status::Timeout:
      return "timeout";
  }
  return "failed";
}

namespace {

template <class T>
void set_if(Row& row, Column column, const std::optional<T>& value) {
  if (value) row.set(column_name(column), *value);
}

/// `<phase>_seconds` (the median), `_seconds_min`, `_seconds_max` and `_measurements`.
void set_timing(Row& row, const PhaseColumns& phase, const std::optional<PhaseTiming>& t) {
  if (!t) return;
  row.set(column_name(phase.seconds), t->median);
  row.set(column_name(phase.seconds_min), t->min);
  row.set(column_name(phase.seconds_max), t->max);
  row.set(column_name(phase.measurements), static_cast<std::int64_t>(t->count));
}

}  // namespace

Row result_row(const Plan& plan, const Cell& c, int repeat, std::uint64_t seed,
               const CellResult& r) {
  Row row;
  row.set(column_name(Column::cell), c.id);
  row.set(column_name(Column::repeat), static_cast<std::int64_t>(repeat));
  row.set(column_name(Column::status), std::string(to_string(r.status)));
  row.set(column_name(Column::dataset), std::string(plan.datasets[c.dataset].plugin->name()));
  row.set(column_name(Column::kernel), plan.kernels[c.kernel].name());
  row.set(column_name(Column::solver), std::string(plan.solvers[c.solver].plugin->name()));
  row.set(column_name(Column::form), std::string(to_string(c.form)));
  row.set(column_name(Column::n_train), static_cast<std::int64_t>(r.n_train));
  row.set(column_name(Column::n_test), static_cast<std::int64_t>(r.n_test));
  row.set(column_name(Column::d), static_cast<std::int64_t>(r.d));
  row.set(column_name(Column::seed), std::to_string(seed));
  for (const std::string& column : plan.param_columns) {
    const std::string text = param_text(plan, c, column);
    if (!text.empty()) row.set(column, text);
  }
  if (r.feature_dim)
    row.set(column_name(Column::feature_dim), static_cast<std::int64_t>(*r.feature_dim));
  // The phases of a run's time (kTimedPhases), and their sum.
  const std::pair<const PhaseColumns&, const std::optional<PhaseTiming>&> phases[] = {
      {kGramPhase, r.gram},
      {kFeaturePhase, r.features},
      {kFitPhase, r.fit},
      {kPredictPhase, r.predict}};
  double total = 0;
  bool timed_any = false;
  for (const auto& [phase, t] : phases) {
    set_timing(row, phase, t);
    if (t) {
      total += t->median;
      timed_any = true;
    }
  }
  if (timed_any) row.set(column_name(Column::total_seconds), total);
  set_timing(row, kKernelFitPhase, r.kernel_fit);
  const auto timed = [](const std::optional<PhaseTiming>& t) { return t ? &*t : nullptr; };
  const std::string notes = timing_notes({{"kernel_fit", timed(r.kernel_fit)},
                                          {"gram", timed(r.gram)},
                                          {"features", timed(r.features)},
                                          {"fit", timed(r.fit)},
                                          {"predict", timed(r.predict)}});
  if (!notes.empty()) row.set(column_name(Column::timing_notes), notes);
  if (!r.memory_notes.empty()) row.set(column_name(Column::memory_notes), r.memory_notes);
  if (!r.flops_notes.empty()) row.set(column_name(Column::flops_notes), r.flops_notes);
  set_if(row, Column::test_rmse, r.test_rmse);
  set_if(row, Column::train_rmse, r.train_rmse);
  set_if(row, Column::test_accuracy, r.test_accuracy);
  set_if(row, Column::validation_rmse, r.validation_rmse);
  set_if(row, Column::validation_rmse_std, r.validation_rmse_std);
  set_if(row, Column::validation_accuracy, r.validation_accuracy);
  set_if(row, Column::validation_accuracy_std, r.validation_accuracy_std);
  set_if(row, Column::validation_seconds, r.validation_seconds);
  set_if(row, Column::flops, r.flops);
  set_if(row, Column::matrix_bytes, r.matrix_bytes);
  if (r.iterations)
    row.set(column_name(Column::iterations), static_cast<std::int64_t>(*r.iterations));
  set_if(row, Column::converged, r.converged);
  set_if(row, Column::paired_with, r.paired_with);
  set_if(row, Column::prediction_max_diff, r.prediction_max_diff);
  set_if(row, Column::precision_max_diff, r.precision_max_diff);
  for (const auto& [name, value] : r.metrics) row.set(name, value);
  for (const auto& [name, value] : r.learned) row.set("learned." + name, value);
  if (!r.loss_curve.empty()) row.set("loss_curve", nlohmann::json(r.loss_curve).dump());
  if (r.status != CellResult::Status::Ok) row.set(column_name(Column::error), r.error);
  if (!r.device_name.empty()) row.set(column_name(Column::device_name), r.device_name);
  row.set(column_name(Column::peak_rss_bytes), r.peak_rss_bytes);
  return row;
}

}  // namespace kexp::core
