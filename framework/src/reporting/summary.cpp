#include "reporting/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "reporting/folder.hpp"
#include "reporting/plots.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

std::string num(double v) {
  if (!std::isfinite(v)) return "—";
  return fmt::format("{:.4g}", v);
}

std::string with_std(const MeanStd& s) {
  if (s.count == 0) return "—";
  if (s.count == 1) return num(s.mean);
  return fmt::format("{} ± {}", num(s.mean), num(s.std));
}

/// A table cell: pipes escaped, no newlines.
std::string cell_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  [[nodiscard]] std::string markdown() const {
    std::string md = "|";
    for (const auto& h : header) md += " " + cell_text(h) + " |";
    md += "\n|";
    for (std::size_t i = 0; i < header.size(); ++i) md += "---|";
    md += "\n";
    for (const auto& r : rows) {
      md += "|";
      for (const auto& f : r) md += " " + cell_text(f) + " |";
      md += "\n";
    }
    return md + "\n";
  }
};

std::string param_value(const CellSummary& c, const std::string& column) {
  const auto it = c.params.find(column);
  return it == c.params.end() || it->second.empty() ? "—" : it->second;
}

void cells_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                 const ErrorMeasure& measure, std::string& md) {
  Table t;
  t.header = {"cell", "kernel", "solver", "form"};
  t.header.insert(t.header.end(), swept.begin(), swept.end());
  const bool accuracy = measure.column == "test_accuracy";
  for (const char* h : {"n_train", "D", "train_rmse", "test_rmse"}) t.header.emplace_back(h);
  if (accuracy) t.header.emplace_back("test_accuracy");
  for (const char* h : {"time (s)", "fit (s)", "ok"}) t.header.emplace_back(h);
  for (const CellSummary& c : cells) {
    std::vector<std::string> r = {c.cell, c.kernel, c.solver, c.form};
    for (const auto& s : swept) r.push_back(param_value(c, s));
    r.push_back(num(c.stat("n_train").mean));
    r.push_back(num(c.stat("feature_dim").mean));
    r.push_back(with_std(c.stat("train_rmse")));
    r.push_back(with_std(c.stat("test_rmse")));
    if (accuracy) r.push_back(with_std(c.stat("test_accuracy")));
    r.push_back(with_std(c.stat("time_seconds")));
    r.push_back(with_std(c.stat("fit_seconds")));
    r.push_back(fmt::format("{}/{}", c.ok, c.runs));
    t.rows.push_back(std::move(r));
  }
  md +=
      "## Cells\n\nMean ± standard deviation over the repeats that finished. time: Gram or "
      "features, fit and predict.\n\n" +
      t.markdown();
}

void best_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                const ErrorMeasure& measure, std::string& md) {
  std::map<std::string, const CellSummary*> best;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const double e = c.stat(measure.column).mean;
    if (!std::isfinite(e)) continue;
    const auto it = best.find(c.solver);
    if (it == best.end()) order.push_back(c.solver);
    if (it == best.end() || (measure.lower_is_better ? e < it->second->stat(measure.column).mean
                                                     : e > it->second->stat(measure.column).mean)) {
      best[c.solver] = &c;
    }
  }
  if (best.empty()) return;
  Table t;
  t.header = {"solver", "cell", "kernel", "parameters", measure.column};
  for (const auto& s : order) {
    const CellSummary& c = *best[s];
    std::string params;
    for (const auto& column : swept) {
      const auto it = c.params.find(column);
      if (it == c.params.end() || it->second.empty()) continue;
      params += (params.empty() ? "" : ", ") + column + "=" + it->second;
    }
    t.rows.push_back(
        {s, c.cell, c.kernel, params.empty() ? "—" : params, with_std(c.stat(measure.column))});
  }
  md += fmt::format(
            "## Best cell per solver\n\nBy {} ({} is better), over the swept "
            "parameters.\n\n",
            measure.column, measure.lower_is_better ? "lower" : "higher") +
        t.markdown();
}

