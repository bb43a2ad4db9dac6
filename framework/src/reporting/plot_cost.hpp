// The lines of a cost plot (private to reporting/), shared by the plots of cost against n
// and against the feature dimension D: one line per solver variant, primal and dual
// counterparts in one colour with their crossovers marked.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/gnuplot.hpp"
#include "reporting/symbols.hpp"
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

/// The numeric parameters of each solver that change no cost: those whose every value
/// gives the same analytic flop count (the `flops` column) to the solver's cells that
/// differ in nothing else, as λ does a direct ridge solver, whose work is the same
/// factorization at any λ. Solver → parameter names ("lambda"). kexp knows it from the
/// counts each cell reports, not from a list: an iterative solver whose iterations depend
/// on λ keeps its lines apart.
std::map<std::string, std::set<std::string>> cost_free_parameters(
    const std::vector<CellSummary>& cells);

/// How the lines of a cost plot are named and gathered: the parameters that change no cost
/// (cost_free_parameters), drawn as one line with their spread, and the defaults that the
/// key and the caption leave out.
struct CostLabels {
  std::map<std::string, std::set<std::string>> folded;
  const ParamDefaults* defaults = nullptr;
};

/// How many lines cost_lines draws from these series, once the parameters that change no
/// cost are gathered.
std::size_t line_count(const std::map<std::string, CostSeries>& all_series,
                       const CostLabels& labels);

/// The lines of a cost plot, from the series with at least `min_points` values of x,
/// with the primal and dual solvers of a pair in one colour, the crossovers of each pair
/// marked (on the axis named `axis`) and the details of each solver in the caption. The
/// key names a line by what varies between the lines of its solver, in symbols (λ = 0.01);
/// the caption states what they share, but for defaults. Returns how many primal-dual
/// pairs it drew.
std::size_t cost_lines(const std::map<std::string, CostSeries>& all_series, std::size_t min_points,
                       const char* axis, const CostLabels& labels, Plot& p);

/// How the y axis of a cost plot is labelled.
inline constexpr const char* kCostAxis = "time: Gram or features + fit + predict (s)";

}  // namespace kexp::core::plot
