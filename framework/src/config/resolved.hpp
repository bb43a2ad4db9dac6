// The resolved config: the experiment with every default filled in, written to a result
// folder as config.yaml. `kexp run` on it runs the same cells (same ids) again; resume
// and merge compare it to tell whether two folders hold the same experiment.
#pragma once

#include <filesystem>
#include <string>

#include "config/experiment.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

std::string resolved_config(const Experiment& experiment, const Plan& plan,
                            const std::filesystem::path& out_dir);

}  // namespace kexp::core
