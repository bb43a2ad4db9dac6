// The memory budget from --max-memory, the physical memory or a cgroup's limit; the
// bytes a cell holds at its peak (K or Φ, their test blocks, a working copy, what a solver
// says it allocates, the validation splits), the refusal of a cell over the budget, and
// the dry-run listing.
#include "run/budget.hpp"

#include "run/time_budget.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>

#include "kexp/device.hpp"
#include "kexp/device_memory.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/plugin_call_trace.hpp"
#include "plugin/registry.hpp"
#include "util/measure.hpp"

namespace kexp::core {

Limit memory_budget(double max_memory, const CgroupPaths& paths) {
  if (max_memory > 0) return {max_memory, "--max-memory"};
  Limit limit{static_cast<double>(physical_memory_bytes()), "the physical memory"};
  if (const auto cgroup = cgroup_memory_limit(paths);
      cgroup && (limit.value <= 0 || cgroup->value < limit.value)) {
    limit = *cgroup;
  }
  if (limit.value <= 0) return {1e18, "no limit found"};
  return {0.8 * limit.value, fmt::format("80% of {} ({})", limit.source, size_text(limit.value))};
}

std::string size_text(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
  if (bytes >= 1e3) return fmt::format("{:.3g} kB", bytes / 1e3);
  return fmt::format("{:.0f} B", bytes);
}

MemoryEstimate estimate_memory(const Cell& c, const DataDims& data, const Kernel& kernel,
                               double solver_bytes, bool gram_in_place, bool learns,
                               bool beside_gram, bool float32_copy) {
  const double n = data.n, m = data.m, d = data.d;
  const double inputs = 8.0 * d * (n + m);
  // Model selection: the largest split's fitting part, cut out of K or Φ with its
  // held-out block, while K or Φ is kept.
  const double fit_part = data.largest_fit;
  const std::string validation =
      fit_part > 0 ? fmt::format(", and a validation split's {} training columns", fit_part) : "";
  // K and K(X, X*) kept for a later cell of the group, beside a cell that reads no K
  const double beside = beside_gram ? 8.0 * (n * n + n * m) : 0.0;
  const std::string beside_text =
      beside_gram ? ", beside the group's K and K(X, X*), kept for a later cell" : "";
  const std::string split_points = fit_part > 0 ? ", and a validation split's points" : "";
  if (c.form == Form::Dual && solver_bytes >= 0) {
    // A solver that reaches the kernel: the points (a split's too) and what it allocates
    return {solver_bytes + inputs + 8.0 * d * fit_part + beside,
            fmt::format("n = {}, m = {}: what the solver allocates (it never holds K){}{}", n, m,
                        split_points, beside_text),
            ""};
  }
  if (c.form == Form::Dual && learns) {
    // To learn p hyperparameters and the noise, the solver makes K itself at each point it
    // tries: C = K + noise·I and the p slices of ∂K; then the learned kernel's K(X, X*)
    // and L⁻¹K(X, X*) for the variances. A split learns on fewer points, one at a time.
    const double p =
        kernel.learnable() ? static_cast<double>(kernel.hyperparameters().size()) : 0.0;
    return {8.0 * ((1.0 + p) * n * n + 2.0 * n * m + m + d * fit_part) + inputs + beside,
            fmt::format("n = {}, m = {}: to learn {} hyperparameters, C = K + noise·I, {} "
                        "slice{} of ∂K and the learned n × m cross block (it never reads the "
                        "Gram matrix at the written values){}{}",
                        n, m, p + 1, p, p == 1 ? "" : "s", split_points, beside_text),
            ""};
  }
  if (c.form == Form::Dual) {
    // K (n × n), a working copy a solver may make of it unless it may factor K in place,
    // K(X, X*) (n × m), k(x*, x*); a split's K (n_fit × n_fit) and its held-out block
    // (n_fit × (n − n_fit)).
    // In mixed precision, a float32 copy of K + λI besides.
    const double copies = gram_in_place ? 1.0 : 2.0;
    return {8.0 * (copies * n * n + n * m + m + fit_part * n) + (float32_copy ? 4.0 * n * n : 0.0) +
                inputs,
            fmt::format("n = {}, m = {}: the n × n Gram matrix{}{}, the n × m cross block{}", n, m,
                        gram_in_place ? " (factored in place)" : " and a working copy",
                        float32_copy ? ", its float32 copy" : "", validation),
            ""};
  }
  double D = 0;
  try {
    D = static_cast<double>(
        kernel.feature_map()->dimension(static_cast<std::size_t>(data.input_size)));
  } catch (const std::exception& e) {
    MemoryEstimate none{std::numeric_limits<double>::infinity(), "no feature map", e.what()};
    return none;
  }
  // Φ (D × n), Φ(X*) (D × m), a D × D system and its factor; a split's columns of Φ; in
  // float32, Φ and Φ(X*) rounded besides
  return {8.0 * (D * (n + m) + 2.0 * D * D + (fit_part > 0 ? D * n : 0.0)) +
              (float32_copy ? 4.0 * D * (n + m) : 0.0) + inputs + beside,
          fmt::format("n = {}, m = {}, D = {}: Φ, Φ(X*){} and a D × D system{}{}", n, m, D,
                      float32_copy ? " with their float32 copies" : "", validation, beside_text),
          ""};
}

MemoryEstimate estimate_cell(const Cell& cell, const Variant& solver, const DataDims& data,
                             const Kernel& kernel, const GramPlace& place) {
  double solver_bytes = -1;
  double device_bytes = 0;
  // a dual cell that builds from the kernel holds what its solver says (learning the
  // kernel, estimate_memory counts)
  if (cell.form == Form::Dual && builds_from_kernel(solver)) {
    const auto made = create_solver(*solver.plugin, solver.params);
    const auto n = static_cast<std::size_t>(data.n), m = static_cast<std::size_t>(data.m),
               d = static_cast<std::size_t>(data.d);
    const PluginCallNote call(
        fmt::format("asking solver '{}' for the memory it holds", solver.plugin->name()));
    solver_bytes = made->memory_bytes(n, m, d);
    if (solver.target.device_code()) {
      device_bytes = device_memory_bytes(*made, n, m, d).value_or(0.0);
    }
  }
  MemoryEstimate estimate =
      estimate_memory(cell, data, kernel, solver_bytes, place.last_reader,
                      learns_hyperparameters(solver), place.beside_gram,
                      cell.form == Form::Primal ? runs_in_single(solver) : runs_in_mixed(solver));
  if (cell.form == Form::Primal && solver.target.device_code() && estimate.impossible.empty()) {
    // a primal solver on the device holds Φ there: D features in place of d
    const auto D = kernel.feature_map()->dimension(static_cast<std::size_t>(data.input_size));
    device_bytes =
        device_memory_bytes(*create_solver(*solver.plugin, solver.params),
                            static_cast<std::size_t>(data.n), static_cast<std::size_t>(data.m), D)
            .value_or(0.0);
    // the host backend's device memory is the host's (a dual solver's memory_bytes says so
    // itself)
    if (runs_on_host_backend(solver) && device_bytes > 0) {
      estimate.bytes += device_bytes;
      estimate.what +=
          fmt::format(", and {} of the host backend's device memory", size_text(device_bytes));
    }
  }
  estimate.device_bytes = device_bytes;
  return estimate;
}

std::optional<std::string> refusal(const MemoryEstimate& estimate, const Limit& budget) {
  if (!estimate.impossible.empty()) {
    return fmt::format("refused before it started: {}", estimate.impossible);
  }
  if (estimate.bytes <= budget.value) return std::nullopt;
  const std::string source =
      budget.source == "--max-memory" ? budget.source : budget.source + "; --max-memory sets it";
  return fmt::format(
      "refused before it started: it needs about {} ({}), more than the memory budget of {} "
      "per cell ({})",
      size_text(estimate.bytes), estimate.what, size_text(budget.value), source);
}

std::optional<std::string> device_refusal(const MemoryEstimate& estimate,
                                          const DeviceLimit& limit) {
  if (!(estimate.device_bytes > 0) || estimate.device_bytes <= limit.free_bytes) {
    return std::nullopt;
  }
  if (limit.device == Device::host) {
    return fmt::format(
        "refused before it started: it needs about {} of the host backend's device memory, "
        "more than its limit of {} ({}); lower n, raise KEXP_HOST_DEVICE_MEMORY, or use "
        "device: cpu",
        device::size_text(estimate.device_bytes), device::size_text(limit.total_bytes), limit.name);
  }
  return fmt::format(
      "refused before it started: it needs about {} of GPU memory, more than the {} free of {} "
      "on {} when kexp started; lower n, or use device: cpu",
      device::size_text(estimate.device_bytes), device::size_text(limit.free_bytes),
      device::size_text(limit.total_bytes), limit.name);
}

std::string out_of_memory_note(const CellResult& result, const std::string& dataset,
                               double estimate_bytes) {
  if (result.error.find(kOutOfMemory) == std::string::npos) return {};
  return fmt::format(
      " (dataset {}: n = {}, m = {}, d = {}; estimated at {}: a --max-memory below what is free "
      "refuses such a cell before it runs)",
      dataset, result.n_train, result.n_test, result.d, size_text(estimate_bytes));
}

void print_dry_run(const Plan& plan, const std::vector<DryRunLine>& lines, int repeats,
                   const Limit& budget, const TimeLimit& time, const std::string& shard_text,
                   const std::string& out_dir) {
  std::size_t runs = 0, over = 0, impossible = 0, over_time = 0;
  // the cells over each device's memory, by its name, with its limit
  std::map<std::string, std::pair<std::size_t, DeviceLimit>> over_device;
  std::string text;
  for (const DryRunLine& l : lines) {
    const Cell& c = *l.cell;
    runs += static_cast<std::size_t>(repeats - l.repeats_done);
    const bool cannot = !l.estimate.impossible.empty();
    const bool too_big = !cannot && l.estimate.bytes > budget.value;
    const bool too_big_for_device =
        !cannot && !too_big && l.device && device_refusal(l.estimate, *l.device).has_value();
    const bool too_long = !cannot && !too_big && !too_big_for_device && l.over_time;
    over += too_big ? 1 : 0;
    impossible += cannot ? 1 : 0;
    over_time += too_long ? 1 : 0;
    if (too_big_for_device) {
      auto& [count, limit] = over_device[l.device->name];
      ++count;
      limit = *l.device;
    }
    const bool on_host = l.device && l.device->device == Device::host;
    std::string state = too_big ? "  OVER BUDGET"
                        : too_big_for_device
                            ? (on_host ? "  OVER HOST BACKEND MEMORY" : "  OVER GPU MEMORY")
                        : too_long ? "  OVER TIME LIMIT"
                                   : "";
    if (!cannot && l.estimate.device_bytes > 0) {
      state = fmt::format("  {} {}", on_host ? "host backend" : "GPU",
                          device::size_text(l.estimate.device_bytes)) +
              state;
    }
    if (cannot) state = "  CANNOT RUN: " + l.estimate.impossible;
    if (l.repeats_done > 0) {
      state += fmt::format("  {} of {} repeats done", l.repeats_done, repeats);
    }
    // "+" where the solver gives no bound of its fit: K's or Φ's time alone
    const std::string seconds = cannot      ? std::string("-")
                                : l.bounded ? seconds_text(l.seconds)
                                            : seconds_text(l.seconds) + "+";
    text += fmt::format("{}  {:<6}  {:>9}  {:>10}  {} | {} | {}{}\n", c.id, to_string(c.form),
                        cannot ? std::string("-") : size_text(l.estimate.bytes), seconds,
                        plan.datasets[c.dataset].canonical, plan.kernels[c.kernel].canonical,
                        plan.solvers[c.solver].canonical, state);
  }
  fmt::print("{}", count_of(lines.size(), "cell"));
  if (!shard_text.empty()) fmt::print(" (shard {} of {} cells)", shard_text, plan.cells.size());
  fmt::print(" × {}: {} to do; memory budget {} per cell ({}); results would go to {}\n",
             count_of(static_cast<std::size_t>(repeats), "repeat"), count_of(runs, "run"),
             size_text(budget.value), budget.source, out_dir);
  fmt::print(
      "time: the least a run takes, its flops at {} (+: its K or Φ alone, where the "
      "solver does not bound its fit); {}\n",
      time.rate_source,
      time.seconds > 0
          ? fmt::format("time limit {} per cell (--max-cell-time)", seconds_text(time.seconds))
          : std::string("no time limit (--max-cell-time 0)"));
  fmt::print("{:<16}  {:<6}  {:>9}  {:>10}  {}\n", "cell", "form", "memory", "time",
             "dataset | kernel | solver");
  fmt::print("{}", text);
  for (const auto& l : plan.left_out) fmt::print("left out: {}\n", l);
  if (over > 0) {
    fmt::print("{} cells are over the memory budget and would be refused (--max-memory)\n", over);
  }
  for (const auto& [name, over_limit] : over_device) {
    const auto& [count, limit] = over_limit;
    if (limit.device == Device::host) {
      fmt::print(
          "{} cells need more of the host backend's device memory than its limit of {} ({}) "
          "and would be refused\n",
          count, device::size_text(limit.total_bytes), name);
    } else {
      fmt::print(
          "{} cells need more GPU memory than the {} free of {} on {} and would be refused\n",
          count, device::size_text(limit.free_bytes), device::size_text(limit.total_bytes), name);
    }
  }
  if (over_time > 0) {
    fmt::print("{} cells are over the time limit and would be refused (--max-cell-time)\n",
               over_time);
  }
  if (impossible > 0) {
    fmt::print("{} cells cannot run (said beside each) and would be refused\n", impossible);
  }
}

}  // namespace kexp::core
