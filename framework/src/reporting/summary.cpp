#include "reporting/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "reporting/plots.hpp"
#include "reporting/result_folder.hpp"
#include "reporting/summary_tables.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

using namespace summary;

void cells_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                 const ErrorMeasure& measure, std::string& md) {
  Table t;
  t.header = {"cell", "kernel", "solver", "form"};
  t.header.insert(t.header.end(), swept.begin(), swept.end());
  const bool accuracy = measure.column == "test_accuracy";
  for (const char* h : {"n_train", "D", "train_rmse", "test_rmse"}) t.header.emplace_back(h);
  if (accuracy) t.header.emplace_back("test_accuracy");
  if (measure.validated()) t.header.push_back(measure.selection);
  for (const char* h : {"time (s)", "fit (s)", "ok"}) t.header.emplace_back(h);
  for (const CellSummary& c : cells) {
    std::vector<std::string> r = {c.cell, c.kernel, c.solver, c.form};
    for (const auto& s : swept) r.push_back(param_value(c, s));
    r.push_back(num(c.stat("n_train").mean));
    r.push_back(num(c.stat("feature_dim").mean));
    r.push_back(with_std(c.stat("train_rmse")));
    r.push_back(with_std(c.stat("test_rmse")));
    if (accuracy) r.push_back(with_std(c.stat("test_accuracy")));
    if (measure.validated()) r.push_back(with_std(c.stat(measure.selection)));
    r.push_back(with_std(c.stat("time_seconds")));
    r.push_back(with_std(c.stat("fit_seconds")));
    r.push_back(fmt::format("{}/{}", c.ok, c.runs));
    t.rows.push_back(std::move(r));
  }
  const std::string validation =
      measure.validated()
          ? fmt::format(" {}: the mean over the validation splits of the training part.",
                        measure.selection)
          : "";
  md += fmt::format(
            "## Cells\n\nMean ± standard deviation over the repeats that finished. time: Gram "
            "or features, fit and predict.{}\n\n",
            validation) +
        t.markdown();
}

/// The best cell of each solver, chosen on the validation error when the run has one
/// (its test error then reported once, as the figure of the choice), else on the test
/// error, and then said so: a figure chosen on the test set is optimistic.
void best_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                const ErrorMeasure& measure, const std::string& validation_text, std::string& md) {
  const std::string& on = measure.selection;
  std::map<std::string, const CellSummary*> best;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const double e = c.stat(on).mean;
    if (c.stat(on).count == 0 || !std::isfinite(e)) continue;
    const auto it = best.find(c.solver);
    if (it == best.end()) order.push_back(c.solver);
    if (it == best.end() ||
        (measure.lower_is_better ? e < it->second->stat(on).mean : e > it->second->stat(on).mean)) {
      best[c.solver] = &c;
    }
  }
  if (best.empty()) return;
  Table t;
  t.header = {"solver", "cell", "kernel", "parameters"};
  if (measure.validated()) t.header.push_back(on);
  t.header.push_back(measure.column);
  for (const auto& s : order) {
    const CellSummary& c = *best[s];
    std::string params;
    for (const auto& column : swept) {
      const auto it = c.params.find(column);
      if (it == c.params.end() || it->second.empty()) continue;
      params += (params.empty() ? "" : ", ") + column + "=" + it->second;
    }
    std::vector<std::string> row = {s, c.cell, c.kernel, params.empty() ? "—" : params};
    if (measure.validated()) row.push_back(with_std(c.stat(on)));
    row.push_back(with_std(c.stat(measure.column)));
    t.rows.push_back(std::move(row));
  }
  const std::string how =
      measure.validated()
          ? fmt::format(
                "Chosen by {} ({} is better) over the swept parameters, on {} of the "
                "training part; the test set was not looked at to choose, and {} is the "
                "chosen cell's figure on it.",
                on, measure.lower_is_better ? "lower" : "higher", validation_text, measure.column)
          : fmt::format(
                "Chosen by {} ({} is better) over the swept parameters: **picked on the test "
                "set**, so the figures are optimistic estimates of the error on new data. "
                "Add `folds: 5` (cross-validation on the training part) or "
                "`validation_fraction: 0.2` to the experiment file to choose without the "
                "test set.",
                on, measure.lower_is_better ? "lower" : "higher");
  md += "## Best cell per solver\n\n" + how + "\n\n" + t.markdown();
}

void failures_table(const std::vector<CellSummary>& cells, std::string& md) {
  Table t;
  t.header = {"cell", "repeat", "solver", "what happened"};
  for (const CellSummary& c : cells) {
    for (const auto& [repeat, error] : c.failures) {
      t.rows.push_back(
          {c.cell, repeat, c.solver, error.size() > 300 ? error.substr(0, 300) + "…" : error});
    }
  }
  if (t.rows.empty()) return;
  md += "## Failures\n\n" + t.markdown();
}

}  // namespace

std::string summary_markdown(const CsvTable& table, const SummaryInputs& in) {
  const std::vector<CellSummary> cells = summarize_cells(table);
  const std::vector<std::string> swept = swept_columns(table, cells);
  const ErrorMeasure measure = error_measure(cells);
  std::size_t runs = 0, ok = 0;
  for (const CellSummary& c : cells) {
    runs += c.runs;
    ok += c.ok;
  }
  std::string md = fmt::format("# {}\n\n{} cells, {} runs: {} ok, {} not.\n\n", in.experiment,
                               cells.size(), runs, ok, runs - ok);
  for (const auto& note : in.notes) md += note + "\n\n";
  if (cells.empty()) return md;
  cells_table(cells, swept, measure, md);
  best_table(cells, swept, measure, in.validation.empty() ? "the validation splits" : in.validation,
             md);
  const std::vector<FormPair> pairs = find_pairs(cells, in.folder);
  pairs_table(pairs, swept, md);
  crossover_table(pairs, swept, md);
  growth_table(cells, swept, md);
  failures_table(cells, md);
  if (!in.plots.empty()) {
    md += "## Plots\n\n";
    for (const auto& p : in.plots) md += fmt::format("![{}]({})\n\n", p, p);
  }
  return md;
}

std::vector<std::string> write_report(const ResultFolder& result_folder,
                                      const std::vector<std::string>& notes) {
  const fs::path& folder = result_folder.dir();
  const YAML::Node config = result_folder.read_config();
  const CsvTable table = result_folder.read_results();
  SummaryInputs in;
  in.experiment =
      config["experiment"] ? config["experiment"].as<std::string>() : folder.filename().string();
  in.notes = notes;
  in.folder = folder;
  if (const YAML::Node folds = config["folds"]) {
    in.validation = fmt::format("{}-fold cross-validation", folds.as<std::string>());
  } else if (const YAML::Node fraction = config["validation_fraction"]) {
    in.validation =
        fmt::format("a held-out part (validation_fraction: {})", fraction.as<std::string>());
  }
  const std::vector<CellSummary> cells = summarize_cells(table);
  const PlotResult plots = write_plots(cells, swept_columns(table, cells), folder);
  if (!plots.skipped.empty()) {
    std::cerr << "kexp: " << plots.skipped << '\n';
    in.notes.push_back(plots.skipped);
  }
  for (const auto& f : plots.failed) {
    const std::string message =
        fmt::format("gnuplot could not draw {}; run it by hand to see why.", f);
    std::cerr << "kexp: " << message << '\n';
    in.notes.push_back(message);
  }
  in.plots = plots.files;
  write_file_atomically(result_folder.summary_file(), summary_markdown(table, in));
  return plots.files;
}

}  // namespace kexp::core
