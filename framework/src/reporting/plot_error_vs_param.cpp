// The plots of the error against each swept parameter: one line per kernel, solver and
// form (on each dataset variant) that sweeps it, each point the best cell over the line's
// other swept parameters at that value; the validation error dashed beside the test error
// when the run has one. A plot of more lines than read is left out, and the report says so.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reporting/plot_error.hpp"
#include "reporting/plot_families.hpp"

namespace kexp::core::plot {

namespace {

/// Whether two lines have the same points, to 1e-9 of their values.
bool same_points(const Line& a, const Line& b) {
  if (a.points.size() != b.points.size()) return false;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    const Point& p = a.points[i];
    const Point& q = b.points[i];
    if (p.x != q.x || std::abs(p.y - q.y) > 1e-9 * std::max(std::abs(p.y), std::abs(q.y))) {
      return false;
    }
  }
  return true;
}

/// The caption that names the titled lines drawn over one another (the primal and dual
/// forms of an exact map give the same predictions), or nothing.
std::string coinciding_lines(const Plot& p) {
  std::vector<std::string> groups;
  std::vector<bool> named(p.lines.size(), false);
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    if (named[i] || p.lines[i].title.empty()) continue;
    std::vector<std::string> same{p.lines[i].title};
    for (std::size_t j = i + 1; j < p.lines.size(); ++j) {
      if (named[j] || p.lines[j].title.empty() || !same_points(p.lines[i], p.lines[j])) continue;
      named[j] = true;
      same.push_back(p.lines[j].title);
    }
    if (same.size() > 1) groups.push_back(fmt::format("{}", fmt::join(same, " and ")));
  }
  if (groups.empty()) return {};
  // Two named; the rest counted, so that the caption stays short.
  constexpr std::size_t kNamed = 2;
  const std::size_t more = groups.size() > kNamed ? groups.size() - kNamed : 0;
  if (more > 0) groups.resize(kNamed);
  return fmt::format("Drawn over one another, with the same errors: {}{}.", fmt::join(groups, "; "),
                     more > 0
                         ? fmt::format("; and {} more such group{}", more, more == 1 ? "" : "s")
                         : std::string());
}

}  // namespace

