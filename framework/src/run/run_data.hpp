// The data of a run: the memory of every dataset variant the selected cells use, stated
// before any is loaded and checked against the budget, then every repeat loaded and
// prepared before anything is written (a dry run loads none that states its shape), and
// the sizes the memory and time estimates read.
#pragma once

#include <memory>
#include <vector>

#include "config/experiment.hpp"
#include "exec/data.hpp"
#include "kexp/dataset.hpp"
#include "run/data_budget.hpp"
#include "sweep/plan.hpp"
#include "util/limits.hpp"

namespace kexp::core {

/// By dataset variant of the plan; empty for a variant no selected cell uses.
struct RunData {
  std::vector<std::vector<PreparedData>>
      data;                     ///< every repeat; none in a dry run of a stated shape
  std::vector<DataSize> sizes;  ///< one repeat's memory
  std::vector<DataDims> dims;   ///< the sizes the estimates read
  double held = 0;  ///< every repeat of every dataset the run loads, held through the run
};

/// Sizes the datasets the `selected` cells use and refuses (DataError at the experiment's
/// dataset block, exit 2) a run whose data alone passes `budget`; then loads and prepares
/// every repeat of each, unless `dry_run` and the dataset states its shape.
RunData load_run_data(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                      const std::vector<std::shared_ptr<Dataset>>& datasets, const Limit& budget,
                      bool dry_run);

}  // namespace kexp::core