void pairs_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                 std::string& md) {
  md += "## Primal against dual\n\n";
  if (pairs.empty()) {
    md +=
        "No primal-dual pairs: a pair is two cells with the same dataset and kernel variant, "
        "one solver in the primal form and one in the dual, that share a parameter and agree "
        "on every parameter they share (primal ridge and kernel ridge with the same λ).\n\n";
    return;
  }
  md +=
      "Cells with the same dataset and kernel variant, one solver primal and one dual, that "
      "agree on every parameter they share. Ratios are primal / dual, of mean time (Gram or "
      "features, fit and predict) and of the bytes of the main matrices. max |Δŷ| is the "
      "largest difference between their test predictions over the repeats; on an exact "
      "feature map theory makes it zero up to rounding.\n\n";
  Table t;
  t.header = {"primal", "dual", "kernel"};
  for (const auto& s : swept) {
    if (s.rfind("solver.", 0) != 0) t.header.push_back(s);
  }
  for (const char* h :
       {"solver parameters", "n", "D", "D / n", "time ratio", "memory ratio", "max |Δŷ|"}) {
    t.header.emplace_back(h);
  }
  for (const FormPair& p : pairs) {
    const CellSummary& a = *p.primal;
    const CellSummary& b = *p.dual;
    std::vector<std::string> r = {a.solver + " " + a.cell, b.solver + " " + b.cell, a.kernel};
    for (const auto& s : swept) {
      if (s.rfind("solver.", 0) != 0) r.push_back(param_value(a, s));
    }
    std::string shared;
    for (const auto& [column, value] : a.params) {
      if (column.rfind("solver.", 0) != 0 || value.empty()) continue;
      const auto it = b.params.find(column);
      if (it != b.params.end() && it->second == value) {
        shared += (shared.empty() ? "" : ", ") + column.substr(7) + "=" + value;
      }
    }
    r.push_back(shared);
    const double n = a.stat("n_train").mean, D = a.stat("feature_dim").mean;
    r.push_back(num(n));
    r.push_back(num(D));
    r.push_back(num(D / n));
    r.push_back(num(a.stat("time_seconds").mean / b.stat("time_seconds").mean));
    r.push_back(num(a.stat("matrix_bytes").mean / b.stat("matrix_bytes").mean));
    r.push_back(p.prediction_max_diff >= 0 ? fmt::format("{:.3g}", p.prediction_max_diff) : "—");
    t.rows.push_back(std::move(r));
  }
  md += t.markdown();
}

/// Where the time of each primal-dual pair series over n crosses, against D: theory puts
/// the crossover at n ≈ D (a gradient step costs O(nD) against O(n²), ridge O(nD² + D³)
/// against O(n³)).
void crossover_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                     std::string& md) {
  struct Series {
    const FormPair* first = nullptr;
    std::map<double, std::pair<double, double>> by_n;  // n → (primal time, dual time)
    std::set<double> dims;
  };
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  for (const FormPair& p : pairs) {
    const CellSummary& a = *p.primal;
    const CellSummary& b = *p.dual;
    const double n = a.stat("n_train").mean;
    const double ta = a.stat("time_seconds").mean, tb = b.stat("time_seconds").mean;
    if (!(n > 0) || !(ta > 0) || !(tb > 0)) continue;
    const std::string key = a.dataset + "|" + a.kernel + "|" + a.solver + "|" + b.solver + "|" +
                            a.params_of("dataset", "dataset.n") + "|" + a.params_of("kernel") +
                            "|" + a.params_of("solver") + "|" + b.params_of("solver");
    auto [it, fresh] = series.emplace(key, Series{});
    if (fresh) {
      it->second.first = &p;
      order.push_back(key);
    }
    it->second.by_n[n] = {ta, tb};
    it->second.dims.insert(a.stat("feature_dim").mean);
  }
  Table t;
  t.header = {"primal", "dual", "kernel"};
  for (const auto& s : swept) {
    if (s.rfind("solver.", 0) != 0 && s != "dataset.n") t.header.push_back(s);
  }
  for (const char* h : {"D", "n", "cheaper at the smallest n", "crossover n", "crossover n / D"}) {
    t.header.emplace_back(h);
  }
  for (const auto& key : order) {
    const Series& s = series.at(key);
    if (s.by_n.size() < 2) continue;
    const CellSummary& a = *s.first->primal;
    const CellSummary& b = *s.first->dual;
    std::vector<std::string> r = {a.solver, b.solver, a.kernel};
    for (const auto& column : swept) {
      if (column.rfind("solver.", 0) != 0 && column != "dataset.n") {
        r.push_back(param_value(a, column));
      }
    }
    std::vector<double> ns, primal, dual;
    for (const auto& [n, times] : s.by_n) {
      ns.push_back(n);
      primal.push_back(times.first);
      dual.push_back(times.second);
    }
    const double D = s.dims.size() == 1 ? *s.dims.begin() : std::nan("");
    r.push_back(num(D));
    r.push_back(fmt::format("{} … {}", num(ns.front()), num(ns.back())));
    r.emplace_back(primal.front() < dual.front() ? "primal" : "dual");
    const auto x = crossover(ns, primal, dual);
    r.push_back(x ? num(*x) : "none in range");
    r.push_back(x ? num(*x / D) : "—");
    t.rows.push_back(std::move(r));
  }
  if (t.rows.empty()) return;
  md +=
      "## Crossover in n\n\nFor each primal-dual pair swept over n with everything else "
      "fixed: the n where their times (Gram or features, fit and predict) cross, "
      "interpolated in (log n, log time) at the first change of sign, against the feature "
      "dimension D. Theory puts it near n ≈ D: a gradient step costs O(nD) against O(n²), "
      "ridge O(nD² + D³) against O(n³).\n\n" +
      t.markdown();
}

