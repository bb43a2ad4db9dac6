// The sweep: every cell of an experiment, fully resolved.
//
// cells = dataset variants × (kernel variants × solver variants), where the variants of
// a component are the Cartesian product of its swept parameters (parameters zipped
// together move as one), less the primal solvers on kernels without a feature map. A cell's id is a
// hash of its variants' canonical texts, which name every parameter that is not at its
// default (sweep/variant.hpp): the same cell has the same id in every run, however it is
// written, and a parameter added later with a default that keeps the old behaviour changes
// no id.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "config/schema.hpp"
#include "plugin/registry.hpp"
#include "sweep/variant.hpp"

namespace kexp::core {

struct Cell {
  std::size_t index = 0;
  std::string id;                                   ///< 16 hex digits
  std::size_t dataset = 0, kernel = 0, solver = 0;  ///< indices of the variants
  Form form = Form::Dual;
};

struct Plan {
  std::vector<Variant> datasets, kernels, solvers;
  std::vector<Cell> cells;
  /// `dataset.<p>`, `kernel.<p>`, `solver.<p>`: every parameter of every plugin in the
  /// experiment, in schema order, first appearance first.
  std::vector<std::string> param_columns;
  /// Model selection on the training part, as the experiment asks.
  ValidationSpec validation;
  /// Whether a kernel variant learns from the training data (flags::fitted in one of its
  /// plugins): results.csv then has the kernel_fit columns.
  bool fitted_kernels = false;
  /// Names of the metrics the experiment's solvers declare.
  std::vector<std::string> metric_columns;
  /// When a solver that learns the kernel (flags::learns_kernel) is asked to
  /// (`optimize: true`): `learned.` before each real kernel parameter column and each
  /// real parameter of such a solver ("learned.kernel.sigma", "learned.solver.noise").
  std::vector<std::string> learned_columns;
  /// The checked parameters of each component, as written or defaulted (for the
  /// resolved config).
  std::vector<ResolvedParam> dataset_params;
  std::vector<std::vector<ResolvedParam>> kernel_params, solver_params;
  /// Combinations of the product that are not cells, and why (a primal solver with a
  /// kernel that has no feature map).
  std::vector<std::string> left_out;
};

/// Checks every component against its plugin's schema and expands the sweep. Throws
/// ConfigError / PluginError; nothing is created.
/// Whether a kernel variant has a feature map with its parameters (a primal solver
/// needs one). The default reads the plugin's flags (exact_map, approximate_map); the
/// runner asks the kernel itself, whose parameters may choose the map (gaussian's map:).
/// make_plan calls it once for each kernel variant, in the order of Plan::kernels.
using HasFeatureMap = std::function<bool(const Variant&)>;

/// Checks every component against its plugin's schema and expands the sweep. Cells
/// pairing a primal solver with a kernel variant without a feature map are left out
/// (and listed in Plan::left_out). Throws PluginError, and ConfigError: every entry's
/// errors together (config/error_list.hpp). With `keep_going`, the errors go there and
/// a plan with errors is returned unexpanded, for the caller to throw them with the
/// file's own (an experiment read with errors has entries missing; those are skipped).
Plan make_plan(const Experiment& experiment, const PluginRegistry& registry,
               const HasFeatureMap& has_feature_map = {}, ErrorList* keep_going = nullptr);

/// Whether a solver variant learns the kernel's hyperparameters: its plugin has
/// flags::learns_kernel and the variant `optimize: true`.
[[nodiscard]] bool learns_hyperparameters(const Variant& solver);

/// Whether a solver variant runs on the GPU: its target's device is cuda. Such a dual cell
/// reaches the kernel (exec/gram_store.hpp): the solver builds what it needs there.
[[nodiscard]] bool runs_on_device(const Variant& solver);

/// Whether a solver variant runs its device code path on the host backend: its target's
/// device is host. Such a dual cell reaches the kernel as a GPU cell does, and needs the
/// kernel's program, but no GPU: its device memory is the host's.
[[nodiscard]] bool runs_on_host_backend(const Variant& solver);

/// Whether a solver variant works in float32 from the kernel itself: its target's precision
/// is single. Such a dual cell reaches the kernel (exec/gram_store.hpp) and builds its
/// float32 Gram matrices there (kexp/single.hpp), never the float64 K.
[[nodiscard]] bool runs_in_single(const Variant& solver);

/// Whether a solver variant's target precision is mixed: a dual cell of it that reads K
/// factors a float32 copy of K + λI beside it (run/budget.cpp counts it).
[[nodiscard]] bool runs_in_mixed(const Variant& solver);

/// Whether a dual cell of this solver variant builds what it needs from the kernel and the
/// points itself, holding what its Solver::memory_bytes says: its plugin has
/// flags::kernel_inputs, or it runs its device code path (ExecutionTarget::device_code) or
/// in float32.
[[nodiscard]] bool builds_from_kernel(const Variant& solver);

/// Whether a dual cell of this solver variant reaches the kernel instead of reading the
/// group's K: it builds from the kernel (builds_from_kernel), or learns the kernel's
/// hyperparameters.
[[nodiscard]] bool reaches_kernel_itself(const Variant& solver);

/// The value of a parameter column for a cell, or "" when it does not apply.
std::string param_text(const Plan& plan, const Cell& cell, const std::string& column);

}  // namespace kexp::core
