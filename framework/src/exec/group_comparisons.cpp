// The cells of a group in their order, and a finished cell against the earlier ones
// (exec/group_comparisons.hpp): its counterpart in the other form, and the same solver in
// float64.
#include "exec/group_comparisons.hpp"

#include <algorithm>

#include "exec/exact_map_check.hpp"
#include "kexp/execution_target.hpp"
#include "sweep/pairing.hpp"

namespace kexp::core {

/// Whether a solver runs in float64: its target's precision is double.
bool in_double(const Variant& solver) { return solver.target.precision == Precision::Double; }

namespace {

SolverSide side_of(const Variant& solver, Form form) {
  SolverSide s;
  s.form = to_string(form);
  for (const auto& [name, value] : solver.params.values()) s.params[name] = format_value(value);
  return s;
}

}  // namespace

/// The largest difference between this cell's predictions and those of its earlier
/// counterpart in the other form (the first one, in run order), while both are in
/// memory; a kernel with an exact map fails the pair when it is beyond rounding.
void pair_with_earlier(const GroupCell& g, const FinishedPredictions& earlier, const Kernel& kernel,
                       const std::string& kernel_name, CellResult& result) {
  const arma::vec& prediction = result.prediction.mean;
  const SolverSide mine = side_of(*g.solver, g.cell->form);
  for (const auto& [other, p] : earlier) {
    if (!counterparts(mine, side_of(*other->solver, other->cell->form))) continue;
    if (p.n_elem != prediction.n_elem) continue;
    result.paired_with = other->cell->id;
    result.prediction_max_diff = prediction.n_elem > 0 ? arma::abs(prediction - p).max() : 0.0;
    const bool iterative = g.solver->plugin->has_flag(flags::iterative) ||
                           other->solver->plugin->has_flag(flags::iterative);
    // A pair in float32 differs by float32's rounding amplified by the system's
    // condition number, which no fixed bound holds: its difference is recorded, not
    // checked. Mixed precision is refined to float64's accuracy and is checked.
    if (runs_in_single(*g.solver) || runs_in_single(*other->solver)) return;
    if (auto wrong = exact_map_disagreement(kernel, kernel_name, iterative, prediction, p,
                                            other->cell->id)) {
      result.status = CellResult::Status::Failed;
      result.error = std::move(*wrong);
    }
    return;
  }
}

/// For a cell whose solver ran in precision single or mixed: the largest difference
/// between its predictions and those of the cell of the same solver entry with the same
/// parameters in precision double (which group_cells runs first), while both are in
/// memory.
void compare_with_double(const GroupCell& g, const FinishedPredictions& earlier,
                         CellResult& result) {
  if (in_double(*g.solver)) return;
  const auto& mine = g.solver->params.values();
  const arma::vec& prediction = result.prediction.mean;
  for (const auto& [other, p] : earlier) {
    if (other->solver->component != g.solver->component || p.n_elem != prediction.n_elem ||
        !in_double(*other->solver)) {
      continue;
    }
    // the same parameters but the precision, which the target has compared
    const auto& theirs = other->solver->params.values();
    const bool same = theirs.size() == mine.size() &&
                      std::all_of(mine.begin(), mine.end(), [&](const auto& entry) {
                        const auto it = theirs.find(entry.first);
                        if (it == theirs.end()) return false;
                        return entry.first == kPrecisionParam ||
                               format_value(it->second) == format_value(entry.second);
                      });
    if (!same) continue;
    result.precision_max_diff = prediction.n_elem > 0 ? arma::abs(prediction - p).max() : 0.0;
    return;
  }
}

std::vector<GroupCell> group_cells(const Plan& plan, std::size_t dataset, std::size_t kernel,
                                   const std::function<bool(const Cell&)>& runs) {
  std::vector<GroupCell> group;
  for (const Cell& c : plan.cells) {
    if (c.dataset == dataset && c.kernel == kernel && runs(c)) {
      GroupCell g;
      g.cell = &c;
      g.solver = &plan.solvers[c.solver];
      group.push_back(std::move(g));
    }
  }
  // A solver's float64 cells run before its cells in another precision, so that each of
  // those finds the float64 cell to compare its predictions with (compare_with_double).
  std::stable_partition(group.begin(), group.end(),
                        [](const GroupCell& g) { return in_double(*g.solver); });
  return group;
}

}  // namespace kexp::core
