// Checking parameters against a plugin's schema, before the plugin sees them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/params.hpp"
#include "kexp/plugin.hpp"

namespace kexp::core {

/// The parameters the runner adds to every dataset: how to split and scale it.
const std::vector<ParamSpec>& dataset_common_params();

/// The full schema of a plugin as the experiment file sees it (for a dataset, its own
/// parameters followed by the common ones).
std::vector<ParamSpec> schema_of(const PluginDescriptor& descriptor);

/// A parameter after checking: its typed values, in sweep order.
struct ResolvedParam {
  std::string name;
  std::vector<ParamValue> values;
  bool swept = false;
  bool given = false;  ///< written in the experiment (not a default)
  /// The schema's default, when the parameter has one: a variant whose value is this
  /// leaves the parameter out of its canonical text, so that a parameter added later with
  /// a default that keeps the old behaviour changes no cell's id (sweep/plan.hpp).
  std::optional<ParamValue> default_value;
};

/// Converts one written value to the spec's type and checks its bounds. Throws
/// ConfigError naming `key` and the value's location.
ParamValue check_value(const ParamSpec& spec, const SweepValue& value, const std::string& key);

/// `component` with each setting written in another case than a name of the schema (`C`
/// for `c`, as LIBSVM and scikit-learn write it) read as that name, where the schema has no
/// name written exactly so and only one that matches it ignoring case; its zip groups
/// follow. The other settings are left as they are, for resolve_params to check.
ComponentSpec with_schema_names(const std::vector<ParamSpec>& schema,
                                const ComponentSpec& component);

/// Checks a component's settings against the schema: unknown names (with the nearest),
/// wrong types, values out of range; fills defaults. Result in schema order.
std::vector<ResolvedParam> resolve_params(const std::vector<ParamSpec>& schema,
                                          const ComponentSpec& component,
                                          const std::string& plugin_label);

/// What is wrong with a plugin's descriptor, one problem a line (empty: nothing): names
/// that are empty, repeated or reserved by the experiment file (`plugin`, `zip`, and for
/// kernels `sum`, `product`, `scale`), or that hold characters keys use (`.[]=,` and
/// spaces); defaults that do not parse or fall outside their own bounds or choices; bounds
/// the wrong way round; repeated metric names; a solver that is not exactly one of primal
/// and dual.
std::vector<std::string> descriptor_problems(const PluginDescriptor& descriptor);

/// Describes the bounds of a spec, e.g. "> 0", "in [0, 1]"; empty when unbounded.
std::string describe_bounds(const ParamSpec& spec);

}  // namespace kexp::core
