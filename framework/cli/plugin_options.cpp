#include "cli/commands.hpp"
#include "config/schema.hpp"

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

}  // namespace kexp::cli
