// The cost findings at the top of summary.md (summary_findings.cpp puts them there): where
// each form is cheaper against what the flop counts predict, and how the times grow
// against the flop counts, grouped over the variants that come out alike; each says when
// its figures do not bear it (a poor fit, a wide range, a disagreement with the flop
// counts).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reporting/summary_tables.hpp"
#include "reporting/symbols.hpp"

namespace kexp::core::summary {

namespace {

/// solver → parameter column → the values the solver's cells take.
using SolverValues = std::map<std::string, std::map<std::string, std::set<std::string>>>;

/// The values of each plugin's parameters over the cells: "solver:kernel_ridge" →
/// "solver.lambda" → {…}, and the same for kernels.
SolverValues solver_parameter_values(const std::vector<CellSummary>& cells) {
  SolverValues out;
  for (const CellSummary& c : cells) {
    for (const auto& [column, value] : c.params) {
      if (value.empty()) continue;
      if (column.rfind("solver.", 0) == 0) out["solver:" + c.solver][column].insert(value);
      if (column.rfind("kernel.", 0) == 0) out["kernel:" + c.kernel][column].insert(value);
    }
  }
  return out;
}

/// Whether `column` is worth naming for a cell of this kernel and solver: a dataset
/// parameter that is swept, or a kernel or solver parameter that the cells of that very
/// plugin sweep (a λ sweep), not one that only another plugin's cells differ in.
bool varies(const SolverValues& values, const std::string& kernel, const std::string& solver,
            const std::string& column) {
  const bool is_solver = column.rfind("solver.", 0) == 0;
  if (!is_solver && column.rfind("kernel.", 0) != 0) return true;
  const auto s = values.find(is_solver ? "solver:" + solver : "kernel:" + kernel);
  if (s == values.end()) return false;
  const auto c = s->second.find(column);
  return c != s->second.end() && c->second.size() > 1;
}

/// Below this R², a growth exponent is not a finding but noise.
constexpr double kPoorFitR2 = 0.9;
/// A crossover whose range spans more than this factor is placed only loosely.
constexpr double kWideCrossover = 2;
constexpr const char* kSteadierTimes =
    "rerun on a quiet machine, with more repeats, or over a wider range of n";

/// How far to trust a resolved crossover, when not fully: its range is wide, or the flop
/// counts do not cross there or cross far from it (a factor of 3).
std::string crossover_trust(const CrossoverSeries& s) {
  if (!s.measured || !s.measured->unresolved.empty()) return {};
  const Crossover& c = *s.measured;
  std::string out;
  if (std::isfinite(c.low) && std::isfinite(c.high) && c.low > 0 &&
      c.high / c.low > kWideCrossover) {
    out += fmt::format(" — **a wide range** ({:.1f}× from end to end)", c.high / c.low);
  }
  if (s.flops_known && !s.predicted) {
    out += " — **the flop counts do not cross here**";
  } else if (s.predicted && (c.n / *s.predicted > 3 || *s.predicted / c.n > 3)) {
    out += " — **far from where the flop counts cross**";
  }
  return out.empty() ? out : out + fmt::format(": {}", kSteadierTimes);
}

}  // namespace

/// Settings in symbols, "d = 10, p = 4", as the findings name a variant.
std::string symbols_text(const std::vector<Setting>& settings) {
  std::vector<std::string> parts;
  for (const Setting& s : settings) {
    parts.push_back(setting_text(s.column, s.value) + (s.column == "dataset.n" ? " in all" : ""));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

namespace {

/// The variants a grouped finding covers, in symbols: what they share ("p = 4") and what
/// they differ in ("d ∈ {5, 10, 15}"), "9 variants: p = 4, d ∈ {5, 10, 15}".
std::string variants_text(const std::vector<std::vector<Setting>>& variants) {
  std::vector<std::string> columns;  // in first-appearance order
  std::map<std::string, std::vector<std::string>> values;
  for (const auto& settings : variants) {
    for (const Setting& s : settings) {
      auto& v = values[s.column];
      if (v.empty()) columns.push_back(s.column);
      if (std::find(v.begin(), v.end(), s.value) == v.end()) v.push_back(s.value);
    }
  }
  std::vector<std::string> parts;
  for (const std::string& c : columns) {
    std::vector<std::string>& v = values[c];
    std::sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) {
      double x = 0, y = 0;
      return parse_number(a, x) && parse_number(b, y) ? x < y : a < b;
    });
    parts.push_back(v.size() == 1 ? setting_text(c, v.front())
                                  : symbol_of(c) + " ∈ " + values_text(v));
  }
  return fmt::format("{} variants{}", variants.size(),
                     parts.empty() ? "" : fmt::format(": {}", fmt::join(parts, ", ")));
}

/// "0.93" or "0.93 … 1.6": the range of some numbers.
std::string span_text(std::vector<double> values, const char* format = "{:.3g}") {
  values.erase(
      std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
      values.end());
  if (values.empty()) return "—";
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const std::string a = fmt::format(fmt::runtime(format), *lo);
  const std::string b = fmt::format(fmt::runtime(format), *hi);
  return a == b ? a : a + " … " + b;
}

/// The swept settings a finding names for a cell of this kernel and solver.
std::vector<Setting> named_settings(const CellSummary& c, const std::vector<std::string>& swept,
                                    const SolverValues& values) {
  std::vector<Setting> out;
  for (const std::string& column : swept) {
    const auto it = c.params.find(column);
    if (column == "dataset.n" || it == c.params.end() || it->second.empty() ||
        c.shown.count(column) == 0 || !varies(values, c.kernel, c.solver, column)) {
      continue;
    }
    out.push_back({column, it->second});
  }
  return out;
}

}  // namespace

/// Each primal-dual series over n: where each form is cheaper, against the flop counts.
/// Series of one pair of solvers and one kernel that come out alike (each resolved, or each
/// with one form cheaper throughout, or each unresolved) are one line, with the spread of
/// their figures, n stated against D; the tables below hold each.
std::vector<std::string> crossover_findings(const std::vector<CellSummary>& cells,
                                            const std::vector<FormPair>& pairs,
                                            const std::vector<std::string>& swept) {
  const SolverValues solver_values = solver_parameter_values(cells);
  std::vector<CrossoverSeries> series = crossover_series(pairs);
  // The answers first: resolved crossovers, then one form cheaper throughout, then the
  // crossovers the measurements do not settle.
  const auto rank = [](const CrossoverSeries& s) {
    if (!s.measured) return 1;
    return s.measured->unresolved.empty() ? 0 : 2;
  };
  std::stable_sort(
      series.begin(), series.end(),
      [&](const CrossoverSeries& a, const CrossoverSeries& b) { return rank(a) < rank(b); });
  // The series of each line: (pair of solvers and kernel, outcome) → series, in order.
  std::map<std::string, std::vector<const CrossoverSeries*>> groups;
  std::vector<std::string> order;
  for (const CrossoverSeries& s : series) {
    const CellSummary& a = *s.pair->primal;
    const std::string outcome =
        !s.measured
            ? (s.primal_cheaper_first ? "primal" : "dual")
            : (s.measured->unresolved.empty() ? (s.primal_cheaper_first ? "p<" : "d<") : "?");
    const std::string key =
        a.solver + '\n' + s.pair->dual->solver + '\n' + a.kernel + '\n' + outcome;
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    it->second.push_back(&s);
  }
  std::vector<std::string> lines;
  for (const std::string& key : order) {
    const std::vector<const CrossoverSeries*>& group = groups.at(key);
    const CrossoverSeries& s = *group.front();
    const CellSummary& a = *s.pair->primal;
    const char* first = s.primal_cheaper_first ? "primal" : "dual";
    const char* second = s.primal_cheaper_first ? "dual" : "primal";
    std::string what = fmt::format("{} / {}, {}", a.solver, s.pair->dual->solver, a.kernel);
    if (group.size() == 1) {
      const std::string fixed = symbols_text(named_settings(a, swept, solver_values));
      if (!fixed.empty()) what += " (" + fixed + ")";
      if (std::isfinite(s.D)) what += fmt::format(", D = {}", number_text(s.D));
      std::string finding;
      if (!s.measured) {
        finding = fmt::format("{} cheaper at every n from {} to {}", first,
                              number_text(s.n.front()), number_text(s.n.back()));
      } else if (!s.measured->unresolved.empty()) {
        finding = "crossover " + s.measured->unresolved;
      } else {
        finding = fmt::format(
            "{} cheaper below n ≈ {}{}, {} above", first, crossover_text(*s.measured),
            std::isfinite(s.D) ? fmt::format(" = {:.2g} D", s.measured->n / s.D) : "", second);
      }
      if (s.flops_known) {
        finding += s.predicted
                       ? fmt::format("; the flop counts cross at n ≈ {}", number_text(*s.predicted))
                       : "; the flop counts do not cross in this range";
      }
      finding += crossover_trust(s);
      lines.push_back(what + ": " + finding);
      continue;
    }
    std::vector<std::vector<Setting>> variants;
    std::vector<double> dims, at, at_over_D, flops_over_D, lowest_n, highest_n;
    std::size_t loose = 0, flops_cross = 0, flops_known = 0;
    for (const CrossoverSeries* g : group) {
      variants.push_back(named_settings(*g->pair->primal, swept, solver_values));
      dims.push_back(g->D);
      lowest_n.push_back(g->n.front());
      highest_n.push_back(g->n.back());
      if (g->measured && g->measured->unresolved.empty()) {
        at.push_back(g->measured->n);
        at_over_D.push_back(g->measured->n / g->D);
      }
      if (g->flops_known) ++flops_known;
      if (g->predicted) {
        ++flops_cross;
        flops_over_D.push_back(*g->predicted / g->D);
      }
      if (!crossover_trust(*g).empty()) ++loose;
    }
    what += ", " + variants_text(variants);
    std::string finding;
    if (!s.measured) {
      finding = fmt::format("{} cheaper at every n drawn (from {} to {}), with D = {}", first,
                            span_text(lowest_n, "{:.4g}"), span_text(highest_n, "{:.4g}"),
                            span_text(dims, "{:.4g}"));
    } else if (!s.measured->unresolved.empty()) {
      finding =
          "crossover not resolved: the times either side are too close or too short "
          "(see the table of crossovers)";
    } else {
      finding = fmt::format("{} cheaper below n ≈ {} D (n ≈ {}, D = {}), {} above", first,
                            span_text(at_over_D, "{:.2g}"), span_text(at, "{:.4g}"),
                            span_text(dims, "{:.4g}"), second);
    }
    if (flops_known == group.size()) {
      finding += flops_cross == group.size() ? fmt::format("; the flop counts cross at n ≈ {} D",
                                                           span_text(flops_over_D, "{:.2g}"))
                 : flops_cross == 0
                     ? std::string("; the flop counts do not cross in this range")
                     : fmt::format("; the flop counts cross in {} of them", flops_cross);
    }
    if (loose > 0) {
      finding += fmt::format(
          " — **{} of them placed loosely** (a wide range, or far from the "
          "flop counts; the table of crossovers says which): {}",
          loose, kSteadierTimes);
    }
    lines.push_back(what + ": " + finding);
  }
  return lines;
}

/// How each time grows with n, against the flop count: one line per solver, form and kernel,
/// with the spread of the exponents over its variants where it has several.
std::vector<std::string> growth_findings(const std::vector<CellSummary>& cells,
                                         const std::vector<GrowthRow>& growth) {
  const SolverValues solver_values = solver_parameter_values(cells);
  std::map<std::string, std::vector<GrowthRow>> groups;
  std::vector<std::string> order;
  for (GrowthRow r : growth) {
    if (r.cost != kTimeSeconds) continue;
    std::vector<Setting> named;
    for (const Setting& setting : r.settings) {
      if (varies(solver_values, r.kernel, r.solver, setting.column)) named.push_back(setting);
    }
    r.settings = named;
    const std::string key = r.solver + '\n' + r.form + '\n' + r.kernel;
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    it->second.push_back(std::move(r));
  }
  std::vector<std::string> lines;
  for (const std::string& key : order) {
    const std::vector<GrowthRow>& group = groups.at(key);
    const GrowthRow& r = group.front();
    if (group.size() == 1) {
      const std::string fixed = symbols_text(r.settings);
      lines.push_back(fmt::format(
          "{} ({}), {}{}: time ∝ n^{:.2f} (R² {:.3f}){}{}", r.solver, r.form, r.kernel,
          fixed.empty() ? "" : " (" + fixed + ")", r.fit.exponent, r.fit.r2,
          r.predicted ? fmt::format("; flops ∝ n^{:.2f}", *r.predicted) : std::string(),
          r.fit.r2 < kPoorFitR2
              ? fmt::format(" — **a poor fit** (R² below {}): these times do not grow as one "
                            "power of n; {}",
                            kPoorFitR2, kSteadierTimes)
              : std::string()));
      continue;
    }
    std::vector<std::vector<Setting>> variants;
    std::vector<double> exponents, r2, predicted;
    std::size_t poor = 0;
    for (const GrowthRow& g : group) {
      variants.push_back(g.settings);
      exponents.push_back(g.fit.exponent);
      r2.push_back(g.fit.r2);
      if (g.predicted) predicted.push_back(*g.predicted);
      if (g.fit.r2 < kPoorFitR2) ++poor;
    }
    lines.push_back(fmt::format("{} ({}), {}, {}: time ∝ n^{} (R² ≥ {:.3f}){}{}", r.solver, r.form,
                                r.kernel, variants_text(variants), span_text(exponents, "{:.2f}"),
                                *std::min_element(r2.begin(), r2.end()),
                                predicted.size() == group.size()
                                    ? fmt::format("; flops ∝ n^{}", span_text(predicted, "{:.2f}"))
                                    : std::string(),
                                poor > 0
                                    ? fmt::format(" — **{} poor fit{}** (R² below {}): {}", poor,
                                                  poor == 1 ? "" : "s", kPoorFitR2, kSteadierTimes)
                                    : std::string()));
  }
  return lines;
}

}  // namespace kexp::core::summary
