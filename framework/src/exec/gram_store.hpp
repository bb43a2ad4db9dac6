// What the cells of a group share and where each stands towards it: K, K(X, X*) and Φ,
// built once for the group and released when no cell is left to read them, and the
// memory of K handed on from one group to the next.
//
// One rule places every cell of a group towards the group's K (gram_places): the
// executor runs the group by it (what factors K in place, when K is released) and the
// runner budgets the cells by it.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/timing.hpp"
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
  /// The bytes the memory budget counted for the cell (run/budget's estimate, which takes
  /// Solver::memory_bytes for a solver that reaches the kernel); negative: not known. Its
  /// measured growth is held against it (memory_note, exec/metrics.hpp).
  double estimated_bytes = -1;
  /// The time the cell may take once it has started (run/time_budget.hpp), in seconds, and
  /// how it was set; 0: none. Kept where the group runs in a process of its own: the cell
  /// that passes it is killed with its process and written with status `timeout`.
  double time_limit_seconds = 0;
  std::string time_limit_basis;
};

/// Whether the cell's solver is given the kernel and the points instead of K: a dual cell
/// whose solver reaches the kernel (flags::kernel_inputs), or learns the kernel's
/// hyperparameters (learns_hyperparameters), which makes K at the values it learns and
/// has no use for K at the written ones, or runs on the GPU (runs_on_device), which builds
/// K there, or in float32 (runs_in_single), which builds a float32 K itself.
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

/// What the cells of a group share: K, K(X, X*) and k(x*, x*) for the dual cells, Φ and
/// Φ(X*) for the primal ones, each with its timing, built by the first cell that needs
/// it.
struct GroupInputs {
  bool have_gram = false, have_cross = false, have_features = false, have_test_features = false;
  arma::mat K;        ///< K(X, X)
  arma::mat K_cross;  ///< K(X, X*), unless it lives in the buffer (cross_in_buffer)
  /// K(X, X*) built in the memory K gave back to the buffer.
  std::unique_ptr<arma::mat> cross_in_buffer;

  /// Where K(X, X*) is.
  arma::mat& cross() { return cross_in_buffer ? *cross_in_buffer : K_cross; }
  arma::vec k_diag;  ///< k(x*, x*)
  PhaseTiming gram_timing, cross_timing;
  arma::mat Phi, Phi_test;
  PhaseTiming feature_timing, feature_test_timing;
  std::size_t feature_dim = 0;
  /// What computing K, the cross block, Φ or Φ* threw: the group's later cells fail with
  /// the same message instead of computing it again.
  std::exception_ptr gram_failure, cross_failure, features_failure, test_features_failure;

  /// Before the group's first cell: the last group's K memory becomes K when it is n × n
  /// and `gram_first` (the group's first cell to run computes K); the buffer is freed
  /// either way, before anything else is allocated.
  void take_buffer(GramBuffer& buffer, arma::uword n, bool gram_first);

  /// Before K(X, X*) (n × m) is computed: once K is gone, it takes the memory K left in
  /// the buffer instead of new memory, or, where that is too small (more test points than
  /// training points), the buffer is freed, so that K's memory and K(X, X*) are never
  /// held together.
  void place_cross(GramBuffer& buffer, arma::uword n, arma::uword m);

  /// K is no longer needed: its memory goes back to the buffer, for K(X, X*) and for the
  /// next group's K.
  void release_gram(GramBuffer& buffer);

  /// No dual cell is left in the group: K, K(X, X*) and the buffer are freed, so that the
  /// primal cells after them run in the memory they are budgeted for.
  void release_duals(GramBuffer& buffer);
};

}  // namespace kexp::core
