// Making the plan: every component's variants from the Cartesian product of its swept
// parameters (zipped ones moving together), its size checked before it is expanded,
// the cells with their ids, the primal cells on kernels without a map left out, kernels
// and datasets of different kinds of samples refused, and the result columns.
#include "sweep/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>
#include <variant>

#include "config/error_list.hpp"
#include "kexp/error.hpp"
#include "kexp/execution_target.hpp"
#include "plugin/plugin_call_trace.hpp"
#include "sweep/entries.hpp"
#include "sweep/kernel_resolution.hpp"
#include "util/seed.hpp"

namespace kexp::core {

namespace {

/// The variants of a component: the Cartesian product of its parameters' values, the
/// first parameter varying slowest, except that the parameters of a zip group move
/// together (one axis of the product, at the place of the group's first parameter). Each
/// is `base` (the plugin or sum or product, and the component) with one value for every
/// parameter.
/// The axes of a component's product: each a parameter, or the parameters of a zip group.
std::vector<std::vector<std::size_t>> axes_of(const std::vector<ResolvedParam>& params,
                                              const std::vector<ZipGroup>& zips) {
  std::vector<std::vector<std::size_t>> axes;  // indices into params
  std::vector<bool> placed(params.size(), false);
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (placed[i]) continue;
    std::vector<std::size_t> axis = {i};
    for (const ZipGroup& g : zips) {
      if (std::find(g.names.begin(), g.names.end(), params[i].name) == g.names.end()) continue;
      axis.clear();
      for (std::size_t j = 0; j < params.size(); ++j) {
        if (std::find(g.names.begin(), g.names.end(), params[j].name) != g.names.end())
          axis.push_back(j);
      }
    }
    for (std::size_t j : axis) placed[j] = true;
    axes.push_back(axis);
  }
  return axes;
}

/// How many variants a component has, before they are made (saturating at 2⁶³), and the
/// axes with more than one value, for messages: "sigma: 1000000 values".
std::pair<double, std::string> variant_count(const std::vector<ResolvedParam>& params,
                                             const std::vector<ZipGroup>& zips) {
  double count = 1;
  std::string parts;
  for (const auto& axis : axes_of(params, zips)) {
    const std::size_t n = params[axis.front()].values.size();
    count *= static_cast<double>(n);
    if (n > 1) {
      parts +=
          fmt::format("{}{}: {} values", parts.empty() ? "" : ", ", params[axis.front()].name, n);
    }
  }
  return {count, parts};
}

/// Refuses a sweep larger than `limit` cells before anything is expanded: each component
/// as it is resolved, then the product of all.
class SweepSize {
 public:
  explicit SweepSize(std::size_t limit) : limit_(limit) {}
  /// A component of `count` variants (`parts` says from what), counted in `role`.
  void add(const ComponentSpec& spec, const std::pair<double, std::string>& count,
           double& role_total) {
    check(count.first, spec, fmt::format("{}: {}", spec.key, count.second));
    role_total += count.first;
    where_ += fmt::format("{}{} ({} variants{}{})", where_.empty() ? "" : "; ", spec.key,
                          count.first, count.second.empty() ? "" : ": ", count.second);
  }
  void check_total(double cells, const ComponentSpec& spec) const { check(cells, spec, where_); }

 private:
  void check(double cells, const ComponentSpec& spec, const std::string& from) const {
    if (cells <= static_cast<double>(limit_)) return;
    throw ConfigError(spec.where, spec.key,
                      fmt::format("the sweep has {:.4g} cells, more than the limit of {} ({}); "
                                  "sweep fewer values, or raise the limit with --max-cells",
                                  cells, limit_, from));
  }
  std::size_t limit_;
  std::string where_;
};

std::vector<Variant> expand(const Variant& base, const std::vector<ResolvedParam>& params,
                            const std::vector<ZipGroup>& zips) {
  const auto axes = axes_of(params, zips);
  std::vector<Variant> out;
  std::vector<std::size_t> at(axes.size(), 0);
  while (true) {
    std::vector<std::size_t> value_of(params.size(), 0);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      for (std::size_t j : axes[a]) value_of[j] = at[a];
    }
    Variant v = base;
    std::vector<ParamValue> values;
    for (std::size_t i = 0; i < params.size(); ++i) {
      values.push_back(params[i].values[value_of[i]]);
      v.params.set(params[i].name, values.back());
    }
    v.canonical = canonical_text(base.name(), params, values);
    out.push_back(std::move(v));
    std::size_t a = axes.size();
    while (a > 0) {
      --a;
      if (++at[a] < params[axes[a].front()].values.size()) break;
      at[a] = 0;
      if (a == 0) return out;
    }
    if (axes.empty()) return out;
  }
}

