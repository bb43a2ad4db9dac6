// The cost tables of summary.md: primal against dual for each pair (time and memory
// ratios, prediction difference, D against n), where each primal-dual series over n
// crosses (from the medians, with the range the measurements' spread implies, against the
// flop counts), and the growth exponent of each cost over n.
#include <algorithm>
#include <map>
#include <set>

#include "reporting/summary_tables.hpp"

namespace kexp::core::summary {

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
  t.header = {"primal", "dual", column_name(Column::kernel)};
  for (const auto& s : swept) {
    if (s.rfind("solver.", 0) != 0) t.header.push_back(column_heading(s));
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
    const double n = a.stat(Column::n_train).mean, D = a.stat(Column::feature_dim).mean;
    r.push_back(number_text(n));
    r.push_back(number_text(D));
    r.push_back(number_text(D / n));
    r.push_back(number_text(a.stat(kTimeSeconds).mean / b.stat(kTimeSeconds).mean));
    r.push_back(number_text(a.stat(Column::matrix_bytes).mean / b.stat(Column::matrix_bytes).mean));
    r.push_back(p.prediction_max_diff >= 0 ? fmt::format("{:.3g}", p.prediction_max_diff) : "—");
    t.rows.push_back(std::move(r));
  }
  const std::string same = t.drop_constant_columns({"primal", "dual"});
  if (!same.empty()) md += "The same in every row: " + same + ".\n\n";
  md += t.markdown();
}

std::vector<CrossoverSeries> crossover_series(const std::vector<FormPair>& pairs) {
  struct Series {
    const FormPair* first = nullptr;
    std::map<double, std::pair<TimeRange, TimeRange>> by_n;  // n → (primal, dual)
    std::map<double, std::pair<double, double>> flops;       // n → (primal, dual)
    std::set<double> dims;
  };
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  for (const FormPair& p : pairs) {
    const CellSummary& a = *p.primal;
    const CellSummary& b = *p.dual;
    const double n = a.stat(Column::n_train).mean;
    const TimeRange ta = time_range(a), tb = time_range(b);
    if (!(n > 0) || !(ta.median > 0) || !(tb.median > 0)) continue;
    const std::string key = a.dataset + "|" + a.kernel + "|" + a.solver + "|" + b.solver + "|" +
                            a.params_of("dataset", "dataset.n") + "|" + a.params_of("kernel") +
                            "|" + a.params_of("solver") + "|" + b.params_of("solver");
    auto [it, fresh] = series.emplace(key, Series{});
    if (fresh) {
      it->second.first = &p;
      order.push_back(key);
    }
    it->second.by_n[n] = {ta, tb};
    it->second.flops[n] = {a.stat(Column::flops).mean, b.stat(Column::flops).mean};
    it->second.dims.insert(a.stat(Column::feature_dim).mean);
  }
  std::vector<CrossoverSeries> out;
  for (const auto& key : order) {
    const Series& s = series.at(key);
    if (s.by_n.size() < 2) continue;
    CrossoverSeries cs;
    cs.pair = s.first;
    cs.D = s.dims.size() == 1 ? *s.dims.begin() : std::nan("");
    std::vector<TimeRange> primal, dual;
    std::vector<double> fp, fd;
    for (const auto& [n, times] : s.by_n) {
      cs.n.push_back(n);
      primal.push_back(times.first);
      dual.push_back(times.second);
      fp.push_back(s.flops.at(n).first);
      fd.push_back(s.flops.at(n).second);
    }
    cs.primal_cheaper_first = primal.front().median < dual.front().median;
    cs.measured = measured_crossover(cs.n, primal, dual);
    const bool flops_known = std::all_of(fp.begin(), fp.end(), [](double v) { return v > 0; }) &&
                             std::all_of(fd.begin(), fd.end(), [](double v) { return v > 0; });
    if (flops_known) cs.predicted = crossover(cs.n, fp, fd);
    cs.flops_known = flops_known;
    out.push_back(std::move(cs));
  }
  return out;
}

