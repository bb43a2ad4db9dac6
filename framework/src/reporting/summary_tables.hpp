// The pieces summary.md is built of (private to reporting/): number formats, markdown
// tables, and the tables of primal against dual (reporting/summary_cost.cpp).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"
#include "util/machine.hpp"

namespace kexp::core::summary {

inline std::string with_std(const MeanStd& s) {
  // A value that is there but not finite is written as such, never as "not known".
  if (s.count == 0) return s.nonfinite > 0 ? "NaN" : "—";
  const std::string left_out =
      s.nonfinite > 0 ? fmt::format(" ({} not finite)", s.nonfinite) : std::string();
  if (s.count == 1) return number_text(s.mean) + left_out;
  return fmt::format("{} ± {}{}", number_text(s.mean), number_text(s.std), left_out);
}

/// A table cell: pipes escaped, no newlines.
inline std::string cell_text(const std::string& s) {
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
  /// Removes the columns that hold one value in every row (not those named in `keep`),
  /// and returns them as "name = value, …" to be stated once above the table; empty
  /// when none was removed or the table has fewer than two rows.
  std::string drop_constant_columns(const std::vector<std::string>& keep) {
    if (rows.size() < 2) return {};
    std::string same;
    for (std::size_t c = header.size(); c-- > 0;) {
      if (std::find(keep.begin(), keep.end(), header[c]) != keep.end()) continue;
      bool constant = true;
      for (const auto& r : rows) constant = constant && c < r.size() && r[c] == rows[0][c];
      if (!constant) continue;
      same = fmt::format("{} = {}", header[c], rows[0][c]) + (same.empty() ? "" : ", ") + same;
      header.erase(header.begin() + static_cast<std::ptrdiff_t>(c));
      for (auto& r : rows) r.erase(r.begin() + static_cast<std::ptrdiff_t>(c));
    }
    return same;
  }
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

inline std::string param_value(const CellSummary& c, const std::string& column) {
  const auto it = c.params.find(column);
  return it == c.params.end() || it->second.empty() ? "—" : shown_value(it->second);
}

/// Primal against dual for every pair of counterpart cells: time and memory ratios, the
/// largest prediction difference, D against n.
void pairs_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                 std::string& md);

/// A primal-dual pair swept over n with everything else fixed.
struct CrossoverSeries {
  const FormPair* pair = nullptr;  ///< the first pair of the series
  double D = 0;                    ///< NaN when D varies
  std::vector<double> n;
  bool primal_cheaper_first = false;
  std::optional<Crossover> measured;
  bool flops_known = false;
  std::optional<double> predicted;  ///< where the flop counts cross
};
std::vector<CrossoverSeries> crossover_series(const std::vector<FormPair>& pairs);

/// For each primal-dual pair swept over n, where their times cross, against D.
void crossover_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                     std::string& md);

/// A parameter column and its value, "kernel.sigma" = "1".
struct Setting {
  std::string column, value;
};

/// A parameter column as a table's heading: the dataset's n is the total, training and test
/// points together, where every other n of the report is the training points'.
inline std::string column_heading(const std::string& column) {
  return column == "dataset.n" ? "dataset.n (total)" : column;
}

/// "kernel.sigma=1, solver.lambda=0.01"; the dataset's n said to be the total
/// ("dataset.n=8000 in all").
inline std::string settings_text(const std::vector<Setting>& settings) {
  std::string text;
  for (const Setting& s : settings) {
    text += (text.empty() ? "" : ", ") + s.column + "=" + shown_value(s.value) +
            (s.column == "dataset.n" ? " in all" : "");
  }
  return text;
}

/// One cost of one series of cells that differ only in the dataset's n: its power law,
/// and for a time the exponent of the flop count over the same cells.
struct GrowthRow {
  std::string kernel, solver, form, cost;
  std::vector<Setting> settings;  ///< the swept parameters of the series
  PowerFit fit;
  std::optional<double> predicted;
};
std::vector<GrowthRow> growth_rows(const std::vector<CellSummary>& cells,
                                   const std::vector<std::string>& swept);

/// The growth exponent of each cost over n, with R².
void growth_table(const std::vector<GrowthRow>& rows, std::string& md);

/// The cells' rates against the machine's limits at `threads` (summary_machine.cpp);
/// nothing without limits.
void machine_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                   const std::optional<MachineLimits>& m, int threads, std::string& md);

/// The swept parameters of a cell, "kernel.sigma=1, solver.lambda=0.01", those that
/// apply to it and that `keep` keeps.
std::string swept_params(const CellSummary& c, const std::vector<std::string>& swept,
                         const std::function<bool(const std::string&)>& keep = {});

/// For each primal–dual series over n whose dual is a support vector machine (it reports
/// `support_vectors`): the share of support vectors and the kernel values it computed, and
/// where the dual's sparsity wins against the primal (summary_svm.cpp).
std::vector<std::string> sparsity_findings(const std::vector<CellSummary>& cells,
                                           const std::vector<FormPair>& pairs,
                                           const std::vector<std::string>& swept);

/// "## Support vector machines": each SVM cell's support vectors and kernel evaluations
/// beside its time and memory; nothing without such cells (summary_svm.cpp).
void svm_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
               std::string& md);

/// Settings in symbols, "d = 10, p = 4", as the findings name a variant
/// (summary_cost_findings.cpp).
std::string symbols_text(const std::vector<Setting>& settings);

/// Each primal-dual series over n: where each form is cheaper, against the flop counts;
/// series that come out alike are one line (summary_cost_findings.cpp).
std::vector<std::string> crossover_findings(const std::vector<CellSummary>& cells,
                                            const std::vector<FormPair>& pairs,
                                            const std::vector<std::string>& swept);

/// How each time grows with n, against the flop count: one line per solver, form and
/// kernel (summary_cost_findings.cpp).
std::vector<std::string> growth_findings(const std::vector<CellSummary>& cells,
                                         const std::vector<GrowthRow>& growth);

/// The "## Findings" section (summary_findings.cpp): the answer first, each cost finding
/// with what makes it less than sure.
void findings(const std::vector<CellSummary>& cells, const std::vector<FormPair>& pairs,
              const std::vector<GrowthRow>& growth, const std::vector<std::string>& swept,
              const ErrorMeasure& measure, const std::string& validation_text, std::string& md);

}  // namespace kexp::core::summary
