// Whether a cell of a run may start (run/admission.hpp).
#include "run/admission.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <limits>

#include "kexp/device.hpp"
#include "plugin/plugin_call_trace.hpp"

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

std::vector<DryRunLine> CellAdmission::dry_run_lines(
    const std::vector<bool>& selected, int repeats,
    const std::function<bool(const Cell&, int repeat)>& done) const {
  std::vector<DryRunLine> lines;
  for (const Cell& c : in_.plan->cells) {
    if (!selected[c.index]) continue;
    int repeats_done = 0;
    for (int r = 0; r < repeats; ++r) repeats_done += done(c, r) ? 1 : 0;
    const PluginCallNote entry(
        fmt::format("estimating cell {} ({} | {}): its kernel's and solver's figures", c.id,
                    in_.plan->kernels[c.kernel].name(), in_.plan->solvers[c.solver].name()));
    const TimeEstimate t = time_estimate(c);
    const MemoryEstimate e = estimate(c);
    lines.push_back({&c, e, repeats_done, t.flops / rate().flops_per_second, t.bounded,
                     time_refusal_of(t).has_value(), device_limit(c, e.device_bytes)});
  }
  return lines;
}

std::optional<DeviceLimit> CellAdmission::device_limit(const Cell& c, double device_bytes) const {
  if (!(device_bytes > 0)) return std::nullopt;
  if (runs_on_host_backend(in_.plan->solvers[c.solver])) {
    const double limit = device::host_memory_limit();
    const char* set = std::getenv("KEXP_HOST_DEVICE_MEMORY");
    return DeviceLimit{set != nullptr && *set != '\0'
                           ? "KEXP_HOST_DEVICE_MEMORY"
                           : "the default; KEXP_HOST_DEVICE_MEMORY sets it",
                       limit, limit, Device::host};
  }
  const device::GpuInfo& gpu = device::gpu_info();
  return DeviceLimit{gpu.name, gpu.free_bytes, gpu.total_bytes, Device::cuda};
}

std::optional<std::string> CellAdmission::refusal_before_start(const Cell& c,
                                                               const MemoryEstimate& e,
                                                               const TimeEstimate& t) const {
  if (auto why = refusal(e, *in_.budget)) return why;
  if (const auto limit = device_limit(c, e.device_bytes)) {
    if (auto why = device_refusal(e, *limit)) return why;
  }
  return time_refusal_of(t);
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

}  // namespace kexp::core
