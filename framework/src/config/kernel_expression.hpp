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
// A kernel written as a formula (kexp/formula.hpp) needs no plugin: its parameters are the
// entry's other keys, numbers that sweep as any other, besides `name` (its name in the
// results, by default "formula"), `psd` (whether it is positive semi-definite, as the user
// declares; by default false) and `scale`:
//
//     - formula: "(1 + r2 / (2 * alpha * l^2))^(-alpha)"
//       name: rational_quadratic
//       alpha: [0.5, 1, 2]
//       l: 1.0
//       psd: true
//
// The formula is parsed as the file is read: an error in it is reported at the formula's
// file:line:column, with the column inside the formula. Its text is a parameter of the
// kernel (`formula`), so that two formulas under one name make different cells.
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

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/formula.hpp"

namespace kexp::core {

/// A term as written: a plugin entry, a sum or product of terms, the Nyström map of a
/// term, or a formula.
struct KernelExpression {
  enum class Kind { Plugin, Sum, Product, Nystrom, Formula };
  Kind kind = Kind::Plugin;
  std::string key;   ///< "kernels[0].sum[1]"
  std::string path;  ///< "sum[1]": the prefix of its parameters' names; "" for the entry
  SourceLocation where;
  /// Kind::Plugin: the plugin and its own settings; Kind::Formula: its name (`plugin`), its
  /// parameters and zip groups.
  ComponentSpec plugin;
  std::optional<ParamSetting> scale;  ///< `scale:` as written (name: path.scale)
  /// Kind::Nystrom: `m:` and `centres:` as written (names: path.m, path.centres).
  std::vector<ParamSetting> map_settings;
  std::vector<KernelExpression> terms;  ///< Kind::Nystrom: the one term it maps
  /// Kind::Formula: the formula parsed with its parameters' names, where it is written,
  /// and whether the entry declares it PSD.
  std::shared_ptr<const Formula> formula;
  SourceLocation formula_where;
  bool psd = false;
};

/// The key of a formula's text among its kernel's parameters (and results columns).
inline constexpr const char* kFormulaParam = "formula";

/// "sum", "product", "nystrom" or "formula": the key a composite term is written with.
const char* operator_name(KernelExpression::Kind kind);

/// The name of a term's parameter in its entry: "sum[0].sigma" for `sigma` of the term at
/// path "sum[0]", just "scale" for the entry's own.
std::string term_param_name(const std::string& path, const std::string& name);

/// Whether `name` may name a formula kernel: letters, digits, '_' and '-'.
bool valid_formula_name(const std::string& name);

/// Whether a kernels entry is a sum, a product, a Nyström map or a formula (has a `sum:`,
/// `product:`, `nystrom:` or `formula:` key).
bool is_kernel_expression(const YAML::Node& node);

}  // namespace kexp::core
