#include "reporting/results_row.hpp"

#include <nlohmann/json.hpp>

namespace kexp::core {

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> columns = {"cell",
                                                   "repeat",
                                                   "status",
                                                   "dataset",
                                                   "kernel",
                                                   "solver",
                                                   "form",
                                                   "n_train",
                                                   "n_test",
                                                   "d",
                                                   "feature_dim",
                                                   "train_rmse",
                                                   "test_rmse",
                                                   "test_accuracy",
                                                   "fit_seconds",
                                                   "predict_seconds",
                                                   "gram_seconds",
                                                   "feature_seconds",
                                                   "fit_seconds_min",
                                                   "fit_seconds_max",
                                                   "fit_measurements",
                                                   "predict_seconds_min",
                                                   "predict_seconds_max",
                                                   "predict_measurements",
                                                   "gram_seconds_min",
                                                   "gram_seconds_max",
                                                   "gram_measurements",
                                                   "feature_seconds_min",
                                                   "feature_seconds_max",
                                                   "feature_measurements",
                                                   "timing_notes",
                                                   "flops",
                                                   "matrix_bytes",
                                                   "peak_rss_bytes",
                                                   "iterations",
                                                   "converged",
                                                   "paired_with",
                                                   "prediction_max_diff",
                                                   "seed",
                                                   "error"};
  return columns;
}

const std::vector<std::string>& validation_columns() {
  static const std::vector<std::string> columns = {"validation_rmse", "validation_rmse_std",
                                                   "validation_accuracy", "validation_accuracy_std",
                                                   "validation_seconds"};
  return columns;
}

const std::vector<std::string>& kernel_fit_columns() {
  static const std::vector<std::string> columns = {"kernel_fit_seconds", "kernel_fit_seconds_min",
                                                   "kernel_fit_seconds_max",
                                                   "kernel_fit_measurements"};
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
  }
  return "failed";
}

namespace {

template <class T>
void set_if(Row& row, const std::string& column, const std::optional<T>& value) {
  if (value) row.set(column, *value);
}

/// `<phase>_seconds` (the median), `_seconds_min`, `_seconds_max` and `_measurements`.
void set_timing(Row& row, const std::string& phase, const std::optional<PhaseTiming>& t) {
  if (!t) return;
  row.set(phase + "_seconds", t->median);
  row.set(phase + "_seconds_min", t->min);
  row.set(phase + "_seconds_max", t->max);
  row.set(phase + "_measurements", static_cast<std::int64_t>(t->count));
}

}  // namespace

Row result_row(const Plan& plan, const Cell& c, int repeat, std::uint64_t seed,
               const CellResult& r) {
  Row row;
  row.set("cell", c.id);
  row.set("repeat", static_cast<std::int64_t>(repeat));
  row.set("status", std::string(to_string(r.status)));
  row.set("dataset", std::string(plan.datasets[c.dataset].plugin->name()));
  row.set("kernel", plan.kernels[c.kernel].name());
  row.set("solver", std::string(plan.solvers[c.solver].plugin->name()));
  row.set("form", std::string(to_string(c.form)));
  row.set("n_train", static_cast<std::int64_t>(r.n_train));
  row.set("n_test", static_cast<std::int64_t>(r.n_test));
  row.set("d", static_cast<std::int64_t>(r.d));
  row.set("seed", std::to_string(seed));
  for (const std::string& column : plan.param_columns) {
    const std::string text = param_text(plan, c, column);
    if (!text.empty()) row.set(column, text);
  }
  if (r.feature_dim) row.set("feature_dim", static_cast<std::int64_t>(*r.feature_dim));
  set_timing(row, "gram", r.gram);
  set_timing(row, "feature", r.features);
  set_timing(row, "fit", r.fit);
  set_timing(row, "predict", r.predict);
  set_timing(row, "kernel_fit", r.kernel_fit);
  const auto timed = [](const std::optional<PhaseTiming>& t) { return t ? &*t : nullptr; };
  const std::string notes = timing_notes({{"kernel_fit", timed(r.kernel_fit)},
                                          {"gram", timed(r.gram)},
                                          {"features", timed(r.features)},
                                          {"fit", timed(r.fit)},
                                          {"predict", timed(r.predict)}});
  if (!notes.empty()) row.set("timing_notes", notes);
  set_if(row, "test_rmse", r.test_rmse);
  set_if(row, "train_rmse", r.train_rmse);
  set_if(row, "test_accuracy", r.test_accuracy);
  set_if(row, "validation_rmse", r.validation_rmse);
  set_if(row, "validation_rmse_std", r.validation_rmse_std);
  set_if(row, "validation_accuracy", r.validation_accuracy);
  set_if(row, "validation_accuracy_std", r.validation_accuracy_std);
  set_if(row, "validation_seconds", r.validation_seconds);
  set_if(row, "flops", r.flops);
  set_if(row, "matrix_bytes", r.matrix_bytes);
  if (r.iterations) row.set("iterations", static_cast<std::int64_t>(*r.iterations));
  set_if(row, "converged", r.converged);
  set_if(row, "paired_with", r.paired_with);
  set_if(row, "prediction_max_diff", r.prediction_max_diff);
  for (const auto& [name, value] : r.metrics) row.set(name, value);
  for (const auto& [name, value] : r.learned) row.set("learned." + name, value);
  if (!r.loss_curve.empty()) row.set("loss_curve", nlohmann::json(r.loss_curve).dump());
  if (r.status != CellResult::Status::Ok) row.set("error", r.error);
  row.set("peak_rss_bytes", r.peak_rss_bytes);
  return row;
}

}  // namespace kexp::core
