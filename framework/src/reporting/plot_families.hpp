// The families of plots the report draws (private to reporting/): each is one file,
// plot_<family>.cpp, and one entry of plot_families() (plots.cpp), which names how its
// plots' names begin; write_plots draws every family in the table's order, and a rebuild
// removes exactly the plots whose names begin so.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/gnuplot.hpp"
#include "reporting/symbols.hpp"

namespace kexp::core::plot {

/// The cells the error plots draw: cells that differ only in a seed pooled as repeats
/// (pool_seeds, plot_error.cpp), once for all the families.
struct ErrorCells {
  std::set<std::string> pooled;  ///< ids of the cells that took another's runs
 private:
  std::vector<CellSummary> pooled_cells_;  ///< when some cells were pooled

 public:
  /// The cells: `all` itself when no cell has a seed to pool (no copy of a large sweep).
  const std::vector<CellSummary>& cells;
  ErrorMeasure measure;

  explicit ErrorCells(const std::vector<CellSummary>& all);
};

/// What every family draws from.
struct PlotInputs {
  const std::vector<CellSummary>& cells;
  const std::vector<std::string>& swept;   ///< parameter columns with several values
  const std::set<std::string>& log_scale;  ///< columns whose schema asks for a log axis
  const ErrorCells& error_cells;           ///< seeds pooled, for the error plots
  bool details = true;                     ///< whether the plots marked as details are drawn
  /// The defaults of the plugins' parameters (manifest.json): keys and captions leave
  /// them out.
  const ParamDefaults& defaults;
};

/// What the families drew, in order, and the plots they left out with why.
struct Plots {
  std::vector<Plot> plots;
  std::vector<std::string> not_drawn;
};

struct PlotFamily {
  const char* what;                ///< what its plots show
  std::vector<std::string> stems;  ///< how the names of its plots begin
  void (*draw)(const PlotInputs&, Plots&);
};

/// Every family, in the order the report draws them.
const std::vector<PlotFamily>& plot_families();

/// The swept textual (not numeric) parameters of a cell's kernel: what kind of map it is
/// ("map=rff").
std::string kernel_kind(const CellSummary& c, const std::vector<std::string>& swept);

/// The swept textual parameters of a cell whose columns begin with `prefix` ("kernel.",
/// "solver."), "map=rff", "precision=mixed": choices that make another method, not values
/// to choose the best over.
std::string textual_params(const CellSummary& c, const std::vector<std::string>& swept,
                           const std::string& prefix);

/// A parameter in the reader's language: its symbol where it has one ("kernel.sigma" → "σ",
/// "solver.lambda" → "λ"), else its name without the kind ("degree"); "dataset.n" is
/// "n_train", since every plot draws n as the training points.
std::string param_symbol(const std::string& column);

/// An axis or a title's name of a parameter: its symbol with the column it comes from,
/// "σ (kernel.sigma)"; "n_train (training points)" for dataset.n.
std::string axis_label(const std::string& column);

/// A result column in words: "test RMSE", "validation accuracy".
std::string metric_label(const std::string& column);

/// The x a cell is drawn at against a parameter: its value, and for dataset.n its
/// number of training points (one meaning of n in every plot).
std::optional<double> x_of(const CellSummary& c, const std::string& column);

/// A cell's parameter as a finite number; nothing when it has none or it is text.
std::optional<double> value_of(const CellSummary& c, const std::string& column);

/// How the names of the cost plots begin: "cost_vs_n_<kernel variant>",
/// "cost_vs_D_<dataset variant>".
inline constexpr const char* kCostVsNStem = "cost_vs_n_";
inline constexpr const char* kCostVsDimStem = "cost_vs_D_";

/// Cost against n: one plot per kernel variant (and value of the other swept dataset
/// parameters), one line per solver variant (plot_cost_vs_n.cpp).
void cost_vs_n_plots(const PlotInputs& in, Plots& out);

/// Cost against the feature dimension D when n is not swept (plot_cost_vs_dim.cpp).
void cost_vs_dim_plots(const PlotInputs& in, Plots& out);

/// The error against each swept parameter (plot_error_vs_param.cpp).
void error_plots(const PlotInputs& in, Plots& out);

/// Heat maps of the error over two parameters swept together, with a line plot of the
/// error against the first per value of the second (plot_interaction.cpp).
void interaction_plots(const PlotInputs& in, Plots& out);

}  // namespace kexp::core::plot
