// The pieces of the error plots: cells that differ only in a seed pooled as repeats, the
// groups of cells drawn as lines (a kernel, solver and form on a dataset variant) with
// the parameters each sweeps, the points of the test and validation errors with their
// bars, log axes where the values or the errors call for one, and the captions that say
// what the points and bars are.
#include "reporting/plot_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

#include "reporting/plots.hpp"
#include "reporting/symbols.hpp"

namespace kexp::core::plot {

namespace {

bool is_seed(const std::string& column) {
  return column.size() >= 5 && column.compare(column.size() - 5, 5, ".seed") == 0;
}

/// Cells that differ only in a seed (random features drawn again) are one point of an
/// error plot: their runs pooled as repeats are, not a parameter to pick the best of.
/// `pooled` gets the ids of the cells that took another's runs.
std::vector<CellSummary> pool_seeds(const std::vector<CellSummary>& cells,
                                    std::set<std::string>& pooled_ids) {
  std::vector<CellSummary> out;
  std::map<std::string, std::size_t> index;
  for (const CellSummary& c : cells) {
    std::string key = c.dataset + "|" + c.kernel + "|" + c.solver + "|" + c.form;
    for (const auto& [column, value] : c.params) {
      if (!is_seed(column)) key += "|" + column + "=" + value;
    }
    const auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) {
      out.push_back(c);
      for (auto p = out.back().params.begin(); p != out.back().params.end();) {
        p = is_seed(p->first) ? out.back().params.erase(p) : std::next(p);
      }
      continue;
    }
    CellSummary& pooled = out[it->second];
    pooled_ids.insert(pooled.cell);
    pooled.runs += c.runs;
    pooled.ok += c.ok;
    for (const auto& [column, values] : c.values) {
      auto& into = pooled.values[column];
      into.insert(into.end(), values.begin(), values.end());
    }
  }
  return out;
}

bool log_axis(const std::string& column, const std::vector<const CellSummary*>& cells,
              const std::set<std::string>& log_scale) {
  if (log_scale.count(column)) {
    return std::all_of(cells.begin(), cells.end(), [&](const CellSummary* c) {
      const auto v = x_of(*c, column);
      return !v || *v > 0;
    });
  }
  std::vector<double> values;
  for (const CellSummary* c : cells) {
    if (const auto v = x_of(*c, column)) values.push_back(*v);
  }
  return geometric_values(values);
}

}  // namespace

namespace {

bool has_seed(const std::vector<CellSummary>& cells) {
  return std::any_of(cells.begin(), cells.end(), [](const CellSummary& c) {
    return std::any_of(c.params.begin(), c.params.end(),
                       [](const auto& p) { return is_seed(p.first) && !p.second.empty(); });
  });
}

}  // namespace

ErrorCells::ErrorCells(const std::vector<CellSummary>& all)
    : pooled_cells_(has_seed(all) ? pool_seeds(all, pooled) : std::vector<CellSummary>()),
      cells(has_seed(all) ? pooled_cells_ : all),
      measure(error_measure(cells)) {}

