#include "sweep/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

namespace kexp::core {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;  // the FNV-1a 64-bit offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// The variants of a component: the Cartesian product of its parameters' values, the
/// first parameter varying slowest, except that the parameters of a zip group move
/// together (one axis of the product, at the place of the group's first parameter).
std::vector<Variant> expand(const PluginRecord& plugin, std::size_t component,
                            const std::vector<ResolvedParam>& params,
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
  std::vector<Variant> out;
  std::vector<std::size_t> at(axes.size(), 0);
  while (true) {
    std::vector<std::size_t> value_of(params.size(), 0);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      for (std::size_t j : axes[a]) value_of[j] = at[a];
    }
    Variant v;
    v.plugin = &plugin;
    v.component = component;
    std::string canonical = std::string(plugin.name()) + "(";
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ParamValue& value = params[i].values[value_of[i]];
      v.params.set(params[i].name, value);
      canonical += fmt::format("{}{}={}", i ? "," : "", params[i].name, format_value(value));
    }
    v.canonical = canonical + ")";
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

}  // namespace

std::uint64_t derive_seed(std::uint64_t root, const std::string& key, std::uint64_t index) {
  return splitmix64(splitmix64(root ^ fnv1a(key)) + index);
}

Plan make_plan(const Experiment& e, const PluginRegistry& registry,
               const HasFeatureMap& has_feature_map) {
  Plan plan;
  {
    const PluginRecord& p = registry.find(PluginKind::Dataset, e.dataset.plugin);
    const auto params = resolve_params(schema_of(*p.descriptor), e.dataset,
                                       fmt::format("dataset plugin '{}'", p.name()));
    plan.datasets = expand(p, 0, params, e.dataset.zips);
    plan.dataset_params = params;
    add_columns(plan.param_columns, "dataset", params);
  }
  std::vector<std::vector<std::size_t>> kernels_of(e.kernels.size());
  std::vector<std::string> kernel_columns;
  for (std::size_t k = 0; k < e.kernels.size(); ++k) {
    const PluginRecord* p = nullptr;
    std::vector<ResolvedParam> params;
    std::shared_ptr<const ResolvedKernelExpression> expression;  // a sum or product
    if (e.kernels[k].expression) {
      expression = resolve_kernel_expression(e.kernels[k], registry, params);
      p = expression->record.get();
    } else {
      try {
        p = &registry.find(PluginKind::Kernel, e.kernels[k].plugin);
      } catch (const PluginError& err) {
        throw ConfigError(e.kernels[k].where, e.kernels[k].key + ".plugin", err.what());
      }
      params = resolve_params(schema_of(*p->descriptor), e.kernels[k],
                              fmt::format("kernel plugin '{}'", p->name()));
    }
    for (Variant& v : expand(*p, k, params, e.kernels[k].zips)) {
      v.expression = expression;
      kernels_of[k].push_back(plan.kernels.size());
      plan.kernels.push_back(std::move(v));
    }
    add_columns(kernel_columns, "kernel", params);
    plan.kernel_params.push_back(params);
  }
  std::vector<std::vector<std::size_t>> solvers_of(e.solvers.size());
  std::vector<std::string> solver_columns;
  for (std::size_t s = 0; s < e.solvers.size(); ++s) {
    const PluginRecord* p = nullptr;
    try {
      p = &registry.find(PluginKind::Solver, e.solvers[s].plugin);
    } catch (const PluginError& err) {
      throw ConfigError(e.solvers[s].where, e.solvers[s].key + ".plugin", err.what());
    }
    if (p->has_flag(flags::primal) == p->has_flag(flags::dual)) {
      throw PluginError(
          fmt::format("solver plugin '{}' ({}) must declare exactly one form, "
                      "flags::primal or flags::dual",
                      p->name(), p->path.string()));
    }
    const auto params = resolve_params(schema_of(*p->descriptor), e.solvers[s],
                                       fmt::format("solver plugin '{}'", p->name()));
    for (Variant& v : expand(*p, s, params, e.solvers[s].zips)) {
      solvers_of[s].push_back(plan.solvers.size());
      plan.solvers.push_back(std::move(v));
    }
    add_columns(solver_columns, "solver", params);
    plan.solver_params.push_back(params);
    for (std::size_t m = 0; m < p->info().metric_count; ++m) {
      const std::string name = p->info().metrics[m];
      if (std::find(plan.metric_columns.begin(), plan.metric_columns.end(), name) ==
          plan.metric_columns.end()) {
        plan.metric_columns.push_back(name);
      }
    }
  }
  plan.param_columns.insert(plan.param_columns.end(), kernel_columns.begin(), kernel_columns.end());
  plan.param_columns.insert(plan.param_columns.end(), solver_columns.begin(), solver_columns.end());

  // A primal solver trains on the kernel's feature map: with a kernel variant that has
  // none (the Gaussian with map: none), its cells are left out of the product, and the
  // plan says so.
  std::vector<bool> has_map(plan.kernels.size());
  for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
    const PluginRecord& kernel = *plan.kernels[k].plugin;
    has_map[k] = has_feature_map
                     ? has_feature_map(plan.kernels[k])
                     : kernel.has_flag(flags::exact_map) || kernel.has_flag(flags::approximate_map);
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