/// Where the time of each primal-dual pair series over n crosses, against D and against
/// where the flop counts cross: theory puts the crossover at n ≈ D (a gradient step costs
/// O(nD) against O(n²), ridge O(nD² + D³) against O(n³)).
void crossover_table(const std::vector<FormPair>& pairs, const std::vector<std::string>& swept,
                     std::string& md) {
  Table t;
  t.header = {"primal", "dual", column_name(Column::kernel)};
  for (const auto& s : swept) {
    if (s.rfind("solver.", 0) != 0 && s != "dataset.n") t.header.push_back(s);
  }
  for (const char* h : {"D", "n", "cheaper at the smallest n", "crossover n (range)",
                        "crossover n / D", "flops predict"}) {
    t.header.emplace_back(h);
  }
  for (const CrossoverSeries& s : crossover_series(pairs)) {
    const CellSummary& a = *s.pair->primal;
    const CellSummary& b = *s.pair->dual;
    std::vector<std::string> r = {a.solver, b.solver, a.kernel};
    for (const auto& column : swept) {
      if (column.rfind("solver.", 0) != 0 && column != "dataset.n") {
        r.push_back(param_value(a, column));
      }
    }
    r.push_back(number_text(s.D));
    r.push_back(fmt::format("{} … {}", number_text(s.n.front()), number_text(s.n.back())));
    r.emplace_back(s.primal_cheaper_first ? "primal" : "dual");
    r.push_back(s.measured ? crossover_text(*s.measured) : "none in range");
    r.push_back(s.measured && s.measured->unresolved.empty() ? number_text(s.measured->n / s.D)
                                                             : "—");
    r.push_back(!s.flops_known ? "—" : s.predicted ? number_text(*s.predicted) : "none in range");
    t.rows.push_back(std::move(r));
  }
  if (t.rows.empty()) return;
  md += fmt::format(
            "## Crossover in n\n\nFor each primal-dual pair swept over n with everything else "
            "fixed: the n where their times (Gram or features, fit and predict; medians of "
            "repeated measurements) cross, interpolated in (log n, log time) at the first "
            "change of sign, with the range the measurements' spread implies (the primal's "
            "fastest against the dual's slowest, and the other way round); \"not resolved\" "
            "where the times either side are below {:g} ms or overlap. Beside it, where the "
            "analytic flop counts cross. Theory puts it near n ≈ D: a gradient step costs "
            "O(nD) against O(n²), ridge O(nD² + D³) against O(n³).\n\n",
            kNoiseFloorSeconds * 1e3) +
        t.markdown();
}

std::vector<GrowthRow> growth_rows(const std::vector<CellSummary>& cells,
                                   const std::vector<std::string>& swept) {
  struct Series {
    std::string kernel, solver, form;
    std::vector<Setting> settings;
    std::map<std::string, std::vector<double>> x, y;  // cost → points
  };
  const std::string costs[] = {kTimeSeconds, column_name(Column::fit_seconds),
                               column_name(Column::flops), column_name(Column::matrix_bytes)};
  std::map<std::string, Series> series;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const double n = c.stat(Column::n_train).mean;
    if (!(n > 0)) continue;
    std::string key_params;
    std::vector<Setting> settings;
    for (const auto& [column, value] : c.params) {
      if (column == "dataset.n" || value.empty()) continue;
      // every parameter keys the series; the swept ones are shown
      key_params += column + "=" + value + ";";
      if (std::find(swept.begin(), swept.end(), column) != swept.end()) {
        settings.push_back({column, value});
      }
    }
    const std::string key =
        c.dataset + "|" + c.kernel + "|" + c.solver + "|" + c.form + "|" + key_params;
    auto [it, fresh] = series.emplace(key, Series{c.kernel, c.solver, c.form, settings, {}, {}});
    if (fresh) order.push_back(key);
    for (const std::string& cost : costs) {
      const double v = c.stat(cost).mean;
      if (v > 0) {
        it->second.x[cost].push_back(n);
        it->second.y[cost].push_back(v);
      }
    }
  }
  std::vector<GrowthRow> rows;
  for (const auto& key : order) {
    const Series& s = series.at(key);
    std::optional<PowerFit> flops;
    const std::string& flop_count = column_name(Column::flops);
    if (const auto xs = s.x.find(flop_count);
        xs != s.x.end() && std::set<double>(xs->second.begin(), xs->second.end()).size() >= 3) {
      flops = fit_power_law(xs->second, s.y.at(flop_count));
    }
    for (const std::string& cost : costs) {
      const auto xs = s.x.find(cost);
      if (xs == s.x.end()) continue;
      if (std::set<double>(xs->second.begin(), xs->second.end()).size() < 3) continue;
      const auto fit = fit_power_law(xs->second, s.y.at(cost));
      if (!fit) continue;
      GrowthRow r{s.kernel, s.solver, s.form, cost, s.settings, *fit, std::nullopt};
      // Time is what the flop count predicts; bytes and the count itself have none.
      if (flops && (r.cost == kTimeSeconds || r.cost == column_name(Column::fit_seconds))) {
        r.predicted = flops->exponent;
      }
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

void growth_table(const std::vector<GrowthRow>& rows, std::string& md) {
  Table t;
  t.header = {column_name(Column::kernel),
              column_name(Column::solver),
              column_name(Column::form),
              "other parameters",
              "cost",
              "exponent b",
              "R²",
              "points",
              column_name(Column::flops) + " predict"};
  for (const GrowthRow& r : rows) {
    const std::string fixed = settings_text(r.settings);
    t.rows.push_back({r.kernel, r.solver, r.form, fixed.empty() ? "—" : fixed, r.cost,
                      fmt::format("{:.2f}", r.fit.exponent), fmt::format("{:.3f}", r.fit.r2),
                      std::to_string(r.fit.points),
                      r.predicted ? fmt::format("{:.2f}", *r.predicted) : "—"});
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
      "only in the dataset's n (means over repeats; n is the number of training points). "
      "flops predict: the exponent of the analytic flop count (Gram or features, fit and "
      "predict) over the same cells, what the time's exponent tends to once the sizes are "
      "large enough for the arithmetic to dominate.\n\n" +
      t.markdown();
}

}  // namespace kexp::core::summary
