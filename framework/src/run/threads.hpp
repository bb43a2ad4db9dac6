// How many threads a run uses, and why: what the user asked for first, then one thread
// for a cost study, whose times are the point of the run and regenerate alike only on one
// thread, then the machine's cores. OpenBLAS runs on as many, unless the user set its own.
#pragma once

#include <string>

#include "sweep/plan.hpp"
#include "util/limits.hpp"

namespace kexp::core {

/// Whether a plan studies cost: it sweeps n over three values or more (a growth with n),
/// or it has primal and dual cells of one kernel variant (a primal-dual pair).
bool is_cost_study(const Plan& plan);

/// Why a cost study runs on one thread: run_threads' source for that choice, which the
/// runner says on stderr.
inline constexpr const char* kCostStudyThreads =
    "a cost study (n swept, or primal and dual of one kernel): one thread, so that its times "
    "are stable; `threads:` or --threads changes it";

/// The run's threads: `--threads` (option > 0), then `threads:` in the experiment file
/// (from_file > 0), then OMP_NUM_THREADS or SLURM_CPUS_PER_TASK, then one thread for a
/// cost study, then the machine's (default_threads()).
Limit run_threads(int option, int from_file, const Plan& plan);

/// Holds OpenBLAS to `threads` threads, unless OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or
/// OMP_NUM_THREADS was set: then the user's setting stays (manifest.json records what
/// OpenBLAS runs on).
void hold_blas_threads(int threads);

}  // namespace kexp::core
