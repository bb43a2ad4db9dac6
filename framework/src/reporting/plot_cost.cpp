// The lines of a cost plot: a point per x from the runs' times (the mean of their medians,
// bars from the fastest to the slowest measurement), lines of one solver named by the
// parameters they differ in and the shared ones put in the caption, primal and dual
// counterparts given one colour (primal solid, dual dashed) and their crossover marked on
// the x both ran.
#include "reporting/plot_cost.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace kexp::core::plot {

namespace {

/// The time of cells at one x: mean of the medians, bars from the fastest to the slowest
/// measurement; `below_floor` set when one of them is below the noise floor.
Point cost_point(double x, const std::vector<const CellSummary*>& cells,
                 bool* below_floor = nullptr) {
  std::vector<double> medians;
  double low = INFINITY, high = 0;
  for (const CellSummary* c : cells) {
    const auto& t = c->values.find(kTimeSeconds);
    if (t == c->values.end()) continue;
    medians.insert(medians.end(), t->second.begin(), t->second.end());
    for (const char* column : {kTimeSecondsMin, kTimeSecondsMax}) {
      const auto it = c->values.find(column);
      if (it == c->values.end()) continue;
      for (double v : it->second) {
        low = std::min(low, v);
        high = std::max(high, v);
      }
    }
  }
  const double y = mean_std(medians).mean;
  if (below_floor != nullptr) {
    *below_floor = std::any_of(cells.begin(), cells.end(),
                               [](const CellSummary* c) { return time_range(*c).below_floor; });
  }
  return {x, y, std::isfinite(low) && low > 0 ? low : y, high > 0 ? high : y};
}

/// The y of a line at x, interpolated in (log x, log y) as the crossover is.
double y_at(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
  for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
    if (x < xs[i] || x > xs[i + 1]) continue;
    const double t = std::log(x / xs[i]) / std::log(xs[i + 1] / xs[i]);
    return std::exp(std::log(ys[i]) + t * (std::log(ys[i + 1]) - std::log(ys[i])));
  }
  return ys.empty() ? 0 : ys.back();
}

}  // namespace

std::size_t cost_lines(const std::map<std::string, CostSeries>& all_series, std::size_t min_points,
                       const char* axis, Plot& p) {
  // Lines of one solver that differ in its parameters are named by those in the key
  // ("primal primal_gd iterations=10"); the parameters they share go in the caption,
  // once per solver.
  std::map<std::string, std::map<std::string, std::set<std::string>>>
      values;  // solver → parameter → values
  for (const auto& [key, s] : all_series) {
    for (const auto& [name, value] : s.side.params) values[s.solver][name].insert(value);
  }
  std::map<std::string, CostSeries> series;
  std::map<std::string, std::string> shared;  // solver → its shared parameters
  for (const auto& [key, s] : all_series) {
    std::string varying, common;
    for (const auto& [name, value] : s.side.params) {
      std::string& into = values[s.solver][name].size() > 1 ? varying : common;
      into += fmt::format("{}{}={}", into.empty() ? "" : ", ", name, shown_value(value));
    }
    CostSeries named = s;
    named.varying = varying;
    series[varying.empty() ? s.base : s.base + " " + varying] = named;
    if (!common.empty()) shared[s.solver] = common;
  }
  for (const auto& [solver, common] : shared) p.caption.push_back(solver + ": " + common);
  std::vector<std::string> names;
  for (const auto& [name, s] : series) {
    if (s.at.size() >= min_points) names.push_back(name);
  }
  // The key reads in numeric order: λ = 1e-06 before 0.0001.
  std::sort(names.begin(), names.end(), natural_less);
  std::map<std::string, std::size_t> colour;
  std::size_t next = 0;
  std::map<std::string, std::vector<double>> xs, ys;
  std::map<std::string, std::vector<TimeRange>> times;
  for (const std::string& name : names) {
    const CostSeries& s = series.at(name);
    for (const auto& [x, cells] : s.at) {
      TimeRange t;
      const Point q = cost_point(x, cells, &t.below_floor);
      t.median = q.y;
      t.low = q.low;
      t.high = q.high;
      xs[name].push_back(x);
      ys[name].push_back(q.y);
      times[name].push_back(t);
    }
  }
  // A primal series and the dual one it is compared with.
  const auto paired = [](const CostSeries& primal, const CostSeries& dual) {
    return primal.form == "primal" && dual.form == "dual" && dual.kernel == primal.kernel &&
           counterparts(primal.side, dual.side);
  };
  std::size_t pair_count = 0;
  for (const std::string& a : names) {
    for (const std::string& b : names) pair_count += paired(series.at(a), series.at(b)) ? 1 : 0;
  }
  // Pairs first, so each shares one colour.
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& a : names) {
    const CostSeries& sa = series.at(a);
    if (sa.form != "primal") continue;
    for (const std::string& b : names) {
      const CostSeries& sb = series.at(b);
      if (!paired(sa, sb)) continue;
      pairs.emplace_back(a, b);
      if (!colour.count(a) && !colour.count(b)) colour[a] = colour[b] = next++;
      // Where they cross over the x both have (a run refused at one x leaves it out), by
      // the rule the summary states them with (analysis.hpp): a crossover the times do
      // not settle is not marked, and the caption says why.
      std::vector<double> x;
      std::vector<TimeRange> ta, tb;
      for (std::size_t i = 0; i < xs[a].size(); ++i) {
        const auto j = std::find(xs[b].begin(), xs[b].end(), xs[a][i]);
        if (j == xs[b].end()) continue;
        x.push_back(xs[a][i]);
        ta.push_back(times[a][i]);
        tb.push_back(times[b][static_cast<std::size_t>(j - xs[b].begin())]);
      }
      const auto c = measured_crossover(x, ta, tb, axis);
      if (!c) continue;
      const std::string pair = fmt::format("{} / {}{}{}", sa.solver, sb.solver,
                                           sa.varying.empty() ? "" : " " + sa.varying,
                                           sa.kernel.empty() ? "" : " (" + sa.kernel + ")");
      if (!c->unresolved.empty()) {
        p.caption.push_back(fmt::format("Crossover {}: {}.", pair, c->unresolved));
        continue;
      }
      // One pair needs no name; several are told apart by it.
      p.marks.push_back({c->n,
                         fmt::format("crossover{}: {} ≈ {}", pair_count == 1 ? "" : " " + pair,
                                     axis, crossover_text(*c)),
                         y_at(xs[a], ys[a], c->n)});
    }
  }
  for (const std::string& name : names) {
    const CostSeries& s = series.at(name);
    if (!colour.count(name)) colour[name] = next++;
    Line l;
    l.title = name;
    l.colour = colour[name];
    l.dashed = s.form == "dual";
    for (const auto& [x, cells] : s.at) l.points.push_back(cost_point(x, cells));
    p.lines.push_back(std::move(l));
  }
  // A tick at each x drawn while they are few: a log axis over less than a decade would
  // otherwise show one tick or none.
  std::set<double> drawn;
  for (const Line& l : p.lines) {
    for (const Point& q : l.points) drawn.insert(q.x);
  }
  if (drawn.size() <= 12) p.xtics.assign(drawn.begin(), drawn.end());
  if (!pairs.empty()) {
    p.caption.push_back(
        "A primal solver and its dual counterpart share a colour: primal solid, "
        "dual dashed. Bars: fastest to slowest measurement.");
  } else {
    p.caption.push_back("Bars: fastest to slowest measurement.");
  }
  return pairs.size();
}

}  // namespace kexp::core::plot
