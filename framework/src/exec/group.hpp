// Executing a group of cells: the cells of one dataset variant, repeat and kernel, which
// share the kernel's Gram matrix K (dual cells) or feature matrix Φ (primal cells).
//
// K or Φ is built once for the group, by the first cell that needs it, and handed to
// every cell after it: the dual cells except the last must hand K back intact, the last
// may factor it in place (TrainingData::gram_writable), and K is released when the last
// dual cell no longer needs it. The cross block K(X, X*) is built once, after the fit of
// the first dual cell that predicts: in a group of one dual cell K is released first, so
// that the two are never in memory together; in a larger group they are, while the later
// cells still need K. The cells of one solver entry share a SharedState (a
// factorization handed on along a λ sweep). What the cells share and where each stands
// towards K is exec/gram_store.hpp's; model selection on the validation splits,
// exec/validation.hpp's.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/cell_result.hpp"
#include "exec/data.hpp"
#include "exec/gram_store.hpp"
#include "exec/group_kernel.hpp"
#include "exec/timing.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// The cells of `plan` on dataset variant `dataset` and kernel variant `kernel` for which
/// `runs` is true, in plan order, none refused yet: a group as the runner hands it to the
/// executor (one repeat's runs still to do), or as it budgets it (the selected cells).
[[nodiscard]] std::vector<GroupCell> group_cells(const Plan& plan, std::size_t dataset,
                                                 std::size_t kernel,
                                                 const std::function<bool(const Cell&)>& runs);

/// What the executor tells as it goes.
struct GroupCallbacks {
  /// A cell starts (not called for a refused cell). May be empty.
  std::function<void(const Cell&)> started;
  /// A cell ended, in order; returns false to stop the group there.
  std::function<bool(const Cell&, CellResult&&)> done;
  /// The group's K(X, X) was built, by `cell`, before any solver read it: whole, or only
  /// its lower triangle when `lower_only`. What it throws is passed to `warning`, and the
  /// cell goes on. May be empty.
  std::function<void(const Cell& cell, const arma::mat& K, bool lower_only)> gram_built;
  /// The group's K(X, X*) was built, by `cell`. What it throws is passed to `warning`.
  /// May be empty.
  std::function<void(const Cell& cell, const arma::mat& K_cross)> cross_built;
  /// Something the runner should tell the user about the group (on stderr and in
  /// summary.md). May be empty.
  std::function<void(const std::string& warning)> warning;
};

/// Runs the cells in order with `kernel` (named `kernel_name` in messages) on `data`. A
/// cell that throws, in the kernel, the solver or the runner, and whatever it throws, is
/// reported as failed with a message that names the plugin and what it was doing
/// ("kernel 'gaussian' failed while computing the Gram matrix: …"), and the group goes
/// on. Never throws for a cell's sake.
///
/// Each phase is timed as `timing` says (exec/timing.hpp). Fit is measured first on the
/// cell's own solver; when it is measured again, each further measurement fits a new
/// solver object on the same inputs, with the shared state as the first fit found it
/// (so a λ sweep's first cell is timed with its decomposition every time), and with K
/// computed again, untimed, when the first fit was allowed to overwrite it (and
/// GroupCell::room_for_second_gram). Predictions
/// and every other figure come from the cell's own solver.
void execute_group(const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                   const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks, GramBuffer& buffer);

/// The same with a kernel that learns nothing.
void execute_group(const std::vector<GroupCell>& cells, const Kernel& kernel,
                   std::string_view kernel_name, const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks, GramBuffer& buffer);

/// The same with a buffer of its own.
void execute_group(const std::vector<GroupCell>& cells, const Kernel& kernel,
                   std::string_view kernel_name, const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks);

}  // namespace kexp::core
