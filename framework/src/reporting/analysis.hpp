// What the summary and the plots compute from results.csv: runs aggregated per cell
// over repeats, primal-dual pairs, power-law fits of costs over n and crossovers.
// Everything works from the CSV alone, so that `kexp report` and `kexp merge` rebuild
// exactly what a run wrote.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "exec/timing.hpp"
#include "reporting/columns.hpp"
#include "sweep/pairing.hpp"
#include "util/csv.hpp"

namespace kexp::core {

struct MeanStd {
  double mean = 0;
  double std = 0;  ///< sample standard deviation (n − 1); 0 for one value
  std::size_t count = 0;
  std::size_t nonfinite = 0;  ///< values left out: NaN or infinite
};

/// Mean and sample standard deviation of the finite values; the others are counted.
MeanStd mean_std(const std::vector<double>& values);

/// A figure as the summary and the plots' labels write it: 4 significant digits, "—" when
/// it is not finite.
inline std::string number_text(double v) {
  if (!std::isfinite(v)) return "—";
  return fmt::format("{:.4g}", v);
}

/// A results.csv field as a number: true and `out` set when the whole text is one;
/// false and `out` untouched otherwise (an empty field, text).
bool parse_number(const std::string& text, double& out);

/// A parameter's value as the summary's tables show it: a number written with a fraction
/// or an exponent and more than 4 significant digits rounded to 4
/// ("0.31622776601683794" → "0.3162"), any other text as it is ("1e-3", "0.5", "10000",
/// "rff"). results.csv keeps the exact value.
std::string shown_value(const std::string& text);

/// What a cell adds to its values (CellSummary::values) beside the numeric columns: a run's
/// time, the sum of its timed phases' medians (kTimedPhases, columns.hpp); the sums of
/// their minima and of their maxima; and 1 when that time is below kNoiseFloorSeconds
/// (exec/timing.hpp), else 0.
inline constexpr const char* kTimeSeconds = "time_seconds";
inline constexpr const char* kTimeSecondsMin = "time_seconds_min";
inline constexpr const char* kTimeSecondsMax = "time_seconds_max";
/// The metric of a solver that runs on the GPU: its copies between host and device, inside
/// fit_seconds and predict_seconds and reported apart, the transfer phase.
inline constexpr const char* kTransferSeconds = "transfer_seconds";
inline constexpr const char* kTimeBelowFloor = "time_below_floor";

/// y ≈ c·xᵇ by least squares on (log x, log y); needs at least two distinct positive x
/// and positive y.
struct PowerFit {
  double exponent = 0;   ///< b
  double intercept = 0;  ///< log c
  double r2 = 0;         ///< coefficient of determination of the log-log fit
  std::size_t points = 0;
};
std::optional<PowerFit> fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

/// Where two curves sampled at the same increasing x cross, interpolating linearly in
/// (log x, log y) between the samples where a − b changes sign; nothing when they do
/// not cross.
std::optional<double> crossover(const std::vector<double>& x, const std::vector<double>& a,
                                const std::vector<double>& b);

/// One cell over its repeats.
struct CellSummary {
  std::string cell, dataset, kernel, solver, form;
  std::map<std::string, std::string> params;  ///< `dataset.n` → "400", as in the CSV
  std::size_t runs = 0, ok = 0;
  std::size_t not_converged = 0;  ///< ok runs whose solver says `converged: false`
  /// Numeric columns over the ok repeats, plus the run's time (kTimeSeconds and the
  /// others beside it).
  std::unordered_map<std::string, std::vector<double>> values;
  std::vector<std::pair<std::string, std::string>> failures;  ///< (repeat, error)
  std::string paired_with;
  double prediction_max_diff = -1;  ///< over repeats; −1 when not known
  /// The parameter columns that name this cell among the others (shown_parameters): those
  /// that vary over the cells of its plugin and apply to it.
  std::set<std::string> shown;

