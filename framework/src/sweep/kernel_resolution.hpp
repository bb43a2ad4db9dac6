// Sums and products of kernels (config/kernel_expression.hpp) checked against the
// plugins, and the kernels made from them (kernel_algebra/composite_kernel.hpp); kernels
// written as formulas, made as kexp::FormulaKernel.
#pragma once

#include <yaml-cpp/yaml.h>

#include <memory>
#include <string>
#include <vector>

#include "config/kernel_expression.hpp"
#include "config/schema.hpp"
#include "kexp/kernel.hpp"
#include "plugin/registry.hpp"
#include "sweep/variant.hpp"

namespace kexp::core {

/// A sum or product checked against the plugins: each term's plugin record and
/// parameter names.
struct ResolvedKernelExpression {
  KernelExpression::Kind kind = KernelExpression::Kind::Plugin;
  std::string path;
  const PluginRecord* plugin = nullptr;  ///< Kind::Plugin
  /// Kind::Plugin: its own parameter names, in order; Kind::Nystrom: m, centres.
  std::vector<std::string> params;
  bool scaled = false;
  std::vector<ResolvedKernelExpression> terms;
  std::string label;  ///< "gaussian", "sum(gaussian,constant,linear)"
  /// Kind::Formula: the parsed formula (its parameters are params after the first, which
  /// is its text), whether the entry declares it PSD, and where it is written.
  std::shared_ptr<const Formula> formula;
  bool psd = false;
  SourceLocation where;
  std::string key;  ///< "kernels[0].formula"
};

/// Checks every term against its plugin's schema (unknown names, types, bounds, with
/// file:line:column) and every scale (> 0). Returns the tree and appends the flattened
/// parameters, named by path, in the order the terms are written.
std::shared_ptr<const ResolvedKernelExpression> resolve_kernel_expression(
    const ComponentSpec& spec, const PluginRegistry& registry, std::vector<ResolvedParam>& params);

/// The kernel of a plan's kernel variant: a plugin's kernel, or a composite made of them.
std::shared_ptr<Kernel> create_kernel_of(const Variant& variant);

/// The plugins a variant loads: its own, or for a sum or product every term's (none for a
/// formula).
std::vector<const PluginRecord*> kernel_plugins(const Variant& variant);

/// Whether the variant's kernel is or has a term written as a formula (it takes vectors).
bool kernel_has_formula(const Variant& variant);

/// Whether the variant's kernel learns from the training data: one of its plugins
/// declares flags::fitted.
bool kernel_is_fitted(const Variant& variant);

/// Writes a sum or product back as YAML, with the checked values (swept ones as lists):
/// the resolved config.
void emit_kernel_expression(YAML::Emitter& out, const ResolvedKernelExpression& expression,
                            const std::vector<ResolvedParam>& params);

}  // namespace kexp::core