void add_columns(std::vector<std::string>& columns, const std::string& prefix,
                 const std::vector<ResolvedParam>& params) {
  for (const ResolvedParam& p : params) {
    const std::string c = prefix + "." + p.name;
    if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
  }
}

bool all_real(const ResolvedParam& p) {
  return !p.values.empty() &&
         std::all_of(p.values.begin(), p.values.end(),
                     [](const ParamValue& v) { return std::holds_alternative<double>(v); });
}

/// Plan::learned_columns: when a variant of a solver that learns the kernel has
/// `optimize: true`.
void add_learned_columns(Plan& plan) {
  if (std::none_of(plan.solvers.begin(), plan.solvers.end(), learns_hyperparameters)) return;
  std::vector<std::string>& columns = plan.learned_columns;
  const auto add = [&](const std::string& c) {
    if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
  };
  for (const auto& params : plan.kernel_params)
    for (const ResolvedParam& p : params)
      if (all_real(p)) add("learned.kernel." + p.name);
  for (std::size_t s = 0; s < plan.solvers.size(); ++s) {
    if (!plan.solvers[s].plugin->has_flag(flags::learns_kernel)) continue;
    for (const ResolvedParam& p : plan.solver_params[plan.solvers[s].component])
      if (all_real(p)) add("learned.solver." + p.name);
  }
}

/// Where a parameter of `spec` is written, or the entry's place when it is not.
SourceLocation place_of(const ComponentSpec& spec, const std::string& name) {
  for (const ParamSetting& p : spec.params) {
    if (p.name == name) return p.where;
  }
  return spec.where;
}

/// A sequence kernel (flags::sequences) runs on a sequence dataset only, and a vector
/// kernel on vectors only; a sum or product does not mix them; sequences are never
/// standardized. Throws ConfigError at the entry, naming the kernel and the dataset.
void check_sample_kinds(const Experiment& e, const Plan& plan) {
  if (plan.datasets.empty()) return;
  const PluginRecord& dataset = *plan.datasets.front().plugin;
  const bool sequences = dataset.has_flag(flags::sequences);
  const auto kind = [](bool s) { return s ? "sequences" : "vectors"; };
  ErrorList errors;
  if (sequences) {
    for (const Variant& v : plan.datasets) {
      if (v.params.has("standardize") && v.params.string("standardize") != "false") {
        errors.add(ConfigError(
            place_of(e.dataset, "standardize"), e.dataset.key + ".standardize",
            fmt::format("dataset plugin '{}' yields sequences of symbols, which standardizing "
                        "would corrupt; remove `standardize: true`",
                        dataset.name())));
        break;
      }
    }
  }
  std::set<std::size_t> reported;
  for (const Variant& kernel : plan.kernels) {
    if (!reported.insert(kernel.component).second) continue;
    const ComponentSpec& spec = e.kernels[kernel.component];
    if (sequences && kernel_has_formula(kernel)) {
      errors.add(ConfigError(
          spec.where, spec.key,
          fmt::format("{} is written as a formula, which takes vectors, and dataset plugin '{}' "
                      "yields sequences; use a vector dataset, or a kernel that takes sequences",
                      spec.key, dataset.name())));
      continue;
    }
    const std::vector<const PluginRecord*> plugins = kernel_plugins(kernel);
    for (const PluginRecord* p : plugins) {
      if (p->has_flag(flags::sequences) == sequences) continue;
      errors.add(ConfigError(
          spec.where, spec.key,
          fmt::format("kernel plugin '{}' takes {} and dataset plugin '{}' yields {}; {}",
                      p->name(), kind(!sequences), dataset.name(), kind(sequences),
                      sequences ? "use a kernel that takes sequences (`kexp plugins` marks "
                                  "them) or a vector dataset"
                                : "use a sequence dataset (hmm, sequences) or a kernel that "
                                  "takes vectors")));
      break;
    }
  }
  errors.throw_if_any();
}

