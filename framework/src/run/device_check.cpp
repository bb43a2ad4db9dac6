// Refusing, before anything runs, the cells that cannot run on their target.
#include "run/device_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "config/schema.hpp"
#include "kexp/device.hpp"
#include "kexp/error.hpp"
#include "kexp/execution_target.hpp"
#include "kexp/formula.hpp"
#include "kexp/formula_kernel.hpp"

namespace kexp::core {

namespace {

/// Where the solver entry writes its device, or the entry itself.
std::pair<SourceLocation, std::string> device_setting(const ComponentSpec& spec) {
  for (const ParamSetting& p : spec.params) {
    if (p.name == kDeviceParam) return {p.where, p.key};
  }
  return {spec.where, spec.key + "." + kDeviceParam};
}

/// Whether the solver's schema lists `device` among the choices of its device parameter.
bool offers(const Variant& solver, Device device) {
  for (const ParamSpec& spec : schema_of(*solver.plugin->descriptor)) {
    if (spec.name == nullptr || std::string_view(spec.name) != kDeviceParam) continue;
    if (spec.choices == nullptr) return false;
    std::string_view rest = spec.choices;
    while (!rest.empty()) {
      const auto bar = rest.find('|');
      if (rest.substr(0, bar) == to_string(device)) return true;
      rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    }
    return false;
  }
  return false;
}

/// Why a GPU cell cannot run here: there is no GPU (or no CUDA in this build).
std::optional<std::string> no_gpu(const std::string& key) {
  const device::GpuInfo& gpu = device::gpu_info();
  if (gpu.present) return std::nullopt;
  return fmt::format(
      "{} = {} needs an NVIDIA GPU, and there is none: {}; use {}: {}, or run on a "
      "machine with a GPU",
      key, to_string(Device::cuda), gpu.reason, kDeviceParam, to_string(Device::cpu));
}

/// Why a host-backend cell cannot run: the host backend's memory limit
/// (KEXP_HOST_DEVICE_MEMORY) is not a size.
std::optional<std::string> bad_host_limit(const std::string& key) {
  try {
    (void)device::host_memory_limit();
  } catch (const Error& err) {
    return fmt::format("{} = {}: {}", key, to_string(Device::host), err.what());
  }
  return std::nullopt;
}

/// Why the dual cell's kernel cannot run on `device`: it has no formula nor device form,
/// or a program the device cannot run.
std::optional<std::string> no_device_program(const Experiment& e, const Variant& kernel_variant,
                                             const Kernel& kernel, const std::string& key,
                                             Device device) {
  const std::string kernel_text =
      fmt::format("{} ({})", kernel_variant.name(), e.kernels[kernel_variant.component].key);
  std::optional<FormulaProgram> program;
  try {
    program = device_formula(kernel);
    if (program) check_formula_program(*program);
  } catch (const Error& err) {
    return fmt::format(
        "{} = {}: the program of the kernel {} cannot run on {}: {}; use {}: {} with it", key,
        to_string(device), kernel_text, device == Device::cuda ? "the GPU" : "the host backend",
        err.what(), kDeviceParam, to_string(Device::cpu));
  }
  if (program) return std::nullopt;
  return fmt::format(
      "{} = {} runs kernels that declare a formula or a device form (the built-in vector "
      "kernels, kernels written as formulas, and their sums, products and scales), and the "
      "kernel {} has neither; use {}: {} with it",
      key, to_string(device), kernel_text, kDeviceParam, to_string(Device::cpu));
}

/// Why `cell` cannot run on its solver's target, or nothing.
std::optional<std::string> device_refusal(const Experiment& e, const Plan& plan, const Cell& cell,
                                          const std::vector<std::shared_ptr<Kernel>>& kernels) {
  const Variant& solver = plan.solvers[cell.solver];
  const Device device = solver.target.device;
  if (device == Device::cpu) return std::nullopt;
  const std::string key = device_setting(e.solvers[solver.component]).second;
  if (!offers(solver, device)) {
    return fmt::format("{} = {}: the solver {} does not offer it; use {}: {}", key,
                       to_string(device), solver.name(), kDeviceParam, to_string(Device::cpu));
  }
  // a primal cell's features are computed on the host: its kernel needs no device form
  if (cell.form == Form::Dual) {
    if (auto why =
            no_device_program(e, plan.kernels[cell.kernel], *kernels[cell.kernel], key, device)) {
      return why;
    }
  }
  return device == Device::cuda ? no_gpu(key) : bad_host_limit(key);
}

}  // namespace

std::vector<std::optional<std::string>> check_devices(
    const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
    const std::vector<std::shared_ptr<Kernel>>& kernels) {
  std::vector<std::optional<std::string>> refusals(plan.cells.size());
  const Cell* first_refused = nullptr;
  bool any_runs = false;
  for (std::size_t i = 0; i < plan.cells.size(); ++i) {
    if (!selected[i]) continue;
    refusals[i] = device_refusal(e, plan, plan.cells[i], kernels);
    if (!refusals[i]) {
      any_runs = true;
    } else if (first_refused == nullptr) {
      first_refused = &plan.cells[i];
    }
  }
  if (first_refused != nullptr && !any_runs) {
    const Variant& solver = plan.solvers[first_refused->solver];
    const auto [where, key] = device_setting(e.solvers[solver.component]);
    throw ConfigError(where, key, *refusals[first_refused->index]);
  }
  return refusals;
}

}  // namespace kexp::core
