// Plots through gnuplot (SVG): cost against n for each solver on log axes, with the
// primal-dual crossover marked; when n is not swept, cost against the feature dimension
// D of the kernel variants, with D = n and the crossover marked; test error against each
// swept parameter. Each plot is a self-contained gnuplot script (its data inline) next to
// its SVG, to be edited and re-run by hand.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"

namespace kexp::core {

struct PlotResult {
  std::vector<std::string> files;   ///< SVGs written, relative to the result folder
  std::string skipped;              ///< why no plots were drawn, when none were
  std::vector<std::string> failed;  ///< scripts gnuplot could not draw
};

/// The gnuplot program: $KEXP_GNUPLOT, else `gnuplot` on the PATH.
std::string gnuplot_program();

/// Writes folder/plots/. Without gnuplot, writes nothing and says why in `skipped`.
PlotResult write_plots(const std::vector<CellSummary>& cells, const std::vector<std::string>& swept,
                       const std::filesystem::path& folder);

}  // namespace kexp::core
