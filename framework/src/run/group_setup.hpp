// The groups of a run, formed once (run/runner.cpp budgets and executes them), and what a
// group needs besides its cells: each cell admitted or refused at its place in the group,
// with its time limit; the group's kernel, the run's own or one fitted per group; and
// whether the group may run in a process of its own.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "exec/gram_store.hpp"
#include "exec/group.hpp"
#include "exec/group_kernel.hpp"
#include "run/admission.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// A group of a run: the cells of dataset variant `dataset` and kernel variant `kernel`
/// that run for repeat `repeat`, which share K or Φ, in the order group_cells gives them.
struct RunGroup {
  std::size_t dataset = 0;
  int repeat = 0;
  std::size_t kernel = 0;
  std::vector<GroupCell> cells;
  std::vector<GramPlace> places;  ///< gram_places(cells)
};

/// The groups of a run in the order they run (dataset variant, repeat, kernel variant),
/// each of the cells for which `runs` is true for its repeat (selected by the shard, not
/// done by an earlier run); a group with no such cell is left out.
[[nodiscard]] std::vector<RunGroup> form_run_groups(
    const Plan& plan, int repeats, const std::function<bool(const Cell&, int repeat)>& runs);

/// For each cell of `plan`, the most demanding of its places in the `groups` that run it,
/// for the estimates of the dry run and the progress line: the last to read K only where it
/// is so in every group, beside K where it is so in any (a run stopped part-way leaves a
/// shorter group in the repeat it stopped in). A cell that no group runs (outside the
/// shard, or done) as though it ran alone. Each group's cells are admitted at their own
/// place in it (admit_group).
[[nodiscard]] std::vector<GramPlace> demanding_places(const Plan& plan,
                                                      const std::vector<RunGroup>& groups);

/// Budgets each cell of `group` at its place in it, against the admission's budget and
/// time limit: why it is refused before it starts, or its time limit; the bytes it is held
/// to (none for a GPU cell, whose host memory grows by CUDA's own buffers); and whether the
/// budget has room for a second K to measure its fit again (a cell that factors K in place
/// has none otherwise). `n_train` is the group's training points.
void admit_group(RunGroup& group, const CellAdmission& admission, double n_train);

/// The kernel of the group of dataset variant `d`, repeat `r` and kernel variant `k`: the
/// run's own instance, or, for a kernel that learns, one made for the group and fitted on
/// its training part, with a seed that follows the data, not the kernel's parameters (so
/// that kernels swept side by side start their fits alike). `name` (the variant's name)
/// must outlive it.
[[nodiscard]] GroupKernel group_kernel(const std::string& name, const Experiment& e,
                                       const Plan& plan,
                                       const std::vector<std::shared_ptr<Kernel>>& kernels,
                                       std::size_t d, int r, std::size_t k);

/// Whether the group must run in kexp's own process: a CUDA context does not survive
/// fork(), so a group with a cell on the GPU runs where the device check made the context.
[[nodiscard]] bool needs_own_process(const std::vector<GroupCell>& group);

}  // namespace kexp::core
