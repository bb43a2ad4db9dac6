#include "cli/commands.hpp"
#include "config/error_list.hpp"
#include "config/schema.hpp"
#include "kexp/config_folder.hpp"
#include "sweep/plan.hpp"

#include <iostream>

namespace kexp::cli {

void PluginOptions::add_to(CLI::App& command) {
  command.add_option("--plugin-path", plugin_path,
                     "Folder to load plugins from, searched first (repeatable); then "
                     "KEXP_PLUGIN_PATH, the experiment's plugin_path and the default folder");
}

core::PluginRegistry PluginOptions::discover(
    const std::vector<std::filesystem::path>& config_folders) const {
  core::PluginSearchPath search;
  for (const auto& p : plugin_path) search.command_line.emplace_back(p);
  search.config = config_folders;
  core::PluginRegistry registry = core::PluginRegistry::discover(
      search.folders(),
      [](const std::string& message) { std::cerr << "kexp: warning: " << message << '\n'; });
  registry.set_validator(core::descriptor_problems);
  return registry;
}

std::pair<core::Experiment, core::PluginRegistry> PluginOptions::read_experiment(
    const std::string& file, const std::vector<std::string>& set, std::size_t max_cells) const {
  std::vector<core::Override> overrides;
  for (const auto& s : set) overrides.push_back({s});
  core::ErrorList errors;
  core::Experiment experiment = core::load_experiment(file, overrides, &errors);
  // Before any plugin object is made: one that checks the files it names finds them.
  kexp::detail::set_config_folder(experiment.base_dir);
  experiment.max_cells = max_cells;
  core::PluginRegistry registry = discover(experiment.plugin_path);
  // With errors in the file, its entries are checked against their plugins too, so that
  // one run lists every mistake; without, the plan checks them where it is made. Not
  // when the plugins' folder is itself in error: every plugin would seem missing. A
  // plugin that is itself broken is reported once the file's errors are fixed.
  if (!errors.empty() && !errors.has_key("plugin_path") && !errors.has_key("base_dir")) {
    try {
      (void)core::make_plan(experiment, registry, {}, &errors);
    } catch (const PluginError&) {  // reported when the file's errors are fixed
    }
  }
  errors.throw_if_any();
  return {std::move(experiment), std::move(registry)};
}

}  // namespace kexp::cli
