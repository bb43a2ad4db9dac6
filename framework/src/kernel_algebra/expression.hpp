// Kernel algebra in the experiment file: a kernels entry that is a sum or a product of
// kernels, each term a plugin entry or again a sum or product, each with an optional
// positive `scale`:
//
//   kernels:
//     - sum:                                    # θ₀·exp(−‖x − z‖²/2σ²) + θ₂ + θ₃·xᵀz
//         - {plugin: gaussian, sigma: 1.0, scale: 2.0}
//         - {plugin: constant, c: 0.5}
//         - {plugin: linear, scale: [0.1, 1]}   # parameters sweep as anywhere else
//     - product:
//         - {plugin: polynomial, degree: 2}
//         - {plugin: gaussian, sigma: 2}
//       scale: 3
//
// A term's parameters are named by their path in the entry, `sum[0].sigma`,
// `sum[2].scale`, `product[1].sum[0].c`: that is their key under `--set`
// (kernels[0].sum[0].sigma=0.5,1), their results column (kernel.sum[0].sigma) and their
// name in messages. The composite is built from kernels loaded through the plugin loader.
#pragma once

#include <yaml-cpp/yaml.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/plugin.hpp"

namespace kexp::core {

class PluginRegistry;
struct PluginRecord;
struct ResolvedParam;
struct Variant;

/// A term as written: a plugin entry, or a sum or product of terms.
struct KernelExpression {
  enum class Kind { Plugin, Sum, Product };
  Kind kind = Kind::Plugin;
  std::string key;   ///< "kernels[0].sum[1]"
  std::string path;  ///< "sum[1]": the prefix of its parameters' names; "" for the entry
  SourceLocation where;
  ComponentSpec plugin;               ///< Kind::Plugin: the plugin and its own settings
  std::optional<ParamSetting> scale;  ///< `scale:` as written (name: path.scale)
  std::vector<KernelExpression> terms;
};

/// Whether a kernels entry is a sum or product (has a `sum:` or `product:` key).
bool is_kernel_expression(const YAML::Node& node);

/// Parses a sum or product entry. `component` parses a plugin entry
/// ({plugin: NAME, …}) and `setting` one parameter value (a value, list or generator), as
/// the experiment parser does for every other entry. The result's `plugin` is "sum" or
/// "product", its params every setting of every term under its path name, and its
/// `expression` the tree.
ComponentSpec parse_kernel_expression(
    const YAML::Node& node, const std::string& key, const std::filesystem::path& file,
    const std::function<ComponentSpec(const YAML::Node&, const std::string&)>& component,
    const std::function<ParamSetting(const std::string&, const YAML::Node&, const std::string&)>&
        setting);

/// A sum or product checked against the plugins: each term's plugin record and
/// parameter names. Owns the descriptor and record that stand for the composite in the
/// plan (named like "sum(gaussian,constant,linear)", path "(kernel algebra)").
struct ResolvedKernelExpression {
  KernelExpression::Kind kind = KernelExpression::Kind::Plugin;
  std::string path;
  const PluginRecord* plugin = nullptr;  ///< Kind::Plugin
  std::vector<std::string> params;       ///< Kind::Plugin: its own parameter names, in order
  bool scaled = false;
  std::vector<ResolvedKernelExpression> terms;

  std::string label;  ///< "sum(gaussian,constant,linear)"
  std::shared_ptr<PluginDescriptor> descriptor;
  std::shared_ptr<PluginRecord> record;
};

/// Checks every term against its plugin's schema (unknown names, types, bounds, with
/// file:line:column) and every scale (> 0). Returns the tree and the flattened parameters,
/// named by path, in the order the terms are written.
std::shared_ptr<const ResolvedKernelExpression> resolve_kernel_expression(
    const ComponentSpec& spec, const PluginRegistry& registry, std::vector<ResolvedParam>& params);

/// The kernel of a plan's kernel variant: a plugin's kernel, or a composite made of them.
std::shared_ptr<Kernel> create_kernel_of(const Variant& variant);

/// The plugins a kernel variant loads: its own, or every term's.
std::vector<const PluginRecord*> kernel_plugins(const Variant& variant);

/// Writes a sum or product back as YAML, with the checked values (swept ones as lists):
/// the resolved config.
void emit_kernel_expression(YAML::Emitter& out, const ResolvedKernelExpression& expression,
                            const std::vector<ResolvedParam>& params);

}  // namespace kexp::core
