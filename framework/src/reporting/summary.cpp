// summary.md: the findings first (where each form is cheaper, how times grow against the
// flop counts, how far the forms' predictions differ, the best cell per solver), then the
// tables of cells, best cells, pairs, crossovers, growth and failures, the notes and the
// plots; and write_report, which draws the plots and writes summary.md (and report.html
// when asked) for a folder.
#include "reporting/summary.hpp"
#include "util/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "reporting/manifest.hpp"
#include "reporting/plots.hpp"
#include "reporting/report_html.hpp"
#include "reporting/result_folder.hpp"
#include "reporting/setup.hpp"
#include "reporting/summary_tables.hpp"
#include "util/files.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace summary {

/// The best cell of each solver, in first-appearance order of the solvers: by the
/// validation error when the run has one, else by the test error (best_cells, analysis.hpp).
/// The swept parameters of a cell, "kernel.sigma=1, solver.lambda=0.01", those that
/// apply to it and that `keep` keeps.
std::string swept_params(const CellSummary& c, const std::vector<std::string>& swept,
                         const std::function<bool(const std::string&)>& keep) {
  std::vector<Setting> settings;
  for (const auto& column : swept) {
    const auto it = c.params.find(column);
    if (it == c.params.end() || it->second.empty() || c.shown.count(column) == 0 ||
        (keep && !keep(column))) {
      continue;
    }
    settings.push_back({column, it->second});
  }
  return settings_text(settings);
}

}  // namespace summary

namespace {

using namespace summary;

/// A validation error as the mean over the splits ± their deviation (each averaged over
/// the repeats), or the mean alone for a single held-out split.
std::string over_folds(const CellSummary& c, const std::string& column) {
  const MeanStd mean = c.stat(column);
  const MeanStd spread = c.stat(column + "_std");
  if (mean.count == 0 || spread.count == 0) return with_std(mean);
  return fmt::format("{} ± {}", number_text(mean.mean), number_text(spread.mean));
}

void cells_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                 const ErrorMeasure& measure, std::string& md) {
  Table t;
  t.header = {column_name(Column::cell), column_name(Column::kernel), column_name(Column::solver),
              column_name(Column::form)};
  for (const auto& s : swept) t.header.push_back(column_heading(s));
  const bool accuracy = measure.column == column_name(Column::test_accuracy);
  t.header.insert(t.header.end(),
                  {column_name(Column::n_train), "D", column_name(Column::train_rmse),
                   column_name(Column::test_rmse)});
  if (accuracy) t.header.push_back(column_name(Column::test_accuracy));
  if (measure.validated()) t.header.push_back(measure.selection + " (± over folds)");
  // The copies between host and GPU, a phase of their own inside fit and predict: only
  // where a cell ran on the GPU.
  const bool copies = std::any_of(cells.begin(), cells.end(), [](const CellSummary& c) {
    const MeanStd copied = c.stat(kTransferSeconds);
    return copied.count > 0 && copied.mean > 0;
  });
  for (const char* h : {"time (s)", "fit (s)"}) t.header.emplace_back(h);
  if (copies) t.header.emplace_back("copies (s)");
  t.header.emplace_back("ok");
  for (const CellSummary& c : cells) {
    std::vector<std::string> r = {c.cell, c.kernel, c.solver, c.form};
    for (const auto& s : swept) r.push_back(param_value(c, s));
    r.push_back(number_text(c.stat(Column::n_train).mean));
    r.push_back(number_text(c.stat(Column::feature_dim).mean));
    r.push_back(with_std(c.stat(Column::train_rmse)));
    r.push_back(with_std(c.stat(Column::test_rmse)));
    if (accuracy) r.push_back(with_std(c.stat(Column::test_accuracy)));
    if (measure.validated()) r.push_back(over_folds(c, measure.selection));
    r.push_back(with_std(c.stat(kTimeSeconds)));
    r.push_back(with_std(c.stat(Column::fit_seconds)));
    if (copies) r.push_back(with_std(c.stat(kTransferSeconds)));
    r.push_back(c.not_converged == 0
                    ? fmt::format("{}/{}", c.ok, c.runs)
                    : fmt::format("{}/{}, {} not converged", c.ok, c.runs, c.not_converged));
    t.rows.push_back(std::move(r));
  }
  const std::string validation =
      measure.validated() ? fmt::format(
                                " {}: the mean over the validation splits of the training part, ± "
                                "the deviation over the folds.",
                                measure.selection)
                          : "";
  const std::string same = t.drop_constant_columns({column_name(Column::cell)});
  md += fmt::format(
            "## Cells\n\nMean ± standard deviation over the repeats that finished. time: Gram "
            "or features, fit and predict (medians of repeated measurements).{}{}{}\n\n",
            copies ? " copies: the copies between host and GPU, timed apart (they are inside fit "
                     "and predict)."
                   : "",
            validation, same.empty() ? "" : " The same in every row: " + same + ".") +
        t.markdown();
}

