// The findings at the top of summary.md: where each form is cheaper against what the
// flop counts predict and how the times grow (summary_cost_findings.cpp), what each
// precision cost, the same cells on the CPU and the GPU, peaks of the test error near
// n = D, how far the two forms' predictions are apart, and the best cell of each solver.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kexp/execution_target.hpp"
#include "reporting/summary_tables.hpp"
#include "reporting/symbols.hpp"

namespace kexp::core::summary {

namespace {

/// At most this many lines in each list of the findings; the tables below hold the rest.
constexpr std::size_t kFindingsLines = 8;

/// The results column of the solvers' precision, "solver.precision".
const std::string& precision_column() {
  static const std::string column = std::string("solver.") + kPrecisionParam;
  return column;
}

/// The results column of the solvers' device, "solver.device".
const std::string& device_column() {
  static const std::string column = std::string("solver.") + kDeviceParam;
  return column;
}

/// Whether a cell's precision, as results.csv writes it, is other than float64 (a solver
/// without the parameter writes nothing there).
bool below_double(const std::string& precision) {
  return !precision.empty() && precision != to_string(Precision::Double);
}

void list_lines(const std::vector<std::string>& lines, std::string& md) {
  for (std::size_t i = 0; i < lines.size() && i < kFindingsLines; ++i) {
    md += "- " + lines[i] + "\n";
  }
  if (lines.size() > kFindingsLines) {
    md += fmt::format("- … and {} more in the tables below\n", lines.size() - kFindingsLines);
  }
  md += "\n";
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
    const auto p = c.params.find(precision_column());
    if (p != c.params.end() && below_double(p->second)) solvers.insert(c.solver);
  }
  std::map<std::pair<std::string, std::string>, Tally> tallies;  // (solver, precision)
  for (const CellSummary& c : cells) {
    const auto p = c.params.find(precision_column());
    if (p == c.params.end() || !below_double(p->second)) continue;
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
    const auto device = c.params.find(device_column());
    if (device == c.params.end() ||
        (device->second != to_string(Device::cpu) && device->second != to_string(Device::cuda)) ||
        c.ok == 0) {
      continue;
    }
    std::string key = c.dataset + '\n' + c.kernel + '\n' + c.solver + '\n' + c.form;
    for (const auto& [name, value] : c.params) {
      if (name != device_column()) key += '\n' + name + '=' + value;
    }
    auto [it, fresh] = sides.emplace(key, std::pair<const CellSummary*, const CellSummary*>{});
    if (fresh) order.push_back(key);
    (device->second == to_string(Device::cpu) ? it->second.first : it->second.second) = &c;
  }
  std::vector<std::string> lines;
  for (const std::string& key : order) {
    const auto& [cpu, gpu] = sides.at(key);
    if (cpu == nullptr || gpu == nullptr) continue;
    const double on_cpu = cpu->stat(Column::total_seconds).mean;
    const double on_gpu = gpu->stat(Column::total_seconds).mean;
    if (!(on_cpu > 0) || !(on_gpu > 0)) continue;
    const std::string params = swept_params(
        *gpu, swept, [](const std::string& column) { return column != device_column(); });
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

/// A peak of the test error against n: at one size more than twice the error at the sizes
/// either side, where n is near the feature dimension D (from D/2 to 2D). A fit that
/// interpolates (λ near 0) is at its worst there, where Φ's n × D system is square and
/// ill-conditioned, and better on both sides (double descent). Per series of primal cells
/// that differ only in n; the dual cells of their pairs share it.
std::vector<std::string> interpolation_peaks(const std::vector<CellSummary>& cells,
                                             const std::vector<FormPair>& pairs,
                                             const std::vector<std::string>& swept) {
  struct Series {
    const CellSummary* first = nullptr;
    std::map<double, std::pair<double, double>> by_n;  // n → (test error, D)
  };
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    if (c.form != "primal") continue;
    const double n = c.stat(Column::n_train).mean;
    const double error = c.stat(Column::test_rmse).mean;
    const double D = c.stat(Column::feature_dim).mean;
    if (!(n > 0) || !std::isfinite(error) || !(D > 0)) continue;
    std::string key = c.dataset + '\n' + c.kernel + '\n' + c.solver;
    for (const auto& [column, value] : c.params) {
      if (column != "dataset.n") key += '\n' + column + '=' + value;
    }
    auto [it, fresh] = series.try_emplace(key);
    if (fresh) {
      it->second.first = &c;
      order.push_back(key);
    }
    it->second.by_n[n] = {error, D};
  }
  std::map<const CellSummary*, std::string> dual_of;  // a primal cell → its dual's solver
  for (const FormPair& p : pairs) dual_of.emplace(p.primal, p.dual->solver);
  std::vector<std::string> lines;
  for (const std::string& key : order) {
    const Series& s = series.at(key);
    if (s.by_n.size() < 3) continue;
    const std::vector<std::pair<double, std::pair<double, double>>> points(s.by_n.begin(),
                                                                           s.by_n.end());
    for (std::size_t i = 1; i + 1 < points.size(); ++i) {
      const auto& [n, at] = points[i];
      const double error = at.first, D = at.second;
      const double before = points[i - 1].second.first, after = points[i + 1].second.first;
      if (!(error > 2 * before && error > 2 * after) || n < D / 2 || n > 2 * D) continue;
      const CellSummary& c = *s.first;
      std::vector<Setting> settings;
      for (const std::string& column : swept) {
        const auto it = c.params.find(column);
        if (column != "dataset.n" && it != c.params.end() && !it->second.empty() &&
            c.shown.count(column) > 0) {
          settings.push_back({column, it->second});
        }
      }
      const std::string params = symbols_text(settings);
      const auto dual = dual_of.find(&c);
      lines.push_back(fmt::format(
          "{}{}, {}{}: test RMSE {} at n = {}, against {} at n = {} and {} at n = {}; n/D = "
          "{:.2f} (D = {}): the interpolation peak at n ≈ D",
          c.solver, dual == dual_of.end() ? "" : " / " + dual->second, c.kernel,
          params.empty() ? "" : " (" + params + ")", number_text(error), number_text(n),
          number_text(before), number_text(points[i - 1].first), number_text(after),
          number_text(points[i + 1].first), n / D, number_text(D)));
    }
  }
  return lines;
}

}  // namespace

/// The answer first: where each form is cheaper against what the flop counts predict,
/// how the times grow against the flop counts, whether the forms agreed, and the best
/// cell of each solver with how it was chosen.
void findings(const std::vector<CellSummary>& cells, const std::vector<FormPair>& pairs,
              const std::vector<GrowthRow>& growth, const std::vector<std::string>& swept,
              const ErrorMeasure& measure, const std::string& validation_text, std::string& md) {
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
  std::vector<std::string> lines = growth_findings(cells, growth);
  if (!lines.empty()) {
    out += "How the time grows with n, against the flop count:\n\n";
    list_lines(lines, out);
  }
  // kernel, and the precision where a pair ran in float32 or mixed → (max, pairs): a pair
  // in float32 differs by float32's rounding, which must not be read as the map's error
  std::map<std::string, std::pair<double, std::size_t>> agreement;
  std::vector<std::string> kernels;
  const auto precision_of = [](const CellSummary& c) {
    const auto it = c.params.find(precision_column());
    return it == c.params.end() ? std::string() : it->second;
  };
  for (const FormPair& p : pairs) {
    if (p.prediction_max_diff < 0) continue;
    std::string precision = precision_of(*p.primal);
    if (!below_double(precision)) precision = precision_of(*p.dual);
    const std::string key =
        below_double(precision) ? p.primal->kernel + " in " + precision : p.primal->kernel;
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
  if (const auto peaks = interpolation_peaks(cells, pairs, swept); !peaks.empty()) {
    out +=
        "The test error peaks where n, the training points, is near D, the features (double "
        "descent): a fit with λ near 0 interpolates the training points, and at n ≈ D the "
        "system it solves is square and ill-conditioned, so the noise is fitted at its worst; "
        "with fewer points the fit has room to choose the smallest θ, with more the noise "
        "averages out. A larger λ flattens the peak:\n\n";
    list_lines(peaks, out);
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
    std::vector<Setting> settings;
    for (const std::string& column : swept) {
      const auto it = c->params.find(column);
      if (it != c->params.end() && !it->second.empty() && c->shown.count(column) > 0)
        settings.push_back({column, it->second});
    }
    const std::string params = symbols_text(settings);
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
