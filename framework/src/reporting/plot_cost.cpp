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
/// measurement.
Point cost_point(double x, const std::vector<const CellSummary*>& cells) {
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
  return {x, y, std::isfinite(low) && low > 0 ? low : y, high > 0 ? high : y};
}

}  // namespace

void cost_lines(const std::map<std::string, CostSeries>& all_series, std::size_t min_points,
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
  std::map<std::string, std::size_t> colour;
  std::size_t next = 0;
  std::map<std::string, std::vector<double>> xs, ys;
  for (const std::string& name : names) {
    const CostSeries& s = series.at(name);
    for (const auto& [x, cells] : s.at) {
      xs[name].push_back(x);
      ys[name].push_back(cost_point(x, cells).y);
    }
  }
  // Pairs first, so each shares one colour.
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& a : names) {
    const CostSeries& sa = series.at(a);
    if (sa.form != "primal") continue;
    for (const std::string& b : names) {
      const CostSeries& sb = series.at(b);
      if (sb.form != "dual" || sb.kernel != sa.kernel || !counterparts(sa.side, sb.side)) {
        continue;
      }
      pairs.emplace_back(a, b);
      if (!colour.count(a) && !colour.count(b)) colour[a] = colour[b] = next++;
      // Where they cross over the x both have (a run refused at one x leaves it out).
      std::vector<double> x, ya, yb;
      for (std::size_t i = 0; i < xs[a].size(); ++i) {
        const auto j = std::find(xs[b].begin(), xs[b].end(), xs[a][i]);
        if (j == xs[b].end()) continue;
        x.push_back(xs[a][i]);
        ya.push_back(ys[a][i]);
        yb.push_back(ys[b][static_cast<std::size_t>(j - xs[b].begin())]);
      }
      if (const auto at = crossover(x, ya, yb)) {
        p.marks.push_back({*at, fmt::format("crossover {} / {}{}{}: {} ≈ {}", sa.solver, sb.solver,
                                            sa.varying.empty() ? "" : " " + sa.varying,
                                            sa.kernel.empty() ? "" : " (" + sa.kernel + ")", axis,
                                            short_number(*at))});
      }
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
  if (!pairs.empty()) {
    p.caption.push_back(
        "A primal solver and its dual counterpart share a colour: primal solid, "
        "dual dashed. Bars: fastest to slowest measurement.");
  } else {
    p.caption.push_back("Bars: fastest to slowest measurement.");
  }
}

}  // namespace kexp::core::plot
