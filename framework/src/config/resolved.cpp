#include "config/resolved.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernel_algebra/expression.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

/// A component: plugin, every parameter (swept ones as lists), and its zip groups.
void emit_component(YAML::Emitter& out, const PluginRecord& plugin,
                    const std::vector<ResolvedParam>& params, const std::vector<ZipGroup>& zips) {
  out << YAML::BeginMap << YAML::Key << "plugin" << YAML::Value << std::string(plugin.name());
  for (const ResolvedParam& p : params) {
    out << YAML::Key << p.name << YAML::Value;
    if (p.swept) {
      out << YAML::Flow << YAML::BeginSeq;
      for (const ParamValue& v : p.values) out << format_value(v);
      out << YAML::EndSeq;
    } else {
      out << format_value(p.values.front());
    }
  }
  if (!zips.empty()) {
    out << YAML::Key << "zip" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const ZipGroup& g : zips) {
      out << YAML::Flow << YAML::BeginSeq;
      for (const auto& name : g.names) out << name;
      out << YAML::EndSeq;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

const PluginRecord& plugin_of(const std::vector<Variant>& variants, std::size_t component) {
  const auto it = std::find_if(variants.begin(), variants.end(),
                               [&](const Variant& v) { return v.component == component; });
  return *it->plugin;
}

}  // namespace

std::string resolved_config(const Experiment& e, const Plan& plan, const fs::path& out_dir) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "experiment" << YAML::Value << e.name;
  // Files named in the config (a csv dataset's train:) stay as written, so cell ids do
  // not change; base_dir says where they are, wherever this file is run from.
  out << YAML::Key << "base_dir" << YAML::Value
      << fs::absolute(e.base_dir).lexically_normal().string();
  out << YAML::Key << "seed" << YAML::Value << e.seed;
  out << YAML::Key << "repeats" << YAML::Value << e.repeats;
  // The folders the plugins were found in, wherever they were named (command line,
  // environment, config or default), so that this file runs as it is.
  std::vector<std::string> folders;
  const auto add = [&](const std::vector<Variant>& variants) {
    for (const Variant& v : variants) {
      for (const PluginRecord* p : kernel_plugins(v)) {  // a sum or product: its terms'
        const std::string f = fs::absolute(p->path).parent_path().lexically_normal().string();
        if (std::find(folders.begin(), folders.end(), f) == folders.end()) folders.push_back(f);
      }
    }
  };
  add(plan.datasets);
  add(plan.kernels);
  add(plan.solvers);
  out << YAML::Key << "plugin_path" << YAML::Value << YAML::BeginSeq;
  for (const auto& f : folders) out << f;
  out << YAML::EndSeq;
  out << YAML::Key << "dataset" << YAML::Value;
  emit_component(out, *plan.datasets.front().plugin, plan.dataset_params, e.dataset.zips);
  out << YAML::Key << "kernels" << YAML::Value << YAML::BeginSeq;
  for (std::size_t k = 0; k < e.kernels.size(); ++k) {
    const auto it = std::find_if(plan.kernels.begin(), plan.kernels.end(),
                                 [&](const Variant& v) { return v.component == k; });
    if (it->expression) {
      emit_kernel_expression(out, *it->expression, plan.kernel_params[k]);  // a sum or product
    } else {
      emit_component(out, *it->plugin, plan.kernel_params[k], e.kernels[k].zips);
    }
  }
  out << YAML::EndSeq;
  out << YAML::Key << "solvers" << YAML::Value << YAML::BeginSeq;
  for (std::size_t s = 0; s < e.solvers.size(); ++s) {
    emit_component(out, plugin_of(plan.solvers, s), plan.solver_params[s], e.solvers[s].zips);
  }
  out << YAML::EndSeq;
  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "dir" << YAML::Value << out_dir.string();
  out << YAML::Key << "predictions" << YAML::Value << e.output.predictions;
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(
             "# Resolved by kexp: every default filled in. `kexp run` this file to run the same "
             "cells again.\n") +
         out.c_str() + "\n";
}

}  // namespace kexp::core
