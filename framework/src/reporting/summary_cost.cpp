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

}  // namespace kexp::core::summary
