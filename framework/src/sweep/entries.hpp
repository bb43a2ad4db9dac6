// An experiment's entries resolved in one pass, before the plan expands them: each entry
// (its dataset, each kernel, each solver) with its plugin found in the registry and its
// settings resolved against the plugin's schema (defaults filled, values checked).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "config/error_list.hpp"
#include "config/experiment.hpp"
#include "config/schema.hpp"
#include "plugin/registry.hpp"
#include "sweep/kernel_resolution.hpp"

namespace kexp::core {

/// An entry of the experiment, resolved.
struct ResolvedEntry {
  PluginKind kind = PluginKind::Kernel;
  std::size_t component = 0;  ///< its place among the entries of its kind
  /// As the plan reads it: a solver's with each setting named as its schema names it
  /// (with_schema_names: `C` read as `c`), the others as written.
  ComponentSpec spec;
  const PluginRecord* plugin = nullptr;  ///< none for a kernel's sum, product or formula
  std::shared_ptr<const ResolvedKernelExpression> expression;  ///< a kernel's, or none
  std::vector<ResolvedParam> params;                           ///< in schema order
};

/// Every entry of `e`, in order (the dataset, the kernels, the solvers), resolved. An entry
/// in error is added to `errors` and left out, so that the errors of all entries are
/// reported together; an experiment read with errors may lack its dataset entry.
[[nodiscard]] std::vector<ResolvedEntry> resolve_entries(const Experiment& e,
                                                         const PluginRegistry& registry,
                                                         ErrorList& errors);

}  // namespace kexp::core
