// Refusing, before anything runs, the cells whose solver cannot take its dataset's targets.
#pragma once

#include <vector>

#include "config/experiment.hpp"
#include "run/run_data.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// Throws ConfigError (exit 2, nothing written) at the solver's entry for a selected cell
/// whose dataset yields multi-class labels (Task::Multiclass) and whose solver does not
/// declare flags::multiclass, or whose solver is a classifier (flags::classifier) and whose
/// dataset yields regression targets; and at the dataset's entry for a classifier's cell
/// whose training part holds one class only. Data a dry run did not load is not checked.
void check_tasks(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                 const RunData& data);

}  // namespace kexp::core