/// Cells whose iterative solver stopped at its iteration limit, or on a residual it could
/// not lower, before its tolerance: their errors are those of an unfinished fit.
void not_converged_note(const std::vector<CellSummary>& cells,
                        const std::vector<std::string>& swept, std::string& md) {
  std::vector<std::string> named;
  std::size_t count = 0;
  for (const CellSummary& c : cells) {
    if (c.not_converged == 0) continue;
    ++count;
    if (named.size() < 8) {
      const std::string params = swept_params(c, swept);
      named.push_back(fmt::format("{} ({} {}{}: {} of {} runs)", c.cell, c.kernel, c.solver,
                                  params.empty() ? "" : ", " + params, c.not_converged, c.ok));
    }
  }
  if (count == 0) return;
  md += fmt::format(
      "**Not converged:** {} the solver stopped before its tolerance (`converged: false` "
      "in results.csv: the iteration limit, or a residual it could not lower), so {} errors "
      "are those of an unfinished fit: {}{}. Raise `iterations`, or the tolerance to what the "
      "problem's conditioning allows (a gradient descent given `tolerance: 0` runs every "
      "step and never converges).\n\n",
      count == 1 ? "in 1 cell" : fmt::format("in {} cells", count), count == 1 ? "its" : "their",
      fmt::join(named, "; "),
      count > named.size() ? fmt::format(" and {} more", count - named.size()) : "");
}

/// The best cell of each solver, chosen on the validation error when the run has one
/// (its test error then reported once, as the figure of the choice), else on the test
/// error, and then said so: a figure chosen on the test set is optimistic.
void best_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                const ErrorMeasure& measure, const std::string& validation_text, std::string& md) {
  const std::string& on = measure.selection;
  const std::vector<const CellSummary*> best = best_per_solver(cells, measure);
  if (best.empty()) return;
  Table t;
  t.header = {column_name(Column::solver), column_name(Column::cell), column_name(Column::kernel),
              "parameters"};
  if (measure.validated()) t.header.push_back(on);
  t.header.push_back(measure.column);
  for (const CellSummary* c : best) {
    const std::string params = swept_params(*c, swept);
    std::vector<std::string> row = {c->solver, c->cell, c->kernel, params.empty() ? "—" : params};
    if (measure.validated()) row.push_back(with_std(c->stat(on)));
    row.push_back(with_std(c->stat(measure.column)));
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
  t.header = {column_name(Column::cell), column_name(Column::repeat), column_name(Column::solver),
              "what happened"};
  for (const CellSummary& c : cells) {
    for (const auto& [repeat, error] : c.failures) {
      t.rows.push_back(
          {c.cell, repeat, c.solver, error.size() > 300 ? error.substr(0, 300) + "…" : error});
    }
  }
  if (t.rows.empty()) return;
  md += "## Failures\n\n" + t.markdown();
}

/// The summary of cells already gathered from results.csv, with their swept columns.
SummaryText summary_of(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       const SummaryInputs& in) {
  const ErrorMeasure measure = error_measure(cells);
  std::size_t runs = 0, ok = 0;
  for (const CellSummary& c : cells) {
    runs += c.runs;
    ok += c.ok;
  }
  const std::string title =
      fmt::format("# {}\n\n{}, {}: {}.\n\n", in.experiment, count_of(cells.size(), "cell"),
                  count_of(runs, "run"),
                  ok == runs ? std::string(runs == 1 ? "ok" : "all ok")
                             : fmt::format("{} ok, {} not ok", ok, runs - ok));
  std::string md;
  const std::string validation_text =
      in.validation.empty() ? "the validation splits" : in.validation;
  const std::vector<FormPair> pairs = find_pairs(cells, in.folder);
  const std::vector<GrowthRow> growth = growth_rows(cells, swept);
  findings(cells, pairs, growth, swept, measure, validation_text, md);
  for (const auto& note : in.notes) md += note + "\n\n";
  if (cells.empty()) return {md, {}, title, in.setup};
  SummaryText text{md, {}, title, in.setup};
  md.clear();
  cells_table(cells, swept, measure, md);
  not_converged_note(cells, swept, md);
  best_table(cells, swept, measure, validation_text, md);
  pairs_table(pairs, swept, md);
  crossover_table(pairs, swept, md);
  svm_table(cells, swept, md);
  growth_table(growth, md);
  machine_table(cells, swept, in.machine, in.threads, md);
  failures_table(cells, md);
  text.tables = std::move(md);
  return text;
}

}  // namespace