  [[nodiscard]] MeanStd stat(const std::string& column) const;
  [[nodiscard]] MeanStd stat(Column column) const { return stat(column_name(column)); }
  /// The parameters with a prefix ("dataset", "kernel", "solver") as `name=value, …`,
  /// leaving out `except` (a full column name).
  [[nodiscard]] std::string params_of(const std::string& prefix,
                                      const std::string& except = {}) const;
};

/// A cell's time over its measurements and repeats: the median (mean over repeats), the
/// lowest minimum and highest maximum, and whether it is below the noise floor in some
/// repeat.
struct TimeRange {
  double median = 0, low = 0, high = 0;
  bool below_floor = false;
};

/// Where a primal and a dual time series cross in n.
struct Crossover {
  double n = 0;  ///< from the medians
  /// The range the spread implies; NaN when neither bound lies in the swept n.
  double low = 0, high = 0;
  bool bounded = false;    ///< both bounds lie in the swept n
  std::string unresolved;  ///< why the data do not settle it, or empty
};

/// The crossover of `primal` and `dual` times over increasing n, the one rule that the
/// summary and the cost plots share: from the medians, with
/// the range given by crossing the primal's minima with the dual's maxima and the other
/// way round; unresolved when a time either side of it is below the noise floor or the
/// two ranges overlap at both samples either side. Nothing when the medians do not cross.
/// `axis` names what n is in the reasons ("n", "D").
std::optional<Crossover> measured_crossover(const std::vector<double>& n,
                                            const std::vector<TimeRange>& primal,
                                            const std::vector<TimeRange>& dual,
                                            const char* axis = "n");

/// A cell's TimeRange from its values (kTimeSeconds and its minimum, maximum and floor).
TimeRange time_range(const CellSummary& c);

/// A crossover as text: "2400 (2100 … 2700)", "not resolved: …", with the range when it
/// lies in the swept n.
std::string crossover_text(const Crossover& c);

/// The cells of the table, in first-appearance order.
std::vector<CellSummary> summarize_cells(const CsvTable& table);

/// Fills each cell's `shown`: a `dataset.`, `kernel.` or `solver.` column is shown for a
/// cell when it varies over the cells of the same dataset, kernel or solver plugin, and
/// applies to the cell: it is a choice (`kernel.map=rff`), or a number in which some other
/// cell differs from it alone (so `kernel.features` is not shown for a Gaussian without a
/// map when only its random feature variants vary it). Where that leaves two different cells of the
/// same plugins named alike (zipped parameters vary together), their names keep every column that
/// varies over their plugins.
void mark_shown_parameters(std::vector<CellSummary>& cells);

/// Parameter columns that take more than one value over the cells.
std::vector<std::string> swept_columns(const CsvTable& table,
                                       const std::vector<CellSummary>& cells);

/// A cell's solver as pairing sees it (sweep/pairing.hpp): its form and its solver.*
/// parameters, written.
SolverSide solver_side(const CellSummary& cell);

struct FormPair {
  const CellSummary* primal = nullptr;
  const CellSummary* dual = nullptr;
  double prediction_max_diff = -1;  ///< −1 when not known
};

/// Every primal-dual pair (sweep/pairing.hpp), in the order of the primal cells and then of
/// the dual ones. Pairs are found by key, not by trying every two cells: the dual cells of
/// each dataset and kernel variant are indexed by their solver and the values of the
/// parameters a primal solver shares with it, so the work grows with the cells, not with
/// their square; `compared`, when given, counts the dual cells looked at. The largest
/// prediction difference comes from the rows (the runner computes it while both
/// predictions are in memory) or else from the folder's predictions/ files.
std::vector<FormPair> find_pairs(const std::vector<CellSummary>& cells,
                                 const std::filesystem::path& folder,
                                 std::size_t* compared = nullptr);

/// The error used to rank cells: test_rmse, or test_accuracy for classification. The
/// name of the column used, and whether lower is better; `selection` is the column the
/// best cell is chosen on: the same error on the validation splits (validation_rmse,
/// validation_accuracy) when the run has them, else the test column itself.
struct ErrorMeasure {
  std::string column = column_name(Column::test_rmse);
  bool lower_is_better = true;
  std::string selection = column_name(Column::test_rmse);
  [[nodiscard]] bool validated() const { return selection != column; }
};
ErrorMeasure error_measure(const std::vector<CellSummary>& cells);

/// Every error measure a run may have: test_rmse or test_accuracy, each chosen on itself
/// or on its validation error.
std::vector<ErrorMeasure> error_measures();

/// Which cells may be chosen as best: those with a finite error to choose on (the
/// summary's best cell per solver), or those with a finite test error too (a point of an
/// error plot, which draws the test error).
enum class BestAmong { finite_selection, finite_selection_and_test };

/// Whether `cell` may be chosen as best.
bool may_be_best(const CellSummary& cell, const ErrorMeasure& measure, BestAmong among);

/// Whether `a` is better than `b` on the error the best cell is chosen on: lower, or
/// higher for an accuracy.
bool better_cell(const CellSummary& a, const CellSummary& b, const ErrorMeasure& measure);

/// The best cell among `cells` at each key, where the key is what `key_of` returns
/// (nothing: the cell is left out), in the order the keys first appear: chosen by the
/// validation error when the run has one, else by the test error; on a tie the first.
/// The one rule of the summary's best cells and of each point of the error plots.
template <typename Key, typename KeyOf>
std::vector<std::pair<Key, const CellSummary*>> best_cells(
    const std::vector<const CellSummary*>& cells, const ErrorMeasure& measure, BestAmong among,
    KeyOf key_of) {
  std::vector<std::pair<Key, const CellSummary*>> best;
  std::map<Key, std::size_t> index;
  for (const CellSummary* c : cells) {
    const std::optional<Key> key = key_of(*c);
    if (!key || !may_be_best(*c, measure, among)) continue;
    const auto [it, fresh] = index.try_emplace(*key, best.size());
    if (fresh) {
      best.emplace_back(*key, c);
    } else if (better_cell(*c, *best[it->second].second, measure)) {
      best[it->second].second = c;
    }
  }
  return best;
}

/// The best cell of each solver, in first-appearance order of the solvers: by the
/// validation error when the run has one, else by the test error (best_cells): the
/// summary's best cells, and the heat maps the default report draws.
std::vector<const CellSummary*> best_per_solver(const std::vector<CellSummary>& cells,
                                                const ErrorMeasure& measure);

}  // namespace kexp::core
