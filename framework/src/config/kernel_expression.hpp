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
// A kernel with Nyström features (Williams and Seeger 2001) for its primal form wraps
// any PSD kernel term, with the number of centres and how they are chosen:
//
//     - nystrom: {plugin: gaussian, sigma: 1.0}
//       m: [100, 400]            # centres, D = m
//       centres: kmeans++        # or uniform
//
// A term's parameters are named by their path in the entry, `sum[0].sigma`,
// `sum[2].scale`, `product[1].sum[0].c`: that is their key under `--set`
// (kernels[0].sum[0].sigma=0.5,1), their results column (kernel.sum[0].sigma) and their
// name in messages. The experiment parser reads such an entry into a ComponentSpec whose
// `plugin` is "sum" or "product", whose `params` are every term's settings under their
// path name, and whose `expression` is the tree below. Checking it against the plugins
// is sweep/kernel_resolution.hpp; the kernels it makes are kernel_algebra/.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"

namespace kexp::core {

/// A term as written: a plugin entry, a sum or product of terms, or the Nyström map of a
/// term.
struct KernelExpression {
  enum class Kind { Plugin, Sum, Product, Nystrom };
  Kind kind = Kind::Plugin;
  std::string key;   ///< "kernels[0].sum[1]"
  std::string path;  ///< "sum[1]": the prefix of its parameters' names; "" for the entry
  SourceLocation where;
  ComponentSpec plugin;               ///< Kind::Plugin: the plugin and its own settings
  std::optional<ParamSetting> scale;  ///< `scale:` as written (name: path.scale)
  /// Kind::Nystrom: `m:` and `centres:` as written (names: path.m, path.centres).
  std::vector<ParamSetting> map_settings;
  std::vector<KernelExpression> terms;  ///< Kind::Nystrom: the one term it maps
};

/// "sum", "product" or "nystrom": the key a composite term is written with.
const char* operator_name(KernelExpression::Kind kind);

/// The name of a term's parameter in its entry: "sum[0].sigma" for `sigma` of the term at
/// path "sum[0]", just "scale" for the entry's own.
std::string term_param_name(const std::string& path, const std::string& name);

/// Whether a kernels entry is a sum, a product or a Nyström map (has a `sum:`,
/// `product:` or `nystrom:` key).
bool is_kernel_expression(const YAML::Node& node);

}  // namespace kexp::core
