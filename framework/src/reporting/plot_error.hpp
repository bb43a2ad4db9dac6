// The pieces of the error plots (private to reporting/), shared by the plots of the error
// against one parameter and over two: the lines' groups of cells, the best cell at each
// value, the points and their bars, the axes and the captions.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/gnuplot.hpp"
#include "reporting/plot_families.hpp"

namespace kexp::core::plot {

/// The most lines an error plot draws, and the most heat maps a report draws: past them
/// a plot would not read, and the report says what it left out.
inline constexpr std::size_t kMaxErrorLines = 8;
inline constexpr std::size_t kMaxHeatMaps = 12;
/// The most points a line of an error plot draws: past them (a sweep of 10⁵ values of λ)
/// the values are taken in runs of consecutive ones, each drawn as its best cell, so that
/// the plot stays a few hundred kB and still shows the best value and the curve's shape.
inline constexpr std::size_t kMaxErrorPoints = 500;

/// The best cell of each run of `per_point` consecutive keys of `best` (keys in order):
/// a line of at most kMaxErrorPoints points. `per_point` is set to the run's length (1
/// when every key is drawn).
template <typename Key>
std::map<Key, const CellSummary*> thinned(const std::map<Key, const CellSummary*>& best,
                                          const ErrorMeasure& measure, std::size_t& per_point) {
  per_point = (best.size() + kMaxErrorPoints - 1) / kMaxErrorPoints;
  if (per_point <= 1) {
    per_point = 1;
    return best;
  }
  std::map<Key, const CellSummary*> out;
  std::size_t i = 0;
  std::optional<std::pair<Key, const CellSummary*>> run;
  for (const auto& [key, cell] : best) {
    if (!run || better_cell(*cell, *run->second, measure)) run = std::make_pair(key, cell);
    if (++i % per_point == 0) {
      out.insert(*run);
      run.reset();
    }
  }
  if (run) out.insert(*run);
  return out;
}

/// How the name of a plot of `column` against a parameter begins: "test_rmse_vs_".
inline std::string against_stem(const std::string& column) { return column + "_vs_"; }

/// How the name of a heat map of `column` begins: "validation_rmse_heat_".
inline std::string heat_stem(const std::string& column) { return column + "_heat_"; }

/// The cells of one kernel, solver and form (and kind of map, and choice of the solver's
/// textual parameters: `precision=mixed`) on one dataset variant: the unit an error plot
/// draws as a line. A dataset's parameters are never chosen over, nor a textual one.
struct ErrorGroup {
  std::string title;
  /// The title in its parts: the kernel and its kind of map, the solver with its form and
  /// method, and the dataset variant in symbols ("n = 125"): a plot's key names a line by
  /// the parts its lines differ in.
  std::vector<std::string> parts;
  std::vector<const CellSummary*> cells;
  std::vector<std::string> swept;  ///< numeric parameters with two or more values here
};

/// The groups of `cells`; `drawn` is the dataset parameter a plot draws against (its
/// groups span its values), if it draws against one.
std::vector<ErrorGroup> error_groups(const std::vector<CellSummary>& cells,
                                     const std::vector<std::string>& swept,
                                     const std::string& drawn = {});

/// The swept columns of a group that a plot does not draw, "kernel.sigma, solver.lambda":
/// what each of its points is the best over.
std::string other_columns(const ErrorGroup& g, const std::vector<std::string>& drawn);

/// The best cell at each key of a plot (best_cells, analysis.hpp), among the cells with a
/// finite test error, by key.
template <typename Key, typename KeyOf>
std::map<Key, const CellSummary*> best_at(const std::vector<const CellSummary*>& cells,
                                          const ErrorMeasure& measure, KeyOf key_of) {
  const auto best = best_cells<Key>(cells, measure, BestAmong::finite_selection_and_test, key_of);
  return {best.begin(), best.end()};
}

/// A point of an error plot: the mean over repeats, bars ± one standard deviation
/// (error_axes cuts them on a log axis).
Point error_point(double x, const CellSummary& c, const ErrorMeasure& measure);

/// A point of the validation error: its mean over repeats, bars ± the standard deviation
/// over the folds (their mean over repeats); no bars for a single held-out part.
Point validation_point(double x, const CellSummary& c, const ErrorMeasure& measure);

/// Log axes where they help: x for a log-scale parameter, y when the error spans a
/// factor of 10 or more; ticks at the values drawn when a log x has few of them.
void error_axes(const std::string& column, const std::vector<const CellSummary*>& drawn,
                const std::set<std::string>& log_scale, Plot& p);

/// What the points and bars of an error plot are.
std::string bars_caption(const std::vector<const CellSummary*>& drawn, const ErrorMeasure& measure,
                         const std::set<std::string>& pooled_ids);

}  // namespace kexp::core::plot
