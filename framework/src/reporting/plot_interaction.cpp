// The plots of two hyperparameters swept together: for each kernel, solver and form on a
// dataset variant, up to three pairs of its swept model parameters (never a dataset's),
// each a heat map of the error chosen on over both, and the test error against the first
// with a line per value of the second when few enough values read as lines. Each square
// and point is the best cell over the group's other swept parameters. Past kMaxHeatMaps,
// the report says how many it left out. The heat maps of the groups that hold a solver's
// best cell are what the summary rests on; the others and the line plots are details.
#include <fmt/format.h>

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

void interaction_plots(const PlotInputs& inputs, Plots& out) {
  const ErrorCells& in = inputs.error_cells;
  const std::vector<std::string>& swept = inputs.swept;
  const std::set<std::string>& log_scale = inputs.log_scale;
  std::vector<Plot>& plots = out.plots;
  std::vector<std::string>& not_drawn = out.not_drawn;
  std::size_t heat_maps = 0, left_out = 0, findings_left_out = 0;
  const std::vector<CellSummary>& cells = in.cells;
  const std::set<std::string>& pooled = in.pooled;
  const ErrorMeasure& measure = in.measure;
  const char* best_word = measure.lower_is_better ? "lowest" : "highest";
  // The summary's findings rest on the heat maps of the groups that hold a solver's best
  // cell; the rest, and every line plot, are details.
  const std::vector<const CellSummary*> best_of_solvers = best_per_solver(cells, measure);
  const auto holds_a_best = [&](const ErrorGroup& g) {
    return std::any_of(best_of_solvers.begin(), best_of_solvers.end(), [&](const CellSummary* b) {
      return std::find(g.cells.begin(), g.cells.end(), b) != g.cells.end();
    });
  };
  // The groups of the best cells first, so that a cap on the heat maps never leaves out
  // the ones the findings rest on.
  std::vector<ErrorGroup> groups = error_groups(cells, swept);
  std::stable_partition(groups.begin(), groups.end(), holds_a_best);
  // The model's hyperparameters on each dataset variant: σ against λ, not n against d.
  for (ErrorGroup& g : groups) {
    g.swept.erase(std::remove_if(g.swept.begin(), g.swept.end(),
                                 [](const std::string& c) { return c.rfind("dataset.", 0) == 0; }),
                  g.swept.end());
    const bool findings = holds_a_best(g);
    std::size_t drawn_pairs = 0;
    for (std::size_t a = 0; a < g.swept.size() && drawn_pairs < 3; ++a) {
      for (std::size_t b = a + 1; b < g.swept.size() && drawn_pairs < 3; ++b) {
        const std::string& x = g.swept[a];
        const std::string& y = g.swept[b];
        const auto best = best_at<std::pair<double, double>>(
            g.cells, measure,
            [&](const CellSummary& c) -> std::optional<std::pair<double, double>> {
              const auto vx = value_of(c, x), vy = value_of(c, y);
              if (!vx || !vy) return std::nullopt;
              return std::make_pair(*vx, *vy);
            });
        std::set<double> xs, ys;
        for (const auto& [key, c] : best) {
          xs.insert(key.first);
          ys.insert(key.second);
        }
        if (xs.size() < 2 || ys.size() < 2) continue;
        ++drawn_pairs;
        if (++heat_maps > kMaxHeatMaps) {
          ++left_out;
          findings_left_out += findings ? 1 : 0;
          continue;
        }
        const std::string o = other_columns(g, {x, y});
        const std::string over = o.empty()
                                     ? ""
                                     : fmt::format("Each value: the cell with the {} {} over {}.",
                                                   best_word, measure.selection, o);
        const std::string stem = slug(g.title) + "_" + slug(x) + "_" + slug(y);

        // The error the parameters are chosen on: the validation error when there is one.
        const std::string& shown = measure.selection;
        Plot heat;
        heat.name = heat_stem(shown) + stem;
        heat.title = fmt::format("{}: {} over {} and {}", g.title, metric_label(shown),
                                 param_symbol(x), param_symbol(y));
        heat.xlabel = axis_label(x);
        heat.ylabel = axis_label(y);
        Heat h;
        h.xs.assign(xs.begin(), xs.end());
        h.ys.assign(ys.begin(), ys.end());
        h.zlabel = metric_label(shown) + " (mean over repeats)";
        double lo = INFINITY, hi = 0;
        std::optional<double> best_error;
        for (const auto& [key, c] : best) {
          const auto i = static_cast<std::size_t>(
              std::lower_bound(h.xs.begin(), h.xs.end(), key.first) - h.xs.begin());
          const auto j = static_cast<std::size_t>(
              std::lower_bound(h.ys.begin(), h.ys.end(), key.second) - h.ys.begin());
          const double e = c->stat(shown).mean;
          h.z[{i, j}] = e;
          lo = std::min(lo, e);
          hi = std::max(hi, e);
          const bool better =
              std::isfinite(e) &&
              (!best_error || (measure.lower_is_better ? e < *best_error : e > *best_error));
          if (better) {
            best_error = e;
            h.best = std::make_pair(i, j);
          }
        }
        h.logz = lo > 0 && hi / lo >= 10;
        heat.heat = std::move(h);
        if (!findings) heat.detail = "heat maps of groups that hold no solver's best cell";
        if (!over.empty()) heat.caption.push_back(over);
        heat.caption.push_back(
            "Framed: the best square. An empty square: no cell there finished with a finite "
            "error.");

        Plot lines;
        lines.detail = "the error with a line per value of a second parameter";
        lines.name =
            against_stem(measure.column) + slug(x) + "_by_" + slug(y) + "_" + slug(g.title);
        lines.title = fmt::format("{}: {} against {}, a line per {}", g.title,
                                  metric_label(measure.column), param_symbol(x), param_symbol(y));
        lines.xlabel = axis_label(x);
        lines.ylabel = metric_label(measure.column);
        std::vector<const CellSummary*> drawn;
        for (const double vy : ys) {
          Line l;
          l.title = fmt::format("{} = {}", param_symbol(y), short_number(vy));
          l.colour = lines.lines.size();
          for (const auto& [key, c] : best) {
            if (key.second != vy) continue;
            l.points.push_back(error_point(key.first, *c, measure));
            drawn.push_back(c);
          }
          if (!l.points.empty()) lines.lines.push_back(std::move(l));
        }
        error_axes(x, drawn, log_scale, lines);
        if (!over.empty()) lines.caption.push_back(over);
        lines.caption.push_back(bars_caption(drawn, measure, pooled));
        plots.push_back(std::move(heat));
        // A line per value reads for a few values; the heat map shows any number.
        if (lines.lines.size() <= kMaxErrorLines) plots.push_back(std::move(lines));
      }
    }
  }
  // Without the details, the cap matters only where it left out a heat map the findings
  // rest on.
  if (left_out > 0 && (inputs.details || findings_left_out > 0)) {
    not_drawn.push_back(fmt::format(
        "{} heat maps (and their line plots) of two hyperparameters are drawn; {} more, one per "
        "kernel, solver and dataset variant, are not.",
        kMaxHeatMaps, left_out));
  }
}

}  // namespace kexp::core::plot
