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

/// `dir` as a path from `base` (both made absolute), "." for `base` itself, or absolute
/// where there is none.
std::string relative_to_base(const fs::path& dir, const fs::path& base) {
  // "a/b/.." normalizes to "a/", whose empty last part would count as a folder of its own.
  const auto normal = [](const fs::path& p) {
    fs::path n = fs::absolute(p).lexically_normal();
    return n.has_filename() || n == n.root_path() ? n : n.parent_path();
  };
  const fs::path to = normal(dir);
  const fs::path from = normal(base);
  if (to == from) return ".";
  const fs::path relative = to.lexically_relative(from);
  return relative.empty() ? to.string() : relative.string();
}

}  // namespace

std::string resolved_config(const Experiment& e, const Plan& plan, const fs::path& out_dir) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "experiment" << YAML::Value << e.name;
  // Files named in the config (a csv dataset's train:) stay as written, so cell ids do
  // not change; base_dir says where they are, relative to this file's folder (the result
  // folder), wherever it is run from and on whichever machine the two folders are.
  out << YAML::Key << "base_dir" << YAML::Value << relative_to_base(e.base_dir, out_dir);
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
  // environment, config or default), so that this file runs as it is; relative to base_dir,
  // as every path in it.
  std::vector<std::string> folders;
  const auto add = [&](const std::vector<Variant>& variants) {
    for (const Variant& v : variants) {
      for (const PluginRecord* p : kernel_plugins(v)) {  // a sum or product: its terms'
        const std::string f = relative_to_base(fs::absolute(p->path).parent_path(), e.base_dir);
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
      if (path.empty() && (k == "output" || k == "plugin_path" || k == "base_dir")) continue;
      const std::string sub = path.empty() ? k : path + "." + k;
      if (!a[k] || !b[k]) {
        out.push_back({sub, a[k] ? flow(a[k]) : "(absent)", b[k] ? flow(b[k]) : "(absent)"});
        continue;
      }
      differences(a[k], b[k], sub, out, first);
    }
  }
}

/// A copy of a resolved config without the parameters of its components (dataset, each
/// kernel that is one plugin, each solver) that are at their default.
YAML::Node without_defaults(const YAML::Node& config, const ParamDefaults& defaults) {
  YAML::Node copy = YAML::Clone(config);
  if (!copy.IsMap()) return copy;
  const auto strip = [&](YAML::Node component, const std::string& kind) {
    if (!component.IsMap() || !component["plugin"] || !component["plugin"].IsScalar()) return;
    const std::string plugin = component["plugin"].Scalar();
    std::vector<std::string> at_default;
    for (const auto& kv : component) {
      const std::string key = kv.first.as<std::string>();
      if (key != "plugin" && key != "zip" && kv.second.IsScalar() &&
          defaults.is_default(plugin, kind + "." + key, kv.second.Scalar())) {
        at_default.push_back(key);
      }
    }
    for (const std::string& key : at_default) component.remove(key);
  };
  strip(copy["dataset"], "dataset");
  for (const auto& [list, kind] :
       {std::pair{"kernels", "kernel"}, std::pair{"solvers", "solver"}}) {
    if (YAML::Node entries = copy[list]; entries && entries.IsSequence()) {
      for (std::size_t i = 0; i < entries.size(); ++i) strip(entries[i], kind);
    }
  }
  return copy;
}

}  // namespace

std::optional<std::string> config_difference(const YAML::Node& there, const YAML::Node& here,
                                             const ParamDefaults* defaults) {
  std::vector<ConfigChange> found;
  if (defaults != nullptr) {
    differences(without_defaults(there, *defaults), without_defaults(here, *defaults), "", found,
                true);
  } else {
    differences(there, here, "", found, true);
  }
  if (found.empty()) return std::nullopt;
  const ConfigChange& c = found.front();
  return fmt::format("{} is {} there and {} here", c.path, c.there, c.here);
}

std::vector<ConfigChange> config_changes(const YAML::Node& a, const YAML::Node& b,
                                         const ParamDefaults* defaults) {
  std::vector<ConfigChange> found;
  if (defaults != nullptr) {
    differences(without_defaults(a, *defaults), without_defaults(b, *defaults), "", found, false);
  } else {
    differences(a, b, "", found, false);
  }
  return found;
}

ParamDefaults plan_defaults(const Plan& plan) {
  ParamDefaults out;
  const auto add = [&](const char* kind, const PluginRecord* plugin,
                       const std::vector<ResolvedParam>& params) {
    if (plugin == nullptr) return;
    for (const ResolvedParam& p : params) {
      if (p.default_value)
        out.add(kind, std::string(plugin->name()), p.name, format_value(*p.default_value));
    }
  };
  if (!plan.datasets.empty()) add("dataset", plan.datasets.front().plugin, plan.dataset_params);
  for (std::size_t k = 0; k < plan.kernel_params.size(); ++k) {
    const auto it = std::find_if(plan.kernels.begin(), plan.kernels.end(),
                                 [&](const Variant& v) { return v.component == k; });
    if (it != plan.kernels.end() && !it->composite())
      add("kernel", it->plugin, plan.kernel_params[k]);
  }
  for (std::size_t s = 0; s < plan.solver_params.size(); ++s) {
    const auto it = std::find_if(plan.solvers.begin(), plan.solvers.end(),
                                 [&](const Variant& v) { return v.component == s; });
    if (it != plan.solvers.end()) add("solver", it->plugin, plan.solver_params[s]);
  }
  return out;
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

std::string merged_config(const YAML::Node& config, const fs::path& from, const fs::path& out_dir) {
  YAML::Node copy = YAML::Clone(config);
  // base_dir is relative to the folder the config was in (an absolute one, as earlier
  // versions wrote it, stays as it is); the merged config's is relative to its own folder.
  const fs::path written = config["base_dir"] ? config["base_dir"].as<std::string>() : ".";
  const fs::path base = written.is_absolute() ? written : from / written;
  if (!written.is_absolute()) copy["base_dir"] = relative_to_base(base, out_dir);
  copy["output"]["dir"] = relative_to_base(out_dir, base);
  YAML::Emitter emitter;
  emitter << copy;
  return std::string("# Resolved by kexp (merged): every default filled in.\n") + emitter.c_str() +
         "\n";
}

}  // namespace kexp::core
