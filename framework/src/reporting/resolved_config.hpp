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
#include "reporting/symbols.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// The text of config.yaml for a run of `experiment` into `out_dir`.
std::string resolved_config(const Experiment& experiment, const Plan& plan,
                            const std::filesystem::path& out_dir);

/// The text of config.yaml for a merge of folders whose resolved config is `config`, read
/// from the folder `from`, into `out_dir`.
std::string merged_config(const YAML::Node& config, const std::filesystem::path& from,
                          const std::filesystem::path& out_dir);

/// Reads a resolved config file. Throws ConfigError naming `folder` when there is none.
YAML::Node read_resolved_config(const std::filesystem::path& file,
                                const std::filesystem::path& folder);

/// The first difference between two resolved configs, as
/// "kernels[0].sigma is [0.3, 1, 3] there and [0.3, 1] here", or nothing when they
/// describe the same cells. `output`, `plugin_path` and `base_dir` are left out: where
/// results go, where plugins were found and where the experiment file was do not change
/// what the cells are (the data files' contents are checked by their sha256). With
/// `defaults`, a parameter at its default counts as not written, so that a folder written
/// before a plugin gained a parameter whose default keeps what it did holds the same
/// experiment.
std::optional<std::string> config_difference(const YAML::Node& there, const YAML::Node& here,
                                             const ParamDefaults* defaults = nullptr);

/// Where two resolved configs differ, every key (output, plugin_path and base_dir aside):
/// its path and its value in each, in flow style; `defaults` as for config_difference.
struct ConfigChange {
  std::string path, there, here;
};
std::vector<ConfigChange> config_changes(const YAML::Node& a, const YAML::Node& b,
                                         const ParamDefaults* defaults = nullptr);

/// The defaults of the parameters of a plan's plugins, for config_difference.
ParamDefaults plan_defaults(const Plan& plan);

}  // namespace kexp::core