void growth_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                  std::string& md) {
  struct Series {
    std::string kernel, solver, form, fixed;
    std::map<std::string, std::vector<double>> x, y;  // cost → points
  };
  const char* const costs[] = {"time_seconds", "fit_seconds", "flops", "matrix_bytes"};
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const double n = c.stat("n_train").mean;
    if (!(n > 0)) continue;
    std::string fixed, key_params;
    for (const auto& [column, value] : c.params) {
      if (column == "dataset.n" || value.empty()) continue;
      // every parameter keys the series; the swept ones are shown
      key_params += column + "=" + value + ";";
      if (std::find(swept.begin(), swept.end(), column) != swept.end()) {
        fixed += (fixed.empty() ? "" : ", ") + column + "=" + value;
      }
    }
    const std::string key =
        c.dataset + "|" + c.kernel + "|" + c.solver + "|" + c.form + "|" + key_params;
    auto [it, fresh] = series.emplace(key, Series{c.kernel, c.solver, c.form, fixed, {}, {}});
    if (fresh) order.push_back(key);
    for (const char* cost : costs) {
      const double v = c.stat(cost).mean;
      if (v > 0) {
        it->second.x[cost].push_back(n);
        it->second.y[cost].push_back(v);
      }
    }
  }
  Table t;
  t.header = {"kernel", "solver", "form", "other parameters", "cost", "exponent b", "R²", "points"};
  for (const auto& key : order) {
    const Series& s = series.at(key);
    for (const char* cost : costs) {
      const auto xs = s.x.find(cost);
      if (xs == s.x.end()) continue;
      if (std::set<double>(xs->second.begin(), xs->second.end()).size() < 3) continue;
      const auto fit = fit_power_law(xs->second, s.y.at(cost));
      if (!fit) continue;
      t.rows.push_back({s.kernel, s.solver, s.form, s.fixed.empty() ? "—" : s.fixed, cost,
                        fmt::format("{:.2f}", fit->exponent), fmt::format("{:.3f}", fit->r2),
                        std::to_string(fit->points)});
    }
  }
  md += "## Growth with n\n\n";
  if (t.rows.empty()) {
    md +=
        "No cost was measured at three or more sizes n with everything else fixed: sweep the "
        "dataset's `n` to see how each cost grows.\n\n";
    return;
  }
  md +=
      "cost ≈ c·nᵇ, fitted by least squares on (log n, log cost) over the cells that differ "
      "only in the dataset's n (means over repeats; n is the number of training points).\n\n" +
      t.markdown();
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
  best_table(cells, swept, measure, md);
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

std::vector<std::string> write_report(const fs::path& folder,
                                      const std::vector<std::string>& notes) {
  const YAML::Node config = read_resolved_config(folder);
  const CsvTable table = read_results(folder);
  SummaryInputs in;
  in.experiment =
      config["experiment"] ? config["experiment"].as<std::string>() : folder.filename().string();
  in.notes = notes;
  in.folder = folder;
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
  write_file_atomically(folder / "summary.md", summary_markdown(table, in));
  return plots.files;
}

}  // namespace kexp::core
