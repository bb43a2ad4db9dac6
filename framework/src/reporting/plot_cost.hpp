// The lines of a cost plot (private to reporting/), shared by the plots of cost against n
// and against the feature dimension D: one line per solver variant, primal and dual
// counterparts in one colour with their crossovers marked.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/gnuplot.hpp"
#include "sweep/pairing.hpp"

namespace kexp::core::plot {

/// One solver variant in a cost plot: its runs' times at each x.
struct CostSeries {
  std::string base;  ///< its name in the key: form, solver, kind of map
  std::string form, solver;
  std::string kernel;   ///< the kernel and its kind of map: only lines of one kernel pair
  std::string varying;  ///< the solver's parameters its lines differ in, set by cost_lines
  SolverSide side;
  std::map<double, std::vector<const CellSummary*>> at;
};

/// The lines of a cost plot, from the series with at least `min_points` values of x,
/// with the primal and dual solvers of a pair in one colour, the crossovers of each pair
/// marked (on the axis named `axis`) and the details of each solver in the caption.
/// Returns how many primal-dual pairs it drew.
std::size_t cost_lines(const std::map<std::string, CostSeries>& all_series, std::size_t min_points,
                       const char* axis, Plot& p);

/// How the y axis of a cost plot is labelled.
inline constexpr const char* kCostAxis = "time: Gram or features + fit + predict (s)";

}  // namespace kexp::core::plot