SummaryText summary_text(const CsvTable& table, const SummaryInputs& in) {
  const std::vector<CellSummary> cells = summarize_cells(table);
  return summary_of(cells, swept_columns(table, cells), in);
}

namespace {

/// summary.md: the text, then the plots linked by their paths.
std::string markdown_with_plots(const SummaryText& text, const std::vector<std::string>& plots) {
  std::string md = text.title + text.head + text.setup + text.tables;
  if (!plots.empty()) {
    md += "## Plots\n\n";
    for (const auto& p : plots) md += fmt::format("![{}]({})\n\n", p, p);
  }
  return md;
}

}  // namespace

std::string summary_markdown(const CsvTable& table, const SummaryInputs& in) {
  return markdown_with_plots(summary_text(table, in), in.plots);
}

ReportWritten write_report(const ResultFolder& result_folder, const std::vector<std::string>& notes,
                           bool html, std::optional<PlotSelection> plots_asked) {
  const fs::path& folder = result_folder.dir();
  const YAML::Node config = result_folder.read_config();
  const CsvTable table = result_folder.read_results();
  SummaryInputs in;
  in.experiment =
      config["experiment"] ? config["experiment"].as<std::string>() : folder.filename().string();
  in.folder = folder;
  if (const YAML::Node folds = config["folds"]) {
    in.validation = fmt::format("{}-fold cross-validation", folds.as<std::string>());
  } else if (const YAML::Node fraction = config["validation_fraction"]) {
    in.validation =
        fmt::format("a held-out part (validation_fraction: {})", fraction.as<std::string>());
  }
  const StoredManifest manifest = read_manifest(result_folder.manifest_file());  // read once
  // A rebuild (`kexp report`) states the notes the run recorded.
  in.notes = notes;
  if (notes.empty() && manifest.document.is_object() && manifest.document.contains("notes")) {
    for (const auto& note : manifest.document["notes"]) {
      if (note.is_string()) in.notes.push_back(note.get<std::string>());
    }
  }
  if (const auto machine = recorded_machine(manifest)) {
    in.machine = machine->limits;
    in.threads = machine->threads;
  }
  const std::vector<CellSummary> cells = summarize_cells(table);
  const YAML::Node output = config["output"];
  const PlotSelection selection =
      plots_asked.value_or(output && output["plots"] && output["plots"].as<std::string>("") == "all"
                               ? PlotSelection::all
                               : PlotSelection::findings);
  const std::vector<std::string> swept = swept_columns(table, cells);
  const PlotResult plots = write_plots(cells, swept, folder, log_scale_columns(manifest), selection,
                                       ParamDefaults(manifest.document));
  if (!plots.skipped.empty()) {
    std::cerr << "kexp: " << plots.skipped << '\n';
    in.notes.push_back(plots.skipped);
  }
  in.notes.insert(in.notes.end(), plots.not_drawn.begin(), plots.not_drawn.end());
  for (const auto& f : plots.failed) {
    const std::string message =
        fmt::format("gnuplot could not draw {}; run it by hand to see why.", f);
    std::cerr << "kexp: " << message << '\n';
    in.notes.push_back(message);
  }
  in.plots = plots.files;
  in.setup = setup_markdown(config, manifest.document, cells);
  const SummaryText text = summary_of(cells, swept, in);
  write_file_atomically(result_folder.summary_file(), markdown_with_plots(text, in.plots));
  html = html || (output && output["html"] && output["html"].as<bool>(false));
  if (html) write_html_report(result_folder, in.experiment, text, plots, manifest);
  return {plots.files, html};
}

}  // namespace kexp::core
