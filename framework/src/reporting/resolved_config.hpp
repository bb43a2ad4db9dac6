// The resolved config: the experiment with every default filled in, written to a result
// folder as config.yaml. `kexp run` on it runs the same cells (same ids) again; resume
// and merge read it back and compare it to tell whether two folders hold the same
// experiment.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// The text of config.yaml for a run of `experiment` into `out_dir`.
std::string resolved_config(const Experiment& experiment, const Plan& plan,
                            const std::filesystem::path& out_dir);

/// The text of config.yaml for a merge of folders whose resolved config is `config`.
std::string merged_config(const YAML::Node& config, const std::filesystem::path& out_dir);

/// Reads a resolved config file. Throws ConfigError naming `folder` when there is none.
YAML::Node read_resolved_config(const std::filesystem::path& file,
                                const std::filesystem::path& folder);

/// The first difference between two resolved configs, as
/// "kernels[0].sigma is [0.3, 1, 3] there and [0.3, 1] here", or nothing when they
/// describe the same cells. `output` and `plugin_path` are left out: where results go
/// and where plugins were found do not change what the cells are.
std::optional<std::string> config_difference(const YAML::Node& there, const YAML::Node& here);

/// Where two resolved configs differ, every key (output and plugin_path aside): its path
/// and its value in each, in flow style.
struct ConfigChange {
  std::string path, there, here;
};
std::vector<ConfigChange> config_changes(const YAML::Node& a, const YAML::Node& b);

}  // namespace kexp::core
