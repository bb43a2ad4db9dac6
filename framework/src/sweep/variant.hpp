// A variant: one resolved dataset, kernel or solver of the sweep, with one value for
// every parameter.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

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
  std::string canonical;  ///< "gaussian(sigma=1)", what the cell id hashes

  /// Whether this is a sum or product of kernels rather than one plugin.
  [[nodiscard]] bool composite() const { return expression != nullptr; }

  /// The plugin's name, "gaussian", or for a sum or product its terms' names as written,
  /// "sum(gaussian,constant,linear)": the dataset, kernel and solver columns of results.
  [[nodiscard]] std::string name() const;
};

}  // namespace kexp::core
