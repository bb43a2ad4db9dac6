// The plots of cost against n: one per kernel variant (and value of the other swept
// dataset parameters), one line per solver variant on log axes, n = D marked where the
// primal map's one dimension D falls in the range drawn, and said in the caption where not.
// Where some plot holds a primal-dual pair, the plots of one form alone are details.
// The values of a parameter that changes no cost (λ of a direct solver: cost_free_parameters)
// are one line. A plot that would still draw more than kMaxCostLines lines (a sweep of an
// iterative solver's step crossed with precisions) draws a line per method instead: per
// solver and its textual parameters (precision=mixed), each point the mean over the values
// of its numeric parameters, with bars from the fastest to the slowest of them.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "reporting/plot_cost.hpp"
#include "reporting/plot_families.hpp"

namespace kexp::core::plot {

namespace {

/// The most lines a cost plot draws before it gathers the values of its solvers' numeric
/// parameters into one line per method.
constexpr std::size_t kMaxCostLines = 12;

}  // namespace

void cost_vs_n_plots(const PlotInputs& in, Plots& out) {
  const std::vector<CellSummary>& cells = in.cells;
  const std::vector<std::string>& swept = in.swept;
  struct Group {
    std::string dataset;
    std::map<std::string, CostSeries> series;
    std::map<std::string, CostSeries> methods;  ///< a line per solver and textual parameters
    std::set<double> dims;                      ///< D of the primal cells
    bool primal = false;
  };
  std::map<std::string, Group> groups;  // plot → its lines
  for (const CellSummary& c : cells) {
    const double n = c.stat(Column::n_train).mean, t = c.stat(kTimeSeconds).mean;
    if (!(n > 0) || !(t > 0)) continue;
    std::string plot = c.kernel;
    for (const std::string& column : swept) {
      const auto it = c.params.find(column);
      if (column == "dataset.n" || column.rfind("solver.", 0) == 0 || it == c.params.end() ||
          it->second.empty() || c.shown.count(column) == 0) {
        continue;
      }
      plot += fmt::format(" {}={}", column.substr(column.find('.') + 1), it->second);
    }
    Group& g = groups[plot];
    g.dataset = c.dataset;
    const std::string solver_params = c.params_of("solver");
    const std::string line =
        c.form + " " + c.solver + (solver_params.empty() ? "" : " (" + solver_params + ")");
    CostSeries& s = g.series[line];
    s.base = c.solver + " (" + c.form + ")";
    s.form = c.form;
    s.solver = c.solver;
    s.side = solver_side(c);
    s.at[n].push_back(&c);
    const std::string method = textual_params(c, swept, "solver.");
    CostSeries& m = g.methods[c.form + " " + c.solver + " " + method];
    m.base = s.base;
    m.form = c.form;
    m.solver = c.solver;
    m.side.form = c.form;
    for (const auto& [column, value] : c.params) {  // the textual ones, as in `method`
      if (column.rfind("solver.", 0) == 0 && !value.empty() && !value_of(c, column) &&
          std::find(swept.begin(), swept.end(), column) != swept.end()) {
        m.side.params[column.substr(7)] = value;
      }
    }
    m.at[n].push_back(&c);
    g.primal = g.primal || c.form == "primal";
    if (const double D = c.stat(Column::feature_dim).mean; c.form == "primal" && D > 0)
      g.dims.insert(D);
  }
  // The findings rest on the plots of a primal-dual pair where there are such; the
  // growth of one form alone, elsewhere.
  const std::size_t first = out.plots.size();
  std::vector<bool> paired;  // of each plot drawn here, in order
  const CostLabels labels{cost_free_parameters(cells), &in.defaults};
  for (const auto& [key, g] : groups) {
    Plot p;
    p.name = kCostVsNStem + slug(key);
    const bool gathered = line_count(g.series, labels) > kMaxCostLines;
    const std::size_t pairs = cost_lines(gathered ? g.methods : g.series, 2, "n", labels, p);
    if (gathered) {
      p.caption.push_back(fmt::format(
          "{} solver variants: a line per solver and choice of method, each point the mean "
          "time over the values of its numeric parameters, bars from the fastest to the "
          "slowest of them.",
          g.series.size()));
    }
    if (p.lines.empty()) continue;
    paired.push_back(pairs > 0);
    p.title = fmt::format("time against n: {} on {}", key, g.dataset);
    p.xlabel = "n (training points)";
    p.ylabel = kCostAxis;
    p.logx = p.logy = true;
    const auto [lo, hi] = x_range(p);
    if (g.dims.size() == 1) {
      const double D = *g.dims.begin();
      if (D >= lo && D <= hi) {
        p.marks.push_back({D, fmt::format("n = D = {}", short_number(D)), std::nullopt});
      } else {
        p.caption.push_back(fmt::format("The primal map's dimension D = {} is {} every n drawn.",
                                        short_number(D), D < lo ? "below" : "above"));
      }
    }
    out.plots.push_back(std::move(p));
  }
  if (std::find(paired.begin(), paired.end(), true) == paired.end()) return;
  for (std::size_t i = 0; i < paired.size(); ++i) {
    if (!paired[i]) {
      out.plots[first + i].detail = "the cost of one form alone, beside a primal-dual pair's";
    }
  }
}

}  // namespace kexp::core::plot
