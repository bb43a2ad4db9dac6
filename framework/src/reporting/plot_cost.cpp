// The lines of a cost plot: a point per x from the runs' times (the mean of their medians,
// bars from the fastest to the slowest measurement), lines of one solver named by the
// parameters they differ in and the shared ones put in the caption, primal and dual
// counterparts given one colour (primal solid, dual dashed) and their crossover marked on
// the x both ran.
#include "reporting/plot_cost.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <unordered_map>
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

std::map<std::string, std::set<std::string>> cost_free_parameters(
    const std::vector<CellSummary>& cells) {
  // solver → parameter → the cell without it → the flop counts its values give, and how
  // many cells have it
  struct Others {
    std::set<double> flops;
    std::size_t cells = 0;
  };
  std::map<std::string, std::map<std::string, std::unordered_map<std::string, Others>>> counts;
  std::map<std::string, std::map<std::string, std::set<std::string>>> values;
  std::map<std::string, std::set<std::string>> not_free;
  for (const CellSummary& c : cells) {
    const std::string solver = c.solver + " (" + c.form + ")";
    const double flops = c.stat(Column::flops).mean;
    for (const auto& [column, value] : c.params) {
      double v = 0;
      if (column.rfind("solver.", 0) != 0 || value.empty() || !parse_number(value, v)) continue;
      const std::string name = column.substr(7);
      if (!(flops > 0)) {
        not_free[solver].insert(name);
        continue;
      }
      std::string rest = c.dataset + '\n' + c.kernel;
      for (const auto& [other, text] : c.params) {
        if (other != column) rest += '\n' + other + '=' + text;
      }
      Others& o = counts[solver][name][rest];
      o.flops.insert(flops);
      ++o.cells;
      values[solver][name].insert(value);
    }
  }
  std::map<std::string, std::set<std::string>> out;
  for (const auto& [solver, by_name] : counts) {
    for (const auto& [name, by_rest] : by_name) {
      if (values[solver][name].size() < 2 || not_free[solver].count(name) > 0) continue;
      // Free when no cell without it sees two flop counts, and at least one such cell saw
      // two of its values to compare.
      bool free = true, compared = false;
      for (const auto& [rest, o] : by_rest) {
        if (o.flops.size() > 1 && *o.flops.rbegin() - *o.flops.begin() > 1e-12 * *o.flops.rbegin())
          free = false;
        compared = compared || o.cells > 1;
      }
      if (free && compared) out[solver].insert(name);
    }
  }
  return out;
}

namespace {

/// How a parameter that changes no cost is written in a gathered line's side.
constexpr const char* kFolded = "*";

/// The line a series is drawn on once the parameters that change no cost are gathered
/// (their values written kFolded in `side`), and its side; `folded` gets their values.
std::string gathered_line(const CostSeries& s, const CostLabels& labels, SolverSide& side,
                          std::map<std::string, std::set<std::string>>* folded_values = nullptr) {
  const auto folded = labels.folded.find(s.solver + " (" + s.form + ")");
  side = s.side;
  for (auto& [name, value] : side.params) {
    if (folded == labels.folded.end() || folded->second.count(name) == 0) continue;
    if (folded_values != nullptr) (*folded_values)[name].insert(value);
    value = kFolded;
  }
  std::string line = s.base + '\n' + s.kernel;
  for (const auto& [name, value] : side.params) line += '\n' + name + '=' + value;
  return line;
}

}  // namespace

std::size_t line_count(const std::map<std::string, CostSeries>& all_series,
                       const CostLabels& labels) {
  std::set<std::string> lines;
  SolverSide side;
  for (const auto& [key, s] : all_series) lines.insert(gathered_line(s, labels, side));
  return lines.size();
}