void error_plots(const PlotInputs& inputs, Plots& out) {
  const ErrorCells& in = inputs.error_cells;
  const std::vector<std::string>& swept = inputs.swept;
  const std::set<std::string>& log_scale = inputs.log_scale;
  std::vector<Plot>& plots = out.plots;
  std::vector<std::string>& not_drawn = out.not_drawn;
  const std::vector<CellSummary>& cells = in.cells;
  const std::set<std::string>& pooled = in.pooled;
  const ErrorMeasure& measure = in.measure;
  const char* best_word = measure.lower_is_better ? "lowest" : "highest";
  for (const std::string& column : swept) {
    std::vector<ErrorGroup> groups = error_groups(cells, swept, column);
    // The key names each line by the parts its lines differ in; what they share is in the
    // plot's title instead.
    std::vector<const ErrorGroup*> drawn_groups;
    for (const ErrorGroup& g : groups) {
      if (std::find(g.swept.begin(), g.swept.end(), column) != g.swept.end())
        drawn_groups.push_back(&g);
    }
    std::vector<bool> differs(3, false);
    std::string common;
    for (std::size_t part = 0; part < 3; ++part) {
      for (const ErrorGroup* g : drawn_groups)
        differs[part] = differs[part] || g->parts[part] != drawn_groups.front()->parts[part];
      if (!differs[part] && !drawn_groups.empty() && !drawn_groups.front()->parts[part].empty())
        common += (common.empty() ? "" : " · ") + drawn_groups.front()->parts[part];
    }
    for (ErrorGroup& g : groups) {
      std::string name;
      for (std::size_t part = 0; part < 3; ++part) {
        if (differs[part] && !g.parts[part].empty())
          name += (name.empty() ? "" : " · ") + g.parts[part];
      }
      g.title = name.empty() ? g.title : name;
    }
    Plot p;
    std::size_t thinned_from = 0, per_point = 1;
    std::vector<const CellSummary*> drawn;
    std::vector<std::pair<std::string, std::string>> over;  // line → the columns it is best over
    for (const ErrorGroup& g : groups) {
      if (std::find(g.swept.begin(), g.swept.end(), column) == g.swept.end()) continue;
      const auto all =
          best_at<double>(g.cells, measure, [&](const CellSummary& c) { return x_of(c, column); });
      if (all.size() < 2) continue;
      std::size_t run = 1;
      const auto best = thinned(all, measure, run);
      if (run > 1) {
        thinned_from = std::max(thinned_from, all.size());
        per_point = std::max(per_point, run);
      }
      Line l;
      l.title = g.title;
      l.colour = p.lines.size() / (measure.validated() ? 2 : 1);
      Line v = l;  // the validation error, dashed in the same colour: the axis says so
      v.title.clear();
      v.dashed = true;
      for (const auto& [x, c] : best) {
        l.points.push_back(error_point(x, *c, measure));
        v.points.push_back(validation_point(x, *c, measure));
        drawn.push_back(c);
      }
      p.lines.push_back(std::move(l));
      if (measure.validated()) p.lines.push_back(std::move(v));
      over.emplace_back(g.title, other_columns(g, {column}));
    }
    if (p.lines.empty()) continue;
    if (over.size() > kMaxErrorLines) {
      not_drawn.push_back(fmt::format(
          "{} against {} is not drawn: its {} lines (one per kernel, solver and form on each "
          "dataset variant) would not read; the table of cells has every value.",
          measure.column, column, over.size()));
      continue;
    }
    // What each point is the best over: once when every line shares it.
    const bool shared = std::all_of(over.begin(), over.end(),
                                    [&](const auto& o) { return o.second == over.front().second; });
    for (const auto& [title, columns] : over) {
      if (columns.empty()) continue;
      p.caption.push_back(shared ? fmt::format("Each point: the cell with the {} {} over {}.",
                                               best_word, measure.selection, columns)
                                 : fmt::format("{}: the cell with the {} {} over {} at each value.",
                                               title, best_word, measure.selection, columns));
      if (shared) break;
    }
    p.name = against_stem(measure.column) + slug(column);
    p.title = fmt::format("{} against {}{}", metric_label(measure.column), param_symbol(column),
                          drawn_groups.size() > 1 && !common.empty() ? ": " + common : "");
    p.xlabel = axis_label(column);
    p.ylabel = measure.validated() ? metric_label(measure.column) +
                                         " (dashed: " + metric_label(measure.selection) + ")"
                                   : metric_label(measure.column);
    error_axes(column, drawn, log_scale, p);
    p.caption.push_back(bars_caption(drawn, measure, pooled));
    if (thinned_from > 0) {
      p.caption.push_back(fmt::format(
          "{} values of {}: each point is the cell with the {} {} among {} consecutive ones, so "
          "that a line draws at most {} points.",
          thinned_from, param_symbol(column), best_word, measure.selection, per_point,
          kMaxErrorPoints));
    }
    if (const std::string same = coinciding_lines(p); !same.empty()) p.caption.push_back(same);
    if (measure.validated()) {
      // Folds give a spread; one held-out part (validation_fraction) does not.
      const bool folds = std::any_of(drawn.begin(), drawn.end(), [&](const CellSummary* c) {
        return c->stat(measure.selection + "_std").count > 0;
      });
      p.caption.push_back(fmt::format(
          "Dashed: {} on the training part{}.", measure.selection,
          folds ? ", bars ± one standard deviation over the folds" : " (one held-out part)"));
    }
    plots.push_back(std::move(p));
  }
}

}  // namespace kexp::core::plot
