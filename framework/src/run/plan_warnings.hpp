// What the user is told about a plan that runs but may mislead: a kernel that is not
// positive semidefinite given to a solver that needs one, and metrics a solver reports
// without declaring them.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "exec/cell_result.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// One warning for each pair of a kernel variant that is not PSD with its parameters
/// (`kernels`, one per variant of the plan) and a solver entry that needs PSD, among the
/// `selected` cells.
std::vector<std::string> psd_warnings(const Plan& plan, const std::vector<bool>& selected,
                                      const std::vector<std::shared_ptr<Kernel>>& kernels);

/// A warning for each metric of `result` that its solver does not declare, unless
/// `said` (solver/metric) holds it already; adds what it returns to `said`.
std::vector<std::string> undeclared_metric_warnings(const Plan& plan, const Cell& cell,
                                                    const CellResult& result,
                                                    std::set<std::string>& said);

}  // namespace kexp::core
