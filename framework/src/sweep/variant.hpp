// A variant: one resolved dataset, kernel or solver of the sweep, with one value for
// every parameter.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <vector>

#include "config/schema.hpp"
#include "kexp/execution_target.hpp"
#include "kexp/params.hpp"
#include "plugin/registry.hpp"

namespace kexp::core {

struct ResolvedKernelExpression;

/// One resolved dataset, kernel or solver: a plugin, or for a kernel possibly a sum or
/// product of kernel plugins, and one value for every parameter.
struct Variant {
  /// The plugin; null for a kernel that is a sum or product of kernels (`expression`).
  const PluginRecord* plugin = nullptr;
  /// A kernel that is a sum or product of kernels: its terms, checked against their
  /// plugins (sweep/kernel_resolution.hpp). Create kernels with create_kernel_of().
  std::shared_ptr<const ResolvedKernelExpression> expression;
  std::size_t component = 0;  ///< index in the experiment's kernels / solvers
  Params params;
  std::string canonical;  ///< "gaussian(sigma=1)", what the cell id hashes (canonical_text)
  /// A solver's device and precision (ExecutionTarget::of its params), resolved once by
  /// make_plan; cpu and double for a dataset, a kernel, and a solver that declares neither.
  ExecutionTarget target;

  /// Whether this is a sum or product of kernels rather than one plugin.
  [[nodiscard]] bool composite() const { return expression != nullptr; }

  /// The plugin's name, "gaussian", or for a sum or product its terms' names as written,
  /// "sum(gaussian,constant,linear)": the dataset, kernel and solver columns of results.
  [[nodiscard]] std::string name() const;
};

/// A variant's canonical text, "gaussian(sigma=0.5,map=rff)": its name and, in schema order,
/// each parameter whose value (`values[i]` of `params[i]`) is not its default, in the
/// shortest decimal that reads back to the same double. Cell ids and seeds derive from it,
/// so they do not change when a plugin gains a parameter whose default keeps what it did,
/// nor when a default is written out in the experiment file. A plugin that changes a
/// parameter's default changes what a cell that leaves it unwritten computes without
/// changing its id: it should name the new behaviour with a new value or parameter.
std::string canonical_text(const std::string& name, const std::vector<ResolvedParam>& params,
                           const std::vector<ParamValue>& values);

}  // namespace kexp::core
