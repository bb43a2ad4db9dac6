// A group of cells executed in a child process (util/child_process), so that a plugin that
// crashes, aborts or exits fails its cell instead of the run. The child runs execute_group
// (exec/group) on the group's cells and sends each cell's start and its result as it ends;
// the runner's callbacks see them in order, in this process, as they would in-process.
// When the child ends before every cell has ended, the cell it was running fails with a
// message naming how the process ended and the cell's kernel and solver, and the cells
// after it run in a new child (K or Φ built again for them).
//
// Everything is measured in the child: times, and peak memory, which counts the pages of
// this process the child shares after the fork as the in-process run counts them.
#pragma once

#include <vector>

#include "exec/group.hpp"

namespace kexp::core {

/// As execute_group with a buffer of its own, the group run in a child process. Never
/// throws for a cell's sake; throws kexp::Error when no child process can be started.
void execute_group_isolated(const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                            const PreparedData& data, const TimingSpec& timing,
                            const GroupCallbacks& callbacks);

/// execute_group_isolated when `isolated`, else execute_group in this process with
/// `buffer` (K's memory handed from one group to the next, which a child cannot hand on).
void execute_group(bool isolated, const std::vector<GroupCell>& cells, const GroupKernel& kernel,
                   const PreparedData& data, const TimingSpec& timing,
                   const GroupCallbacks& callbacks, GramBuffer& buffer);

}  // namespace kexp::core