/// The dataset entry's variants, its parameters and their columns, into `plan`.
void add_dataset(const ResolvedEntry& entry, Plan& plan) {
  Variant dataset;
  dataset.plugin = entry.plugin;
  plan.datasets = expand(dataset, entry.params, entry.spec.zips);
  plan.dataset_params = entry.params;
  add_columns(plan.param_columns, "dataset", entry.params);
}

/// A kernel entry's variants and parameters into `plan`, its columns into `columns`.
void add_kernel(const ResolvedEntry& entry, Plan& plan, std::vector<std::string>& columns) {
  Variant kernel;
  kernel.component = entry.component;
  kernel.plugin = entry.plugin;
  kernel.expression = entry.expression;
  for (Variant& v : expand(kernel, entry.params, entry.spec.zips)) {
    plan.kernels.push_back(std::move(v));
  }
  add_columns(columns, "kernel", entry.params);
  plan.kernel_params.push_back(entry.params);
}

/// A solver entry's variants, each made once to let it refuse a combination of its values
/// and with its execution target, into `plan`, with its parameters and metrics; its
/// columns into `columns`. An entry whose values are already in error
/// (`values_in_error`) lacks them here, and is not made: that would report a second,
/// false error.
void add_solver(const Experiment& e, const ResolvedEntry& entry, bool values_in_error, Plan& plan,
                std::vector<std::string>& columns) {
  const ComponentSpec& written = e.solvers[entry.component];
  Variant solver;
  solver.plugin = entry.plugin;
  solver.component = entry.component;
  for (Variant& v : expand(solver, entry.params, entry.spec.zips)) {
    // A solver may refuse a combination of its values when it is made (gp_regression:
    // optimize: true with precision: mixed): refused here, at its entry, before anything
    // runs or is written.
    if (!values_in_error) {
      try {
        const PluginCallNote note(fmt::format("for {} ({})", written.key, v.canonical), false);
        (void)create_solver(*entry.plugin, v.params);
      } catch (const PluginError& err) {
        throw ConfigError(written.where, written.key,
                          fmt::format("{} (in {})", err.what(), v.canonical));
      }
    }
    try {
      v.target = ExecutionTarget::of(v.params);
    } catch (const InvalidArgument& err) {
      throw ConfigError(written.where, written.key,
                        fmt::format("{} (in {})", err.what(), v.canonical));
    }
    plan.solvers.push_back(std::move(v));
  }
  add_columns(columns, "solver", entry.params);
  plan.solver_params.push_back(entry.params);
  const PluginInfo& info = entry.plugin->info();
  for (std::size_t m = 0; m < info.metric_count; ++m) {
    const std::string name = info.metrics[m];
    if (std::find(plan.metric_columns.begin(), plan.metric_columns.end(), name) ==
        plan.metric_columns.end()) {
      plan.metric_columns.push_back(name);
    }
  }
}

}  // namespace

