// Whether a cell of a run may start, and what it is expected to hold and take: its memory
// at its place in its group (the host's, and the device's: the GPU's or the host
// backend's) and the flops of its fit, against the memory budget, the GPU's free memory or
// the host backend's limit, and the time limit (--max-cell-time), with the refusals of
// check_devices. The run (run/runner.cpp) owns what this reads and fills it
// as it prepares; the admission reads it when a cell is about to start.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/gram_store.hpp"
#include "kexp/kernel.hpp"
#include "run/budget.hpp"
#include "run/run_data.hpp"
#include "run/time_budget.hpp"
#include "sweep/plan.hpp"
#include "util/limits.hpp"

namespace kexp::core {

/// What the admission of cells reads, owned by the run.
struct AdmissionInputs {
  const Plan* plan = nullptr;
  const RunData* data = nullptr;
  const std::vector<std::shared_ptr<Kernel>>* kernels = nullptr;  ///< by kernel variant
  /// Why each cell cannot run on its solver's target, or nothing (check_devices).
  const std::vector<std::optional<std::string>>* device_refusals = nullptr;
  /// Each cell's most demanding place in its groups (demanding_places, run/group_setup.hpp).
  const std::vector<GramPlace>* gram_places = nullptr;
  const Limit* budget = nullptr;
  const Limit* threads = nullptr;
  double max_cell_seconds = 0;  ///< 0: no time limit
};

class CellAdmission {
 public:
  explicit CellAdmission(AdmissionInputs in) : in_(in) {}

  /// A cell's memory at its most demanding place (AdmissionInputs::gram_places).
  [[nodiscard]] MemoryEstimate estimate(const Cell& c) const;
  /// A cell's own matrices, and the data of the other datasets and repeats, held beside it;
  /// for a cell that cannot run on its target, only why (check_devices).
  [[nodiscard]] MemoryEstimate estimate(const Cell& c, const GramPlace& place) const;

  /// Why `c`, of memory estimate `e` and time estimate `t` (time_estimate), is refused
  /// before it starts, the first reason in this order: over the host's memory budget, over
  /// its device's memory (device_limit), over the time limit.
  [[nodiscard]] std::optional<std::string> refusal_before_start(const Cell& c,
                                                                const MemoryEstimate& e,
                                                                const TimeEstimate& t) const;

  /// The memory budget of a cell, in bytes, and the time limit (0: none) it is held to.
  [[nodiscard]] double budget_bytes() const { return in_.budget->value; }
  [[nodiscard]] double max_cell_seconds() const { return in_.max_cell_seconds; }

  /// DGEMM's rate at the run's threads (run/time_budget.hpp), measured or read once.
  [[nodiscard]] const FlopRate& rate() const;

  [[nodiscard]] TimeEstimate time_estimate(const Cell& c) const;

  /// Why a cell of estimate `t` is refused for the time it would take, or nothing. The
  /// rate is measured only when some cell's flops could pass the limit on a slow machine.
  [[nodiscard]] std::optional<std::string> time_refusal_of(const TimeEstimate& t) const;

  /// The dry run's lines: one per cell of `selected`, with how many of its `repeats` runs
  /// are `done` already.
  [[nodiscard]] std::vector<DryRunLine> dry_run_lines(
      const std::vector<bool>& selected, int repeats,
      const std::function<bool(const Cell&, int repeat)>& done) const;

  /// The device memory `c`'s device code path runs in, for a cell that holds `device_bytes`
  /// there: the GPU as kexp found it at the start (probed only for such a cell, which
  /// check_devices has let run only where there is one), or the host backend's limit.
  [[nodiscard]] std::optional<DeviceLimit> device_limit(const Cell& c, double device_bytes) const;

 private:
  AdmissionInputs in_;
  mutable std::optional<FlopRate> rate_;
};

}  // namespace kexp::core
