// Refusing, before anything runs, the GPU cells that cannot run.
#include "run/device_check.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "device/gpu.hpp"
#include "kexp/error.hpp"
#include "kexp/formula.hpp"
#include "kexp/formula_kernel.hpp"

namespace kexp::core {

namespace {

/// Where the solver entry writes `device`, or the entry itself.
std::pair<SourceLocation, std::string> device_setting(const ComponentSpec& spec) {
  for (const ParamSetting& p : spec.params) {
    if (p.name == "device") return {p.where, p.key};
  }
  return {spec.where, spec.key + ".device"};
}

void require_gpu(const SourceLocation& where, const std::string& key) {
  const device::GpuInfo& gpu = device::gpu_info();
  if (!gpu.present) {
    throw ConfigError(where, key,
                      fmt::format("{} = cuda needs an NVIDIA GPU, and there is none: {}; use "
                                  "device: cpu, or run on a machine with a GPU",
                                  key, gpu.reason));
  }
}

/// The host backend's memory limit readable (KEXP_HOST_DEVICE_MEMORY).
void require_host_memory_limit(const SourceLocation& where, const std::string& key) {
  try {
    (void)device::host_memory_limit();
  } catch (const Error& err) {
    throw ConfigError(where, key, fmt::format("{} = host: {}", key, err.what()));
  }
}

}  // namespace

void check_devices(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                   const std::vector<std::shared_ptr<Kernel>>& kernels) {
  for (std::size_t i = 0; i < plan.cells.size(); ++i) {
    const Cell& cell = plan.cells[i];
    const Variant& solver = plan.solvers[cell.solver];
    // the host backend needs no GPU, only the kernel's program for a dual cell
    const bool on_gpu = runs_on_device(solver);
    if (!selected[i] || !(on_gpu || runs_on_host_backend(solver))) continue;
    const auto [where, key] = device_setting(e.solvers[solver.component]);
    const char* const device = on_gpu ? "cuda" : "host";
    if (cell.form == Form::Primal) {
      // the features are computed on the host: only the GPU is needed, or the host
      // backend's limit
      if (on_gpu) {
        require_gpu(where, key);
      } else {
        require_host_memory_limit(where, key);
      }
      continue;
    }
    const Variant& kernel = plan.kernels[cell.kernel];
    std::optional<FormulaProgram> program;
    try {
      program = device_formula(*kernels[cell.kernel]);
      if (program) check_formula_program(*program);
    } catch (const Error& err) {
      throw ConfigError(
          where, key,
          fmt::format("{} = {}: the program of the kernel {} ({}) cannot run on the device: "
                      "{}; use device: cpu with it",
                      key, device, kernel.name(), e.kernels[kernel.component].key, err.what()));
    }
    if (!program) {
      throw ConfigError(
          where, key,
          fmt::format("{} = {} runs kernels that declare a formula or a device form (the "
                      "built-in vector kernels, kernels written as formulas, and their sums, "
                      "products and scales), and the kernel {} ({}) has neither; use "
                      "device: cpu with it",
                      key, device, kernel.name(), e.kernels[kernel.component].key));
    }
    if (on_gpu) {
      require_gpu(where, key);
    } else {
      require_host_memory_limit(where, key);
    }
  }
}

}  // namespace kexp::core
