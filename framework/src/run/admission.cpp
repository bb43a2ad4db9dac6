// Whether a cell of a run may start (run/admission.hpp).
#include "run/admission.hpp"

#include <fmt/format.h>

#include <limits>

#include "device/gpu.hpp"
#include "exec/group.hpp"

namespace kexp::core {

MemoryEstimate CellAdmission::estimate(const Cell& c) const {
  return estimate(c, (*in_.gram_places)[c.index]);
}

MemoryEstimate CellAdmission::estimate(const Cell& c, const GramPlace& place) const {
  const auto& refusals = *in_.device_refusals;
  if (c.index < refusals.size() && refusals[c.index]) {
    return {std::numeric_limits<double>::infinity(), "cannot run on its device",
            *refusals[c.index]};
  }
  const RunData& data = *in_.data;
  MemoryEstimate e = estimate_cell(c, in_.plan->solvers[c.solver], data.dims[c.dataset],
                                   *(*in_.kernels)[c.kernel], place);
  const double others = data.held - data.sizes[c.dataset].bytes;
  if (others > 0 && e.impossible.empty()) {
    e.bytes += others;
    e.what += fmt::format(", and {} of the other datasets and repeats, held through the run",
                          size_text(others));
  }
  return e;
}

DeviceLimit CellAdmission::gpu_limit() {
  const device::GpuInfo& gpu = device::gpu_info();
  return {gpu.name, gpu.free_bytes, gpu.total_bytes};
}

std::optional<std::string> CellAdmission::refusal_before_start(const Cell& c,
                                                               const MemoryEstimate& e) const {
  if (auto why = refusal(e, *in_.budget)) return why;
  if (e.device_bytes > 0) {
    if (auto why = device_refusal(e, gpu_limit())) return why;
  }
  return time_refusal_of(time_estimate(c));
}

const FlopRate& CellAdmission::rate() const {
  if (!rate_) rate_ = dgemm_rate_for(static_cast<int>(in_.threads->value));
  return *rate_;
}

TimeEstimate CellAdmission::time_estimate(const Cell& c) const {
  return estimate_time(c, in_.plan->solvers[c.solver], in_.data->dims[c.dataset],
                       *(*in_.kernels)[c.kernel]);
}

std::optional<std::string> CellAdmission::time_refusal_of(const TimeEstimate& t) const {
  if (!(in_.max_cell_seconds > 0)) return std::nullopt;
  if (t.flops / kSlowestFlopRate <= in_.max_cell_seconds) return std::nullopt;
  return time_refusal(t, rate(), in_.max_cell_seconds);
}

std::vector<GramPlace> plan_gram_places(const Plan& plan, const std::vector<bool>& selected) {
  std::vector<GramPlace> places(plan.cells.size());
  const auto is_selected = [&selected](const Cell& c) { return selected[c.index]; };
  for (std::size_t d = 0; d < plan.datasets.size(); ++d) {
    for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
      const std::vector<GroupCell> group = group_cells(plan, d, k, is_selected);
      const std::vector<GramPlace> in_group = gram_places(group);
      for (std::size_t i = 0; i < group.size(); ++i) places[group[i].cell->index] = in_group[i];
    }
  }
  return places;
}

}  // namespace kexp::core
