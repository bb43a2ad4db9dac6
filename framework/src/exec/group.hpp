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
// factorization handed on along a λ sweep).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/cell_result.hpp"
#include "exec/data.hpp"
#include "exec/timing.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// A cell of the group as the executor receives it.
struct GroupCell {
  const Cell* cell = nullptr;
  const Variant* solver = nullptr;
  /// Set when the cell must not start (it would not fit the memory budget): it is then
  /// reported as refused with this message.
  std::optional<std::string> refusal;
  /// For the group's last cell to read K, which may factor K in place: whether a second
  /// K, computed again to measure its fit again, fits the memory budget. When it does
  /// not, the fit is measured once (its count says so).
  bool room_for_second_gram = true;
};

/// Whether the cell's solver is given the kernel and the points instead of K: a dual cell
/// whose solver reaches the kernel (flags::kernel_inputs), or learns the kernel's
/// hyperparameters (learns_hyperparameters), which makes K at the values it learns and
/// has no use for K at the written ones.
[[nodiscard]] bool reaches_kernel(const Cell& cell, const Variant& solver);

/// Whether the cell reads the group's K: a dual cell that does not reach the kernel
/// (reaches_kernel). The last of a group's cells to read K may factor it in place.
[[nodiscard]] bool reads_gram(const Cell& cell, const Variant& solver);

/// The place in `cells` (a group, in the order it runs) of the last cell that reads K, or
/// cells.size() when none does.
[[nodiscard]] std::size_t last_gram_reader(const std::vector<GroupCell>& cells);

/// Where a cell of a group stands towards the group's K.
struct GramPlace {
  /// The last cell to read K (last_gram_reader): it may factor K in place.
  bool last_reader = false;
  /// A cell that reads no K but runs after a cell that has built K and K(X, X*) and
  /// before the last one to read K: both are kept in memory beside it.
  bool beside_gram = false;
  /// A cell that runs after the last cell to read K, or in a group where none does: K
  /// and K(X, X*) are released before it starts.
  bool after_gram = false;
};

/// The place of each of `cells` (a group, in the order it runs): the one rule by which
/// the executor runs a group (what factors K in place, when K is released) and the runner
/// budgets it.
[[nodiscard]] std::vector<GramPlace> gram_places(const std::vector<GroupCell>& cells);

/// What the executor tells as it goes.
struct GroupCallbacks {
  /// A cell starts (not called for a refused cell). May be empty.
  std::function<void(const Cell&)> started;
  /// A cell ended, in order; returns false to stop the group there.
  std::function<bool(const Cell&, CellResult&&)> done;
};

/// Memory for K handed on from one group to the next. On a virtual machine the first
/// write to memory fresh from the operating system can cost more than computing K (the
/// host must back the pages), so a group whose K has the size of the last group's
/// computes it into the same memory. Once a group's last dual cell releases K, its
/// memory goes here, and the group's K(X, X*), when built after that, is computed into it
/// rather than into new memory: the buffer never holds memory beside a K or a K(X, X*)
/// that would otherwise be allocated. A group with no dual cell or another n frees it
/// before it allocates anything.
struct GramBuffer {
  arma::mat memory;
};

/// The kernel of a group.
struct GroupKernel {
  std::string_view name;  ///< in messages: "gaussian", "sum(gaussian,linear)"
  /// A kernel that learns nothing (no flags::fitted in its plugins), used as it is.
  const Kernel* kernel = nullptr;
  /// Set instead for a kernel that learns: returns a new, unfitted kernel. The group fits
  /// one on its training part before the first cell that runs (timed as its own phase,
  /// CellResult::kernel_fit, and shared by the group's cells like K), and one on the fit
  /// part of each validation split, from which that split's K or Φ is computed: a fitted
  /// kernel never sees the points it is judged on.
  std::function<std::shared_ptr<Kernel>()> make;
  /// The seed of the group's fit; a validation split's is derived from it.
  std::uint64_t fit_seed = 0;
  /// The folder relative paths in the kernel's parameters are resolved against.
  std::filesystem::path base_dir;
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
