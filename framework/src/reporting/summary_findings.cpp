// The findings at the top of summary.md: where each form is cheaper against what the
// flop counts predict, how the times grow against the flop counts, how far the two forms'
// predictions are apart, and the best cell of each solver; each cost finding says when
// its figures do not bear it (a poor fit, a wide range, a disagreement with the flop
// counts).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reporting/summary_tables.hpp"

namespace kexp::core::summary {

namespace {

/// At most this many lines in each list of the findings; the tables below hold the rest.
constexpr std::size_t kFindingsLines = 8;

void list_lines(const std::vector<std::string>& lines, std::string& md) {
  for (std::size_t i = 0; i < lines.size() && i < kFindingsLines; ++i) {
    md += "- " + lines[i] + "\n";
  }
  if (lines.size() > kFindingsLines) {
    md += fmt::format("- … and {} more in the tables below\n", lines.size() - kFindingsLines);
  }
  md += "\n";
}

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

/// Each primal-dual series over n: where each form is cheaper, against the flop counts.
std::vector<std::string> crossover_findings(const std::vector<CellSummary>& cells,
                                            const std::vector<FormPair>& pairs,
                                            const std::vector<std::string>& swept) {
  const SolverValues solver_values = solver_parameter_values(cells);
  std::vector<std::string> lines;
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
  for (const CrossoverSeries& s : series) {
    const CellSummary& a = *s.pair->primal;
    std::string what = fmt::format("{} / {}, {}", a.solver, s.pair->dual->solver, a.kernel);
    const std::string fixed = swept_params(a, swept, [&](const std::string& column) {
      return column != "dataset.n" && varies(solver_values, a.kernel, a.solver, column);
    });
    if (!fixed.empty()) what += " (" + fixed + ")";
    if (std::isfinite(s.D)) what += fmt::format(", D = {}", number_text(s.D));
    const char* first = s.primal_cheaper_first ? "primal" : "dual";
    const char* second = s.primal_cheaper_first ? "dual" : "primal";
    std::string finding;
    if (!s.measured) {
      finding = fmt::format("{} cheaper at every n from {} to {}", first, number_text(s.n.front()),
                            number_text(s.n.back()));
    } else if (!s.measured->unresolved.empty()) {
      finding = "crossover " + s.measured->unresolved;
    } else {
      finding = fmt::format("{} cheaper below n ≈ {}, {} above", first, crossover_text(*s.measured),
                            second);
    }
    if (s.flops_known) {
      finding += s.predicted
                     ? fmt::format("; the flop counts cross at n ≈ {}", number_text(*s.predicted))
                     : "; the flop counts do not cross in this range";
    }
    finding += crossover_trust(s);
    lines.push_back(what + ": " + finding);
  }
  return lines;
}

/// What each precision other than float64 cost in accuracy: the largest prediction
/// difference from the float64 cell of the same parameters (precision_max_diff), the
/// cells that fell back to float64, and those that failed; per solver where more than one
/// solver has such cells, since each precision means another thing in each.
std::string precision_finding(const std::vector<CellSummary>& cells) {
  struct Tally {
    double worst = 0;
    std::size_t compared = 0, fell_back = 0, failed = 0;
  };
  std::set<std::string> solvers;
  for (const CellSummary& c : cells) {
    const auto p = c.params.find("solver.precision");
    if (p != c.params.end() && !p->second.empty() && p->second != "double")
      solvers.insert(c.solver);
  }
  std::map<std::pair<std::string, std::string>, Tally> tallies;  // (solver, precision)
  for (const CellSummary& c : cells) {
    const auto p = c.params.find("solver.precision");
    if (p == c.params.end() || p->second.empty() || p->second == "double") continue;
    Tally& t = tallies[{solvers.size() > 1 ? c.solver : std::string(), p->second}];
    if (const auto it = c.values.find("precision_max_diff"); it != c.values.end()) {
      for (const double v : it->second) t.worst = std::max(t.worst, v);
      t.compared += it->second.empty() ? 0 : 1;
    }
    if (const auto it = c.values.find("precision_fallback"); it != c.values.end()) {
      t.fell_back +=
          std::any_of(it->second.begin(), it->second.end(), [](double v) { return v > 0; }) ? 1 : 0;
    }
    t.failed += c.ok < c.runs ? 1 : 0;
  }
  std::string text;
  for (const auto& [key, t] : tallies) {
    const auto& [solver, precision] = key;
    text += fmt::format("{}{}{}: max |Δŷ| ≤ {:.3g} over {} cell{}", text.empty() ? "" : "; ",
                        solver.empty() ? "" : solver + " ", precision, t.worst, t.compared,
                        t.compared == 1 ? "" : "s");
    if (t.fell_back > 0) text += fmt::format(", {} of them solved in float64 instead", t.fell_back);
    if (t.failed > 0) text += fmt::format(", {} failed", t.failed);
  }
  if (text.empty()) return text;
  return "Each precision against float64 (its test predictions against those of the float64 "
         "cell of the same parameters): " +
         text + ".\n\n";
}

/// The same cell on the CPU and on the GPU: cells of one solver that differ only in
/// `solver.device` (cpu, cuda), each with a run that ended ok. Per such pair its time
/// (Gram or features, fit and predict, the mean over the repeats, with the GPU's copies
/// to and from it) on each device and their ratio; the GPU's cells with the GPU's name.
std::vector<std::string> device_lines(const std::vector<CellSummary>& cells,
                                      const std::vector<std::string>& swept) {
  std::map<std::string, std::pair<const CellSummary*, const CellSummary*>> sides;  // cpu, cuda
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const auto device = c.params.find("solver.device");
    if (device == c.params.end() || (device->second != "cpu" && device->second != "cuda") ||
        c.ok == 0) {
      continue;
    }
    std::string key = c.dataset + '\n' + c.kernel + '\n' + c.solver + '\n' + c.form;
    for (const auto& [name, value] : c.params) {
      if (name != "solver.device") key += '\n' + name + '=' + value;
    }
    auto [it, fresh] = sides.emplace(key, std::pair<const CellSummary*, const CellSummary*>{});
    if (fresh) order.push_back(key);
    (device->second == "cpu" ? it->second.first : it->second.second) = &c;
  }
  std::vector<std::string> lines;
  for (const std::string& key : order) {
    const auto& [cpu, gpu] = sides.at(key);
    if (cpu == nullptr || gpu == nullptr) continue;
    const double on_cpu = cpu->stat(Column::total_seconds).mean;
    const double on_gpu = gpu->stat(Column::total_seconds).mean;
    if (!(on_cpu > 0) || !(on_gpu > 0)) continue;
    const std::string params = swept_params(
        *gpu, swept, [](const std::string& column) { return column != "solver.device"; });
    const MeanStd copies = gpu->stat(kTransferSeconds);
    const std::string copied = copies.count > 0 && copies.mean > 0
                                   ? fmt::format(" (copies {:.3g} s of it)", copies.mean)
                                   : std::string();
    lines.push_back(
        fmt::format("{}, {}{}: GPU {} s{} against CPU {} s, {}", gpu->solver, gpu->kernel,
                    params.empty() ? "" : " (" + params + ")", fmt::format("{:.3g}", on_gpu),
                    copied, fmt::format("{:.3g}", on_cpu),
                    on_gpu < on_cpu ? fmt::format("{:.3g}× faster on the GPU", on_cpu / on_gpu)
                                    : fmt::format("{:.3g}× faster on the CPU", on_gpu / on_cpu)));
  }
  return lines;
}

}  // namespace

