// The plots of cost against the feature dimension D, drawn when n is not swept: one per
// dataset variant, one line per solver variant and kind of map (Taylor and random
// features are not one curve), D of a dual cell taken from the primal cells of its kernel
// variant; the crossovers of primal-dual counterparts and D = n marked.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "reporting/plot_cost.hpp"
#include "reporting/plot_families.hpp"

namespace kexp::core::plot {

void cost_vs_dim_plots(const PlotInputs& in, Plots& out) {
  const std::vector<CellSummary>& cells = in.cells;
  const std::vector<std::string>& swept = in.swept;
  if (std::find(swept.begin(), swept.end(), "dataset.n") != swept.end()) return;
  const auto kernel_key = [](const CellSummary& c) {
    return c.dataset + "|" + c.params_of("dataset") + "|" + c.kernel + "|" + c.params_of("kernel");
  };
  std::map<std::string, double> dims;  // kernel variant on a dataset variant → D
  for (const CellSummary& c : cells) {
    const double D = c.stat(Column::feature_dim).mean;
    if (c.form == "primal" && D > 0) dims[kernel_key(c)] = D;
  }
  struct Group {
    std::string dataset, params;
    double n = 0;
    std::map<std::string, CostSeries> series;
  };
  std::map<std::string, Group> groups;  // dataset variant → its plot
  for (const CellSummary& c : cells) {
    const auto D = dims.find(kernel_key(c));
    if (D == dims.end() || !(c.stat(kTimeSeconds).mean > 0)) continue;
    // Named by the dataset's swept parameters only: the others are the same in every cell.
    std::string variant = c.dataset;
    for (const std::string& column : swept) {
      const auto it = c.params.find(column);
      if (column.rfind("dataset.", 0) == 0 && it != c.params.end() && !it->second.empty()) {
        variant += fmt::format(" {}={}", column.substr(8), it->second);
      }
    }
    Group& g = groups[variant];
    g.dataset = c.dataset;
    g.params = c.params_of("dataset", "dataset.n");
    g.n = c.stat(Column::n_train).mean;
    // A line per solver and kind of map: Taylor and random features are not one curve.
    const std::string kind = kernel_kind(c, swept);
    const std::string kernel = c.kernel + (kind.empty() ? "" : " " + kind);
    const std::string base = c.solver + " (" + c.form + ") · " + kernel;
    const std::string solver_params = c.params_of("solver");
    CostSeries& s = g.series[base + (solver_params.empty() ? "" : " (" + solver_params + ")")];
    s.base = base;
    s.kernel = kernel;
    s.form = c.form;
    s.solver = c.solver;
    s.side = solver_side(c);
    s.at[D->second].push_back(&c);
  }
  const CostLabels labels{cost_free_parameters(cells), &in.defaults};
  for (const auto& [key, g] : groups) {
    Plot p;
    p.name = kCostVsDimStem + slug(key);
    cost_lines(g.series, 3, "D", labels, p);
    if (p.lines.empty()) continue;
    p.title = fmt::format("time against the feature dimension D: {}, n = {} training points",
                          g.dataset, short_number(g.n));
    if (!g.params.empty()) p.caption.insert(p.caption.begin(), g.dataset + ": " + g.params);
    p.xlabel = "D (feature dimension of the kernel's map)";
    p.ylabel = kCostAxis;
    p.logx = p.logy = true;
    const auto [lo, hi] = x_range(p);
    if (g.n >= lo && g.n <= hi) {
      p.marks.insert(p.marks.begin(),
                     {g.n, fmt::format("D = n = {}", short_number(g.n)), std::nullopt});
    } else if (g.n > 0) {
      p.caption.push_back(fmt::format("n = {} is {} every D drawn.", short_number(g.n),
                                      g.n < lo ? "below" : "above"));
    }
    out.plots.push_back(std::move(p));
  }
}

}  // namespace kexp::core::plot
