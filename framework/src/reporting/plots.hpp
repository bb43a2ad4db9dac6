// Plots through gnuplot (SVG), drawn from results.csv alone:
//
//   - cost against n (training points) for each kernel variant on log axes, one line per
//     solver variant with the range of its timed runs as bars; the primal and dual
//     solvers of a pair share a colour (primal solid, dual dashed); where they cross,
//     marked with the pair's name; n = D marked where the map's dimension D falls in range;
//   - when n is not swept, cost against the feature dimension D of the kernel variants,
//     one line per solver and kind of map, with D = n and the crossovers marked;
//   - test error against each swept parameter, per kernel, solver and form that sweeps it,
//     with ± one standard deviation over repeats as bars;
//   - for two parameters swept together by one kernel-solver pair, a heat map of the error
//     over both and the error against one with a line per value of the other.
//
// A parameter gets a log axis when its schema says so (`log_scale`, recorded in
// manifest.json) or when its values are spaced geometrically, as a `logspace` sweep is.
// Details that do not fit a key (a solver's fixed parameters) go in a caption under the
// plot. Each plot is a self-contained gnuplot script (its data inline) next to its SVG,
// to be edited and re-run by hand. By default a report draws only the plots its findings
// rest on (PlotSelection); `output.plots: all` or `kexp report --plots all` draws every one.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/manifest.hpp"
#include "reporting/symbols.hpp"

namespace kexp::core {

struct PlotResult {
  std::vector<std::string> files;      ///< SVGs written, relative to the result folder
  std::vector<std::string> captions;   ///< of each of `files`: its title and caption lines
  std::string skipped;                 ///< why no plots were drawn, when none were
  std::vector<std::string> failed;     ///< scripts gnuplot could not draw
  std::vector<std::string> not_drawn;  ///< plots left out because they would not read, and why
};

/// Which plots a report draws: those the summary's findings rest on (the default), or
/// every plot. The findings rest on the cost against n of each primal-dual pair (of each
/// form alone where no plot holds a pair), the cost against D, the error against each
/// swept parameter, and the heat map of the group of each solver's best cell.
enum class PlotSelection { findings, all };

/// Whether values of a parameter are best drawn on a log axis: all positive, and either
/// spaced geometrically (three or more whose successive ratios agree within 25 %, each
/// at least 1.5) or spanning a factor of 50 or more.
bool geometric_values(std::vector<double> values);

/// Writes folder/plots/. `log_scale` names parameter columns ("kernel.sigma") whose
/// schema asks for a log axis; `defaults` are the plugins' defaults, which keys and
/// captions leave out. Without gnuplot, writes nothing and says why in `skipped`.
/// With PlotSelection::findings, `not_drawn` says how many plots were left out and how to
/// draw them.
PlotResult write_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       const std::filesystem::path& folder,
                       const std::set<std::string>& log_scale = {},
                       PlotSelection selection = PlotSelection::all,
                       const ParamDefaults& defaults = ParamDefaults());

/// The parameter columns whose schema asks for a log axis, from a manifest.json's
/// plugins (their `log_scale` lists); empty when it has none or could not be read.
std::set<std::string> log_scale_columns(const StoredManifest& manifest);

}  // namespace kexp::core
