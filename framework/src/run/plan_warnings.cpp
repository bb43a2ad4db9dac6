// The warnings about a plan that runs but may mislead: a kernel that is not PSD under a
// solver that needs one, and a metric a solver reports without declaring it (said once
// per solver and metric).
#include "run/plan_warnings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "plugin/plugin_call_trace.hpp"

namespace kexp::core {

std::vector<std::string> psd_warnings(const Plan& plan, const std::vector<bool>& selected,
                                      const std::vector<std::shared_ptr<Kernel>>& kernels) {
  std::vector<std::string> out;
  std::set<std::pair<std::size_t, std::size_t>> said;
  for (const Cell& c : plan.cells) {
    const Variant& solver = plan.solvers[c.solver];
    if (!selected[c.index] || !solver.plugin->has_flag(flags::needs_psd)) continue;
    {
      const PluginCallNote call(
          fmt::format("asking kernel '{}' whether it is positive "
                      "semidefinite",
                      plan.kernels[c.kernel].name()));
      if (kernels[c.kernel]->positive_semidefinite()) continue;
    }
    if (!said.insert({c.kernel, solver.component}).second) continue;
    out.push_back(fmt::format(
        "the kernel {} is not positive semidefinite with these parameters, and solver '{}' "
        "needs a PSD kernel: its cells may fail or give results the theory does not back",
        plan.kernels[c.kernel].canonical, solver.plugin->name()));
  }
  return out;
}

std::vector<std::string> undeclared_metric_warnings(const Plan& plan, const Cell& cell,
                                                    const CellResult& result,
                                                    std::set<std::string>& said) {
  std::vector<std::string> out;
  const auto& declared = plan.metric_columns;
  for (const auto& metric : result.metrics) {
    const std::string& name = metric.first;
    if (std::find(declared.begin(), declared.end(), name) != declared.end()) continue;
    const std::string solver(plan.solvers[cell.solver].plugin->name());
    if (!said.insert(solver + "/" + name).second) continue;
    out.push_back(fmt::format(
        "solver '{}' reported the metric '{}', which it does not declare; it is not written "
        "(list it in the metrics of the plugin's PluginInfo)",
        solver, name));
  }
  return out;
}

}  // namespace kexp::core