/// The answer first: where each form is cheaper against what the flop counts predict,
/// how the times grow against the flop counts, whether the forms agreed, and the best
/// cell of each solver with how it was chosen.
void findings(const std::vector<CellSummary>& cells, const std::vector<FormPair>& pairs,
              const std::vector<std::string>& swept, const ErrorMeasure& measure,
              const std::string& validation_text, std::string& md) {
  std::string out;
  if (const auto lines = crossover_findings(cells, pairs, swept); !lines.empty()) {
    out +=
        "Where each form is cheaper (time: Gram or features, fit and predict; medians, with "
        "the range their spread implies):\n\n";
    list_lines(lines, out);
  }
  if (const auto lines = sparsity_findings(cells, pairs, swept); !lines.empty()) {
    out += "Where the support vector machine's dual is sparse enough to win:\n\n";
    list_lines(lines, out);
  }
  const SolverValues solver_values = solver_parameter_values(cells);
  std::vector<std::string> lines;
  for (const GrowthRow& r : growth_rows(cells, swept)) {
    if (r.cost != kTimeSeconds) continue;
    std::vector<Setting> named;
    for (const Setting& setting : r.settings) {
      if (varies(solver_values, r.kernel, r.solver, setting.column)) named.push_back(setting);
    }
    const std::string fixed = settings_text(named);
    lines.push_back(
        fmt::format("{} ({}), {}{}: time ∝ n^{:.2f} (R² {:.3f}){}{}", r.solver, r.form, r.kernel,
                    fixed.empty() ? "" : " (" + fixed + ")", r.fit.exponent, r.fit.r2,
                    r.predicted ? fmt::format("; flops ∝ n^{:.2f}", *r.predicted) : std::string(),
                    r.fit.r2 < kPoorFitR2
                        ? fmt::format(" — **a poor fit** (R² below {}): these times do not grow "
                                      "as one power of n; {}",
                                      kPoorFitR2, kSteadierTimes)
                        : std::string()));
  }
  if (!lines.empty()) {
    out += "How the time grows with n, against the flop count:\n\n";
    list_lines(lines, out);
  }
  // kernel, and the precision where a pair ran in float32 or mixed → (max, pairs): a pair
  // in float32 differs by float32's rounding, which must not be read as the map's error
  std::map<std::string, std::pair<double, std::size_t>> agreement;
  std::vector<std::string> kernels;
  const auto precision_of = [](const CellSummary& c) {
    const auto it = c.params.find("solver.precision");
    return it == c.params.end() || it->second.empty() ? std::string("double") : it->second;
  };
  for (const FormPair& p : pairs) {
    if (p.prediction_max_diff < 0) continue;
    std::string precision = precision_of(*p.primal);
    if (precision == "double") precision = precision_of(*p.dual);
    const std::string key =
        precision == "double" ? p.primal->kernel : p.primal->kernel + " in " + precision;
    auto [it, fresh] = agreement.emplace(key, std::pair<double, std::size_t>{0, 0});
    if (fresh) kernels.push_back(key);
    it->second.first = std::max(it->second.first, p.prediction_max_diff);
    ++it->second.second;
  }
  if (!kernels.empty()) {
    std::string text;
    for (const auto& k : kernels) {
      const auto& [diff, count] = agreement.at(k);
      text += fmt::format("{}{}: max |Δŷ| ≤ {:.3g} over {} pair{}", text.empty() ? "" : "; ", k,
                          diff, count, count == 1 ? "" : "s");
    }
    out +=
        "The two forms' test predictions (the same up to rounding on an exact map, not on "
        "random features): " +
        text + ".\n\n";
  }
  if (const std::string text = precision_finding(cells); !text.empty()) out += text;
  if (const auto device = device_lines(cells, swept); !device.empty()) {
    out +=
        "The same cell on the GPU and on the CPU (time: Gram or features, fit and predict, "
        "with the copies to and from the GPU; means over the repeats):\n\n";
    list_lines(device, out);
  }
  lines.clear();
  for (const CellSummary* c : best_per_solver(cells, measure)) {
    const std::string params = swept_params(*c, swept);
    std::string figures;
    if (measure.validated()) {
      figures = measure.selection + " " + with_std(c->stat(measure.selection)) + ", ";
    }
    figures += measure.column + " " + with_std(c->stat(measure.column));
    lines.push_back(fmt::format("{}: {}{}, {}", c->solver, c->kernel,
                                params.empty() ? "" : " (" + params + ")", figures));
  }
  if (!lines.empty()) {
    out += measure.validated()
               ? fmt::format("Best cell per solver, chosen on {} ({}):\n\n", measure.selection,
                             validation_text)
               : std::string(
                     "Best cell per solver, **picked on the test set** (optimistic; "
                     "add `folds: 5` to choose on the training part):\n\n");
    list_lines(lines, out);
  }
  if (!out.empty()) md += "## Findings\n\n" + out;
}

}  // namespace kexp::core::summary
