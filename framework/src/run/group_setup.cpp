// The groups of a run, and what a group needs besides its cells (run/group_setup.hpp).
#include "run/group_setup.hpp"

#include <algorithm>
#include <cstdint>

#include "run/time_budget.hpp"
#include "sweep/kernel_resolution.hpp"
#include "util/seed.hpp"

namespace kexp::core {

std::vector<RunGroup> form_run_groups(const Plan& plan, int repeats,
                                      const std::function<bool(const Cell&, int repeat)>& runs) {
  std::vector<RunGroup> groups;
  for (std::size_t d = 0; d < plan.datasets.size(); ++d) {
    for (int r = 0; r < repeats; ++r) {
      for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
        RunGroup g{d, r, k, group_cells(plan, d, k, [&](const Cell& c) { return runs(c, r); }), {}};
        if (g.cells.empty()) continue;
        g.places = gram_places(g.cells);
        groups.push_back(std::move(g));
      }
    }
  }
  return groups;
}

std::vector<GramPlace> demanding_places(const Plan& plan, const std::vector<RunGroup>& groups) {
  std::vector<GramPlace> places(plan.cells.size());
  std::vector<bool> placed(plan.cells.size(), false);
  for (const RunGroup& g : groups) {
    for (std::size_t i = 0; i < g.cells.size(); ++i) {
      const std::size_t cell = g.cells[i].cell->index;
      const GramPlace& here = g.places[i];
      GramPlace& p = places[cell];
      p.last_reader = placed[cell] ? p.last_reader && here.last_reader : here.last_reader;
      p.beside_gram = p.beside_gram || here.beside_gram;
      p.after_gram = placed[cell] ? p.after_gram && here.after_gram : here.after_gram;
      placed[cell] = true;
    }
  }
  for (const Cell& c : plan.cells) {
    if (placed[c.index]) continue;
    GroupCell alone;
    alone.cell = &c;
    alone.solver = &plan.solvers[c.solver];
    places[c.index] = gram_places({alone}).front();
  }
  return places;
}

void admit_group(RunGroup& group, const CellAdmission& admission, double n_train) {
  const std::vector<GramPlace>& places = group.places;
  for (std::size_t i = 0; i < group.cells.size(); ++i) {
    GroupCell& g = group.cells[i];
    // The last cell to read K may factor it in place: no working copy. A second K, to
    // measure its fit again, only where the budget has room for it.
    const bool in_place = places[i].last_reader;
    const MemoryEstimate e = admission.estimate(*g.cell, places[i]);
    const TimeEstimate t = admission.time_estimate(*g.cell);
    g.refusal = admission.refusal_before_start(*g.cell, e, t);
    g.estimated_bytes = g.solver != nullptr && runs_on_device(*g.solver) ? -1 : e.bytes;
    g.room_for_second_gram =
        !in_place || e.bytes + 8.0 * n_train * n_train <= admission.budget_bytes();
    if (!g.refusal) {
      const CellTimeLimit limit = running_time_limit(t, admission.max_cell_seconds());
      g.time_limit_seconds = limit.seconds;
      g.time_limit_basis = limit.basis;
    }
  }
}

GroupKernel group_kernel(const std::string& name, const Experiment& e, const Plan& plan,
                         const std::vector<std::shared_ptr<Kernel>>& kernels, std::size_t d, int r,
                         std::size_t k) {
  GroupKernel kernel;
  kernel.name = name;
  if (kernel_is_fitted(plan.kernels[k])) {
    kernel.make = [&plan, k] { return create_kernel_of(plan.kernels[k]); };
    kernel.fit_seed = derive_seed(e.seed, "kernel fit " + plan.datasets[d].canonical,
                                  static_cast<std::uint64_t>(r));
    kernel.base_dir = e.base_dir;
  } else {
    kernel.kernel = kernels[k].get();
  }
  return kernel;
}

bool needs_own_process(const std::vector<GroupCell>& group) {
  return std::any_of(group.begin(), group.end(), [](const GroupCell& g) {
    return g.solver != nullptr && runs_on_device(*g.solver) && !g.refusal;
  });
}

}  // namespace kexp::core
