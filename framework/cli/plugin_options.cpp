#include "cli/commands.hpp"
#include "config/error_list.hpp"
#include "config/schema.hpp"
#include "kexp/config_folder.hpp"
#include "run/rehearsal.hpp"
#include "sweep/plan.hpp"
#include "util/child_process.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

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
    // The plan creates the solvers' objects: a plugin not kexp's own is tried apart first.
    if (core::kForkWithThreadsIsSafe && !core::uses_only_own_plugins(experiment, registry)) {
      core::rehearse_plan(
          [&] {
            core::ErrorList ignored;
            (void)core::make_plan(experiment, registry, {}, &ignored);
          },
          core::plan_call_timeout_seconds());
    }
    try {
      (void)core::make_plan(experiment, registry, {}, &errors);
    } catch (const PluginError&) {  // reported when the file's errors are fixed
    }
  }
  errors.throw_if_any();
  return {std::move(experiment), std::move(registry)};
}

Params parameters(const core::PluginRecord& plugin, const std::vector<std::string>& settings) {
  core::ComponentSpec spec;
  spec.plugin = std::string(plugin.name());
  spec.key = "--set";
  const SourceLocation command_line{"command line", 0, 0};
  spec.where = command_line;
  for (const std::string& s : settings) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError(fmt::format("--set '{}' must be KEY=VALUE, e.g. --set sigma=0.5", s));
    }
    core::ParamSetting p;
    p.name = s.substr(0, eq);
    p.key = p.name;
    p.where = command_line;
    p.values.push_back({s.substr(eq + 1), command_line, false});
    spec.params.push_back(p);
  }
  const auto resolved = core::resolve_params(core::schema_of(*plugin.descriptor), spec,
                                             fmt::format("kernel plugin '{}'", plugin.name()));
  Params out;
  for (const auto& r : resolved) out.set(r.name, r.values.front());
  return out;
}

std::shared_ptr<FormulaKernel> formula_kernel_from(const std::string& formula,
                                                   const std::vector<std::string>& settings,
                                                   bool psd, std::vector<std::string>* shown) {
  std::vector<std::string> names;
  std::vector<double> values;
  std::vector<std::string> texts;
  for (const std::string& s : settings) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError(fmt::format("--set '{}' must be KEY=VALUE, e.g. --set alpha=0.5", s));
    }
    const std::string text = s.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
      throw ConfigError(fmt::format("--set {}: a formula's parameter is a finite number, got '{}'",
                                    s.substr(0, eq), text));
    }
    names.push_back(s.substr(0, eq));
    values.push_back(v);
    texts.push_back(text);
  }
  std::shared_ptr<const Formula> parsed;
  try {
    parsed = std::make_shared<const Formula>(formula, names);
  } catch (const FormulaError& e) {
    throw ConfigError(
        fmt::format("--formula: {}{}", e.what(),
                    e.column() > 0 ? " (set a parameter with --set NAME=VALUE)" : ""));
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!parsed->uses_parameter(i)) {
      throw ConfigError(fmt::format("--set {}: the formula \"{}\" does not use '{}'", names[i],
                                    formula, names[i]));
    }
  }
  if (shown != nullptr) *shown = texts;
  try {
    return std::make_shared<FormulaKernel>(parsed, values, psd);
  } catch (const FormulaError& e) {
    throw ConfigError(fmt::format("--formula: {}", e.what()));
  }
}

}  // namespace kexp::cli
