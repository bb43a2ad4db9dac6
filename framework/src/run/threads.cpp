// The run's threads: the user's choice, one for a cost study, else the machine's; and
// OpenBLAS held to the same number unless the user set its own.
#include "run/threads.hpp"

#include <cstdlib>
#include <set>

extern "C" {
void openblas_set_num_threads(int n);
}

namespace kexp::core {

bool is_cost_study(const Plan& plan) {
  std::set<std::int64_t> sizes;
  for (const Variant& d : plan.datasets) {
    if (d.params.has("n")) sizes.insert(d.params.integer("n"));
  }
  if (sizes.size() >= 3) return true;
  std::set<std::size_t> primal, dual;  // kernel variants each form runs
  for (const Cell& c : plan.cells) (c.form == Form::Primal ? primal : dual).insert(c.kernel);
  for (const std::size_t k : primal) {
    if (dual.count(k) != 0) return true;
  }
  return false;
}

Limit run_threads(int option, int from_file, const Plan& plan) {
  if (option > 0) return {double(option), "--threads"};
  if (from_file > 0) return {double(from_file), "threads: in the experiment file"};
  // Asked for through the environment (OMP_NUM_THREADS, a Slurm job's --cpus-per-task):
  // the user's choice too.
  Limit machine = default_threads();
  if (machine.source == "OMP_NUM_THREADS" || machine.source == "SLURM_CPUS_PER_TASK") {
    return machine;
  }
  if (is_cost_study(plan)) {
    return {1.0, kCostStudyThreads};
  }
  return machine;
}

void hold_blas_threads(int threads) {
  for (const char* name : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return;
  }
  openblas_set_num_threads(threads > 0 ? threads : 1);
}

}  // namespace kexp::core