std::size_t cost_lines(const std::map<std::string, CostSeries>& all_series, std::size_t min_points,
                       const char* axis, const CostLabels& labels, Plot& p) {
  // The parameters that change no cost are one line: the series that differ in them alone
  // are gathered, each such parameter written "*" in their sides, so that a primal and a
  // dual line gathered alike still pair.
  std::map<std::string, CostSeries> gathered;
  std::map<std::string, std::map<std::string, std::set<std::string>>> folded_values;
  for (const auto& [key, s] : all_series) {
    SolverSide side;
    const std::string line = gathered_line(s, labels, side, &folded_values[s.solver]);
    auto [it, fresh] = gathered.try_emplace(line, s);
    it->second.side = side;
    if (fresh) continue;
    for (const auto& [x, cells] : s.at) {
      auto& into = it->second.at[x];
      into.insert(into.end(), cells.begin(), cells.end());
    }
  }
  // One caption for the solvers that gather the same values of the same parameter.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> folded_by;
  std::map<std::pair<std::string, std::string>, std::size_t> folded_count;
  for (const auto& [solver, by_name] : folded_values) {
    for (const auto& [name, folded] : by_name) {
      if (folded.size() < 2) continue;
      std::vector<std::string> v(folded.begin(), folded.end());
      std::sort(v.begin(), v.end(), natural_less);
      const std::pair key{name, values_text(v)};
      folded_by[key].push_back(solver);
      folded_count[key] = v.size();
    }
  }
  for (const auto& [key, solvers] : folded_by) {
    p.caption.push_back(fmt::format(
        "{}: {} changes no flop count (every value gives the same analytic count), so its {} "
        "values ({}) are one line, each point their mean, bars from the fastest to the slowest "
        "measurement of any.",
        fmt::join(solvers, " and "), symbol_of("solver." + key.first), folded_count[key],
        key.second));
  }
  // Lines of one solver that differ in its parameters are named by those in the key
  // ("primal_gd (primal) iterations = 10"); the parameters they share go in the caption,
  // once per solver, but for their defaults.
  std::map<std::string, std::map<std::string, std::set<std::string>>>
      values;  // solver → parameter → values
  for (const auto& [key, s] : gathered) {
    for (const auto& [name, value] : s.side.params) values[s.solver][name].insert(value);
  }
  std::map<std::string, CostSeries> series;
  std::map<std::string, std::string> shared;  // solver → its shared parameters
  for (const auto& [key, s] : gathered) {
    std::string varying, common;
    for (const auto& [name, value] : s.side.params) {
      if (value == kFolded) continue;
      const bool varies = values[s.solver][name].size() > 1;
      if (!varies && labels.defaults != nullptr &&
          labels.defaults->is_default(s.solver, "solver." + name, value)) {
        continue;
      }
      std::string& into = varies ? varying : common;
      into += fmt::format("{}{}", into.empty() ? "" : ", ", setting_text("solver." + name, value));
    }
    CostSeries named = s;
    named.varying = varying;
    series[varying.empty() ? s.base : s.base + " " + varying] = named;
    if (!common.empty()) shared[s.solver] = common;
  }
  for (const auto& [solver, common] : shared) p.caption.push_back(solver + ": " + common + ".");
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
  // The dual lines each primal line pairs with: looked up by kernel and the values of the
  // parameters they share, not by trying every two lines (a sweep may draw thousands).
  std::map<std::string, std::vector<std::string>> duals;  // kernel, solver, names → lines
  for (const std::string& b : names) {
    const CostSeries& sb = series.at(b);
    if (sb.form != "dual") continue;
    std::string kind = sb.kernel + '\n' + sb.solver;
    for (const auto& [name, value] : sb.side.params) kind += '\n' + name;
    duals[kind].push_back(b);
  }
  std::map<std::string, std::vector<std::string>> counterpart_lines;  // primal line → duals
  std::size_t pair_count = 0;
  for (const std::string& a : names) {
    const CostSeries& sa = series.at(a);
    if (sa.form != "primal") continue;
    for (const auto& [kind, lines] : duals) {
      if (kind.rfind(sa.kernel + '\n', 0) != 0) continue;
      for (const std::string& b : lines) {
        if (!paired(sa, series.at(b))) continue;
        counterpart_lines[a].push_back(b);
        ++pair_count;
      }
    }
  }
  // Pairs first, so each shares one colour.
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& a : names) {
    const CostSeries& sa = series.at(a);
    if (sa.form != "primal") continue;
    for (const std::string& b : counterpart_lines[a]) {
      const CostSeries& sb = series.at(b);
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
