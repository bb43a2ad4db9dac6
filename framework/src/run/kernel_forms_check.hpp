// Before any cell runs: every kernel variant the selected cells use that declares a
// formula, a device form or an exact feature map is checked against its own compute()
// (exec/kernel_consistency.hpp), on 16 random points and 32 of the data's training points,
// and refused when they disagree.
#pragma once

#include <memory>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/kernel.hpp"
#include "run/run_data.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// Throws PluginError naming the kernel variant and its largest disagreement. `kernels`
/// are the plan's kernels, one per variant (unfitted); a kernel that learns from data is
/// made again and fitted on the points it is checked on. The data's points are those of
/// the first dataset variant loaded (none in a dry run of a stated shape: random points
/// alone, of the stated dimension).
void check_kernel_forms(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                        const std::vector<std::shared_ptr<Kernel>>& kernels, const RunData& data);

}  // namespace kexp::core
