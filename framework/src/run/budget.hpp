// Memory: what a cell will hold at its peak, the budget a cell may use, and the dry-run
// listing of the cells with their estimates.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "exec/cell_result.hpp"
#include "exec/data.hpp"
#include "exec/gram_store.hpp"
#include "kexp/execution_target.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"
#include "util/limits.hpp"

namespace kexp::core {

/// The memory a cell may use: `max_memory` (--max-memory) when it is > 0, else 80% of the
/// memory this process may use, the machine's physical memory or the smallest cgroup limit
/// over its cgroup and their ancestors (a Slurm job, a container), whichever is smaller.
/// The source says which, e.g. "80% of memory.limit_in_bytes of cgroup /slurm/job_5 (1.07 GB)".
Limit memory_budget(double max_memory, const CgroupPaths& paths = {});

/// "1.5 GB", "320 kB": three significant digits, decimal units.
std::string size_text(double bytes);

/// Bytes of the matrices a cell holds at its peak, and what they are, in words.
struct MemoryEstimate {
  double bytes = 0;
  std::string what;
  /// Why the cell cannot run at all (its kernel's feature map cannot be built for the
  /// data, say D past its limit); bytes is then infinite and the cell refused.
  std::string impossible;
  /// A cell whose solver runs its device code path (`device: cuda` or `host`): the bytes of
  /// device memory it holds at its peak (kexp::DeviceMemory); 0 for a cell on the CPU or a
  /// solver that does not say. On the host backend they are counted in `bytes` too.
  double device_bytes = 0;
};

/// The device memory a cell's device code path runs in: the GPU's as kexp found it at the
/// start (`device: cuda`), or the host backend's limit (`device: host`).
struct DeviceLimit {
  std::string name;  ///< the GPU's name; for the host backend, its limit's source
  double free_bytes = 0, total_bytes = 0;
  Device device = Device::cuda;
};

/// The estimate for a cell on data of sizes `data` (its dataset's first repeat) with `kernel`. For
/// a dual cell whose solver reaches the kernel (flags::kernel_inputs), `solver_bytes` is what its
/// solver says it allocates (Solver::memory_bytes); negative: unknown, and the cell is budgeted as
/// if it held K. A dual cell that reads K is budgeted with a working copy of K, which its solver
/// may make to leave K intact for the cells after it, unless `gram_in_place`: it is the last of its
/// group to read K, and may factor K in place (exec/gram_store.hpp). A cell whose solver learns the
/// kernel's hyperparameters (learns_hyperparameters) gets no K; it holds C = K + noise·I and the p
/// slices of ∂K/∂ log θ of the kernel's p hyperparameters, then the learned kernel's K(X, X*). A
/// cell that reads no K but runs `beside_gram` (GramPlace) holds, besides, the group's K and K(X,
/// X*), kept for a later cell. A cell with a `float32_copy` holds one of its matrix besides:
/// a primal cell in precision single of Φ and Φ(X*), a dual cell in mixed of K + λI.
MemoryEstimate estimate_memory(const Cell& cell, const DataDims& data, const Kernel& kernel,
                               double solver_bytes = -1, bool gram_in_place = false,
                               bool learns = false, bool beside_gram = false,
                               bool float32_copy = false);

/// The estimate for `cell`, run by `solver` on data of sizes `data` (its dataset's first
/// repeat) with
/// `kernel`, at `place` towards its group's K (estimate_memory): a dual cell whose solver
/// reaches the kernel (flags::kernel_inputs) is budgeted at what a solver of its own
/// says it allocates.
MemoryEstimate estimate_cell(const Cell& cell, const Variant& solver, const DataDims& data,
                             const Kernel& kernel, const GramPlace& place);

/// The message of a cell refused before it started, or nothing when it fits `budget`.
std::optional<std::string> refusal(const MemoryEstimate& estimate, const Limit& budget);

/// The message of a cell refused before it started because it needs more device memory than
/// `limit` had free, with both figures; nothing when it fits or holds nothing there.
std::optional<std::string> device_refusal(const MemoryEstimate& estimate, const DeviceLimit& limit);

/// What a failed cell's message gains when it ran out of memory (its error holds
/// kOutOfMemory): its dataset, n, m, d and estimate, and how to refuse such a cell before
/// it runs; nothing for any other failure.
std::string out_of_memory_note(const CellResult& result, const std::string& dataset,
                               double estimate_bytes);

/// A line of the dry-run listing.
struct DryRunLine {
  const Cell* cell = nullptr;
  MemoryEstimate estimate;
  int repeats_done = 0;
  double seconds = 0;      ///< the least it takes (run/time_budget.hpp)
  bool bounded = false;    ///< its solver bounds its fit; otherwise only K or Φ count
  bool over_time = false;  ///< refused for its time
  /// The device memory its device code path runs in, for a cell that holds some there.
  std::optional<DeviceLimit> device;
};

/// The time a cell may take, and the rate its flops are turned into time at.
struct TimeLimit {
  double seconds = 0;  ///< 0: no limit
  std::string rate_source;
};

/// Prints the dry-run listing on stdout: the count of cells and runs, the budgets, the
/// folder results would go to, then a line per cell (its memory and the least time it
/// takes, and the device memory of a cell on the GPU or the host backend, checked against
/// its line's DryRunLine::device), the combinations left out and the cells over a budget.
void print_dry_run(const Plan& plan, const std::vector<DryRunLine>& lines, int repeats,
                   const Limit& budget, const TimeLimit& time, const std::string& shard_text,
                   const std::string& out_dir);

}  // namespace kexp::core
