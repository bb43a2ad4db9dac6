// The pieces summary.md is built of (private to reporting/): number formats, markdown
// tables, and the tables of primal against dual (reporting/summary_cost.cpp).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"

namespace kexp::core::summary {

inline std::string num(double v) {
  if (!std::isfinite(v)) return "—";
  return fmt::format("{:.4g}", v);
}

inline std::string with_std(const MeanStd& s) {
  if (s.count == 0) return "—";
  if (s.count == 1) return num(s.mean);
  return fmt::format("{} ± {}", num(s.mean), num(s.std));
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
  return it == c.params.end() || it->second.empty() ? "—" : it->second;
}

/// Primal against dual for every pair of counterpart cells: time and memory ratios, the
/// largest prediction difference, D against n.
void pairs_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                 std::string& md);

/// For each primal-dual pair swept over n, where their times cross, against D.
void crossover_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                     std::string& md);

/// The growth exponent of each cost over n, with R².
void growth_table(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                  std::string& md);

}  // namespace kexp::core::summary