std::vector<ErrorGroup> error_groups(const std::vector<CellSummary>& cells,
                                     const std::vector<std::string>& swept,
                                     const std::string& drawn) {
  std::map<std::string, ErrorGroup> groups;
  std::vector<std::string> order;
  for (const CellSummary& c : cells) {
    const std::string kind = kernel_kind(c, swept);
    const std::string method = textual_params(c, swept, "solver.");
    std::string data;  // the dataset variant, by its swept parameters ("d = 5")
    for (const std::string& column : swept) {
      const auto it = c.params.find(column);
      if (column.rfind("dataset.", 0) != 0 || column == drawn || it == c.params.end() ||
          it->second.empty()) {
        continue;
      }
      data += fmt::format("{}{}", data.empty() ? " " : ", ", setting_text(column, it->second));
    }
    const std::string title = c.kernel + (kind.empty() ? "" : " " + kind) + " · " + c.solver +
                              (method.empty() ? "" : " " + method) + " (" + c.form + ")" +
                              (data.empty() ? "" : " ·" + data);
    auto [it, fresh] = groups.try_emplace(title);
    if (fresh) order.push_back(title);
    it->second.title = title;
    if (fresh) {
      it->second.parts = {c.kernel + (kind.empty() ? "" : " " + kind),
                          c.solver + (method.empty() ? "" : " " + method) + " (" + c.form + ")",
                          data.empty() ? std::string() : data.substr(1)};
    }
    it->second.cells.push_back(&c);
  }
  std::vector<ErrorGroup> out;
  for (const std::string& title : order) {
    ErrorGroup g = std::move(groups[title]);
    for (const std::string& column : swept) {
      if (is_seed(column)) continue;
      std::set<double> values;
      for (const CellSummary* c : g.cells) {
        if (const auto v = value_of(*c, column)) values.insert(*v);
      }
      if (values.size() >= 2) g.swept.push_back(column);
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::string other_columns(const ErrorGroup& g, const std::vector<std::string>& drawn) {
  std::string out;
  for (const std::string& column : g.swept) {
    if (std::find(drawn.begin(), drawn.end(), column) != drawn.end()) continue;
    out += (out.empty() ? "" : ", ") + column;
  }
  return out;
}

Point error_point(double x, const CellSummary& c, const ErrorMeasure& measure) {
  const MeanStd e = c.stat(measure.column);
  return {x, e.mean, e.mean - e.std, e.mean + e.std};
}

Point validation_point(double x, const CellSummary& c, const ErrorMeasure& measure) {
  const double e = c.stat(measure.selection).mean;
  const MeanStd spread = c.stat(measure.selection + "_std");
  const double s = std::isfinite(spread.mean) ? spread.mean : 0;
  return {x, e, e - s, e + s};
}

void error_axes(const std::string& column, const std::vector<const CellSummary*>& drawn,
                const std::set<std::string>& log_scale, Plot& p) {
  p.logx = log_axis(column, drawn, log_scale);
  double lo = INFINITY, hi = 0;
  std::set<double> xs;
  for (const Line& l : p.lines) {
    for (const Point& q : l.points) {
      lo = std::min(lo, q.y);
      hi = std::max(hi, q.y);
      xs.insert(q.x);
    }
  }
  p.logy = lo > 0 && hi / lo >= 10;
  // A tick per value on a log axis of few values, and on any axis of whole numbers (a
  // degree, a number of iterations): no tick falls between two integers.
  const bool whole = std::all_of(xs.begin(), xs.end(), [](double x) { return x == std::round(x); });
  if ((p.logx && xs.size() <= 12) || (whole && xs.size() <= 15))
    p.xtics.assign(xs.begin(), xs.end());
  // A log axis has no room for a bar below zero: such a bar ends at a tenth of its point.
  bool cut = false;
  for (Line& l : p.lines) {
    for (Point& q : l.points) {
      if (p.logy && q.low < q.y / 10) {
        q.low = q.y / 10;
        cut = true;
      }
    }
  }
  if (cut)
    p.caption.push_back("On the log axis, a bar reaching below a tenth of its point ends there.");
}

std::string bars_caption(const std::vector<const CellSummary*>& drawn, const ErrorMeasure& measure,
                         const std::set<std::string>& pooled_ids) {
  std::size_t runs = 0;
  bool pooled = false;
  for (const CellSummary* c : drawn) {
    runs = std::max(runs, c->stat(measure.column).count);
    pooled = pooled || pooled_ids.count(c->cell) > 0;
  }
  if (runs <= 1) return "Points: one run each, so no bars.";
  return fmt::format(
      "Points: mean over up to {} runs (the repeats{}); bars: ± one standard deviation.", runs,
      pooled ? ", and the seeds of random maps" : "");
}

}  // namespace kexp::core::plot
