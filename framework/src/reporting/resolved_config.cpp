// config.yaml of a result folder: the experiment written back with every default filled in
// and the plugin folders used, so that `kexp run` on it runs the same cells; read back,
// compared key by key to tell whether two folders hold the same experiment, and rewritten
// for a merged folder.
#include "reporting/resolved_config.hpp"

#include <fmt/format.h>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "kexp/error.hpp"
#include "sweep/kernel_resolution.hpp"

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

/// `dir` as a path from `base` (both made absolute), or absolute where there is none.
std::string relative_to_base(const fs::path& dir, const fs::path& base) {
  const fs::path to = fs::absolute(dir).lexically_normal();
  const fs::path from = fs::absolute(base).lexically_normal();
  const fs::path relative = to.lexically_relative(from);
  return relative.empty() ? to.string() : relative.string();
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
  if (e.threads > 0) out << YAML::Key << "threads" << YAML::Value << e.threads;
  out << YAML::Key << "timing" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "min_seconds" << YAML::Value << fmt::format("{}", e.timing.min_seconds);
  out << YAML::Key << "max_measurements" << YAML::Value << e.timing.max_measurements;
  out << YAML::EndMap;
  if (e.validation.folds > 0) out << YAML::Key << "folds" << YAML::Value << e.validation.folds;
  if (e.validation.fraction > 0) {
    out << YAML::Key << "validation_fraction" << YAML::Value
        << fmt::format("{}", e.validation.fraction);
  }
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
  // The folder this config is written into, relative to base_dir as every path in it.
  out << YAML::Key << "dir" << YAML::Value << relative_to_base(out_dir, e.base_dir);
  out << YAML::Key << "predictions" << YAML::Value << e.output.predictions;
  out << YAML::Key << "html" << YAML::Value << e.output.html;
  out << YAML::Key << "plots" << YAML::Value << (e.output.all_plots ? "all" : "findings");
  out << YAML::Key << "kernel_matrix" << YAML::Value
      << (e.output.kernel_matrix == KernelMatrixOutput::TrainAndTest ? "with_test"
          : e.output.kernel_matrix == KernelMatrixOutput::Train      ? "true"
                                                                     : "false");
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(
             "# Resolved by kexp: every default filled in. `kexp run` this file to run the same "
             "cells again.\n") +
         out.c_str() + "\n";
}

namespace {

std::string flow(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "(absent)";
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

/// Appends where `a` and `b` differ under `path` to `out`; stops at the first when `first`.
void differences(const YAML::Node& a, const YAML::Node& b, const std::string& path,
                 std::vector<ConfigChange>& out, bool first) {
  const auto differs = [&] {
    out.push_back({path.empty() ? "the config" : path, flow(a), flow(b)});
  };
  const auto done = [&] { return first && !out.empty(); };
  if (a.Type() != b.Type()) return differs();
  if (a.IsScalar()) {
    if (a.Scalar() != b.Scalar()) differs();
    return;
  }
  if (a.IsSequence()) {
    bool scalars = true;
    for (const auto& x : a) scalars = scalars && x.IsScalar();
    for (const auto& x : b) scalars = scalars && x.IsScalar();
    if (a.size() != b.size()) return differs();
    if (scalars) {
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].Scalar() != b[i].Scalar()) return differs();
      }
      return;
    }
    for (std::size_t i = 0; i < a.size() && !done(); ++i) {
      differences(a[i], b[i], fmt::format("{}[{}]", path, i), out, first);
    }
    return;
  }
  if (a.IsMap()) {
    std::vector<std::string> keys;
    for (const auto& kv : a) keys.push_back(kv.first.as<std::string>());
    for (const auto& kv : b) {
      const auto k = kv.first.as<std::string>();
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    for (const auto& k : keys) {
      if (done()) return;
      if (path.empty() && (k == "output" || k == "plugin_path")) continue;
      const std::string sub = path.empty() ? k : path + "." + k;
      if (!a[k] || !b[k]) {
        out.push_back({sub, a[k] ? flow(a[k]) : "(absent)", b[k] ? flow(b[k]) : "(absent)"});
        continue;
      }
      differences(a[k], b[k], sub, out, first);
    }
  }
}

}  // namespace

std::optional<std::string> config_difference(const YAML::Node& there, const YAML::Node& here) {
  std::vector<ConfigChange> found;
  differences(there, here, "", found, true);
  if (found.empty()) return std::nullopt;
  const ConfigChange& c = found.front();
  return fmt::format("{} is {} there and {} here", c.path, c.there, c.here);
}

std::vector<ConfigChange> config_changes(const YAML::Node& a, const YAML::Node& b) {
  std::vector<ConfigChange> found;
  differences(a, b, "", found, false);
  return found;
}

YAML::Node read_resolved_config(const fs::path& file, const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw ConfigError(
        fmt::format("{} is not a kexp result folder: it has no config.yaml", folder.string()));
  }
  try {
    return YAML::LoadFile(file.string());
  } catch (const YAML::Exception& e) {
    throw ConfigError(SourceLocation{file.string(), e.mark.line + 1, e.mark.column + 1}, "",
                      fmt::format("cannot read the resolved config: {}", e.msg));
  }
}

std::string merged_config(const YAML::Node& config, const fs::path& out_dir) {
  YAML::Node copy = YAML::Clone(config);
  copy["output"]["dir"] =
      relative_to_base(out_dir, config["base_dir"] ? config["base_dir"].as<std::string>() : ".");
  YAML::Emitter emitter;
  emitter << copy;
  return std::string("# Resolved by kexp (merged): every default filled in.\n") + emitter.c_str() +
         "\n";
}

}  // namespace kexp::core
