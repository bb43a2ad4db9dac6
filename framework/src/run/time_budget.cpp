#include "run/time_budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>

#include "plugin/plugin_call.hpp"
#include "plugin/plugin_call_trace.hpp"
#include "plugin/registry.hpp"
#include "util/machine.hpp"

namespace kexp::core {

namespace {

/// The product measured when `kexp machine` has not measured this machine: large enough
/// for DGEMM's rate to be near its best, small enough to take milliseconds.
constexpr std::size_t kQuickDgemmN = 512;

std::string flops_text(double flops) { return fmt::format("{:.2g}", flops); }

}  // namespace

FlopRate dgemm_rate_for(int threads) {
  if (const auto machine = cached_machine(machine_file())) {
    const double rate = machine->at(threads).dgemm_flops_per_second;
    if (rate > 0) {
      return {rate, fmt::format("DGEMM's {:.3g} GFLOP/s on {} thread{}, measured by `kexp machine`",
                                rate / 1e9, threads, threads == 1 ? "" : "s")};
    }
  }
  const double rate = measure_dgemm_rate(kQuickDgemmN);
  return {rate, fmt::format("DGEMM's {:.3g} GFLOP/s, measured at n = {} as this run began "
                            "(`kexp machine` measures it once and for all)",
                            rate / 1e9, kQuickDgemmN)};
}

TimeEstimate estimate_time(const Cell& cell, const Variant& solver, const DataDims& data,
                           const Kernel& kernel) {
  const auto n = static_cast<std::size_t>(data.n);
  const auto m = static_cast<std::size_t>(data.m);
  const auto d = static_cast<std::size_t>(data.d);
  TimeEstimate e;
  std::size_t fit_d = d;
  const bool reaches_kernel = cell.form == Form::Dual && reaches_kernel_itself(solver);
  if (cell.form == Form::Primal) {
    std::size_t D = 0;
    try {
      const auto map = kernel.feature_map();
      D = map->dimension(static_cast<std::size_t>(data.input_size));
      e.flops = map->flops(n + m, d);
      e.entries = static_cast<double>(D) * static_cast<double>(n + m);
    } catch (const std::exception&) {
      return e;  // no map for these data: the memory estimate refuses the cell
    }
    fit_d = D;
    e.what = "Φ and Φ(X*)";
  } else if (!reaches_kernel) {
    e.flops = kernel.gram_flops(n, n, d) + kernel.gram_flops(m, n, d);
    e.entries = static_cast<double>(n) * static_cast<double>(n + m);
    e.what = "K and K(X*, X)";
  }
  const std::shared_ptr<Solver> s = create_solver(*solver.plugin, solver.params);
  const Kernel* reached = reaches_kernel ? &kernel : nullptr;
  const PluginCallNote call(
      fmt::format("asking solver '{}' for the flops of its fit", solver.plugin->name()));
  const double fit = s->fit_flops_bound(n, fit_d, reached);
  if (!(fit >= 0) || !std::isfinite(fit)) {
    if (e.what.empty()) e.what = "nothing known";
    return e;
  }
  double fits = fit;
  if (data.splits > 0) {
    fits += static_cast<double>(data.splits) *
            s->fit_flops_bound(static_cast<std::size_t>(data.largest_fit), fit_d, reached);
  }
  e.flops += fits;
  e.bounded = true;
  const std::string fit_text = fmt::format(
      "{}'s fit{} with every iteration, restart and evaluation its parameters allow",
      solver.plugin->name(),
      data.splits > 0 ? fmt::format(" and its {} validation fits", data.splits) : std::string());
  e.what = e.what.empty() ? fit_text : e.what + " and " + fit_text;
  return e;
}

std::optional<std::string> time_refusal(const TimeEstimate& estimate, const FlopRate& rate,
                                        double max_seconds) {
  if (!(max_seconds > 0) || !(rate.flops_per_second > 0)) return std::nullopt;
  const double seconds = estimate.flops / rate.flops_per_second;
  if (seconds <= max_seconds) return std::nullopt;
  return fmt::format(
      "refused before it started: it takes at least {} ({} flops: {}, at {}), more than the "
      "time limit of {} per cell; lower what repeats the work (iterations, restarts, "
      "evaluations) or raise --max-cell-time",
      seconds_text(seconds), flops_text(estimate.flops), estimate.what, rate.source,
      seconds_text(max_seconds));
}

CellTimeLimit running_time_limit(const TimeEstimate& estimate, double max_seconds) {
  constexpr double kFactor = 10, kFloor = 300, kUnboundedFloor = 3600, kFlopsPerEntry = 50;
  const double at_slowest =
      std::max(estimate.flops, kFlopsPerEntry * estimate.entries) / kSlowestFlopRate;
  const double floor = estimate.bounded ? kFloor : kUnboundedFloor;
  CellTimeLimit limit;
  limit.seconds = std::max(floor, kFactor * at_slowest);
  limit.basis = fmt::format(
      "{:g} times its estimate of {} flops at {:g} GFLOP/s ({}), at least {}{}", kFactor,
      flops_text(at_slowest * kSlowestFlopRate), kSlowestFlopRate / 1e9, seconds_text(at_slowest),
      seconds_text(floor), estimate.bounded ? "" : " as its solver states no bound on its fit");
  if (max_seconds > 0 && max_seconds < limit.seconds) {
    limit.seconds = max_seconds;
    limit.basis = "--max-cell-time";
  }
  return limit;
}

std::string seconds_text(double seconds) {
  struct Unit {
    double seconds;
    const char* name;
    const char* plural;
  };
  static constexpr Unit kUnits[] = {{365.25 * 86400, "year", "years"},
                                    {86400, "day", "days"},
                                    {3600, "h", "h"},
                                    {60, "min", "min"}};
  for (const Unit& u : kUnits) {
    if (seconds >= u.seconds) {
      const double v = seconds / u.seconds;
      const std::string value =
          v >= 100 && v < 1e6 ? fmt::format("{:.0f}", v) : fmt::format("{:.2g}", v);
      return fmt::format("{} {}", value, value == "1" ? u.name : u.plural);
    }
  }
  return fmt::format("{:.2g} s", seconds);
}

}  // namespace kexp::core