Plan make_plan(const Experiment& e, const PluginRegistry& registry,
               const HasFeatureMap& has_feature_map, ErrorList* keep_going) {
  Plan plan;
  plan.validation = e.validation;
  SweepSize size(e.max_cells);
  double dataset_count = 0, kernel_count = 0, solver_count = 0;
  ErrorList own;
  ErrorList& errors = keep_going != nullptr ? *keep_going : own;
  // Each entry is resolved, then expanded, on its own: the errors of all are reported
  // together.
  std::vector<std::string> kernel_columns, solver_columns;
  for (const ResolvedEntry& entry : resolve_entries(e, registry, errors)) {
    errors.attempt([&] {
      double& count = entry.kind == PluginKind::Dataset  ? dataset_count
                      : entry.kind == PluginKind::Kernel ? kernel_count
                                                         : solver_count;
      size.add(entry.spec, variant_count(entry.params, entry.spec.zips), count);
      if (entry.kind == PluginKind::Dataset) {
        add_dataset(entry, plan);
      } else if (entry.kind == PluginKind::Kernel) {
        add_kernel(entry, plan, kernel_columns);
      } else {
        add_solver(e, entry, errors.has_key_within(entry.spec.key), plan, solver_columns);
      }
    });
  }
  own.throw_if_any();
  if (!errors.empty()) return plan;
  check_sample_kinds(e, plan);
  plan.param_columns.insert(plan.param_columns.end(), kernel_columns.begin(), kernel_columns.end());
  plan.param_columns.insert(plan.param_columns.end(), solver_columns.begin(), solver_columns.end());
  add_learned_columns(plan);

  size.check_total(dataset_count * kernel_count * solver_count, e.dataset);

  // A primal solver trains on the kernel's feature map: with a kernel variant that has
  // none (the Gaussian with map: none), its cells are left out of the product, and the
  // plan says so. Without has_feature_map, a sum or product counts as having none.
  std::vector<bool> has_map(plan.kernels.size());
  for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
    const Variant& kernel = plan.kernels[k];
    plan.fitted_kernels = plan.fitted_kernels || kernel_is_fitted(kernel);
    has_map[k] = has_feature_map
                     ? has_feature_map(kernel)
                     : !kernel.composite() && (kernel.plugin->has_flag(flags::exact_map) ||
                                               kernel.plugin->has_flag(flags::approximate_map));
  }
  std::set<std::pair<std::size_t, std::size_t>> left_out;
  for (std::size_t d = 0; d < plan.datasets.size(); ++d) {
    for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
      for (std::size_t s = 0; s < plan.solvers.size(); ++s) {
        if (plan.solvers[s].plugin->has_flag(flags::primal) && !has_map[k]) {
          const std::size_t kc = plan.kernels[k].component, sc = plan.solvers[s].component;
          if (left_out.insert({kc, sc}).second) {
            plan.left_out.push_back(fmt::format(
                "{} ({}, primal) with {} ({}): cells whose kernel has no feature map with its "
                "parameters are left out",
                e.solvers[sc].key, e.solvers[sc].plugin, e.kernels[kc].key, e.kernels[kc].plugin));
          }
          continue;
        }
        Cell c;
        c.index = plan.cells.size();
        c.dataset = d;
        c.kernel = k;
        c.solver = s;
        c.form = plan.solvers[s].plugin->has_flag(flags::primal) ? Form::Primal : Form::Dual;
        const std::string canonical = "dataset=" + plan.datasets[d].canonical +
                                      ";kernel=" + plan.kernels[k].canonical +
                                      ";solver=" + plan.solvers[s].canonical;
        c.id = fmt::format("{:016x}", fnv1a(canonical));
        plan.cells.push_back(std::move(c));
      }
    }
  }
  if (plan.cells.empty()) {
    throw ConfigError(e.solvers.front().where, "solvers",
                      fmt::format("the experiment has no cell to run: {}",
                                  plan.left_out.empty() ? "" : plan.left_out.front()));
  }
  return plan;
}

bool learns_hyperparameters(const Variant& s) {
  return s.plugin->has_flag(flags::learns_kernel) && s.params.has("optimize") &&
         std::holds_alternative<bool>(s.params.value("optimize")) && s.params.boolean("optimize");
}

bool runs_on_device(const Variant& s) { return s.target.device == Device::cuda; }

bool runs_in_single(const Variant& s) { return s.target.precision == Precision::Single; }

bool runs_on_host_backend(const Variant& s) { return s.target.device == Device::host; }

bool runs_in_mixed(const Variant& s) { return s.target.precision == Precision::Mixed; }

bool builds_from_kernel(const Variant& s) {
  return s.plugin->has_flag(flags::kernel_inputs) || s.target.device_code() || runs_in_single(s);
}

bool reaches_kernel_itself(const Variant& s) {
  return builds_from_kernel(s) || learns_hyperparameters(s);
}

std::string param_text(const Plan& plan, const Cell& cell, const std::string& column) {
  const auto dot = column.find('.');
  const std::string role = column.substr(0, dot);
  const std::string name = column.substr(dot + 1);
  const Variant* v = nullptr;
  if (role == "dataset") v = &plan.datasets[cell.dataset];
  if (role == "kernel") v = &plan.kernels[cell.kernel];
  if (role == "solver") v = &plan.solvers[cell.solver];
  if (v == nullptr || !v->params.has(name)) return {};
  return format_value(v->params.value(name));
}

}  // namespace kexp::core
