// What the solvers that run a device code path (kernel_ridge, falkon, cg_ridge,
// primal_ridge, gp_regression) share around kexp/device.hpp: their `device` parameter
// read once, the kernel's program, the float64-only rule, the host memory a host backend
// takes, and the copies added to the metric transfer_seconds.
#pragma once

#include <kexp/device.hpp>
#include <kexp/kexp.hpp>

#include <optional>
#include <string>

namespace kexp_solvers {

/// A solver's device (its execution target's, kexp/execution_target.hpp): cpu, or the
/// device backend that runs its device code path (cuda, host).
class DeviceSetting {
 public:
  explicit DeviceSetting(const kexp::Params& p) : device_(kexp::ExecutionTarget::of(p).device) {}

  /// Whether the device code path runs (cuda or host), not the CPU one.
  [[nodiscard]] bool on_device() const { return device_ != kexp::Device::cpu; }
  /// Whether the device memory is the host's (the host backend), counted with the host's.
  [[nodiscard]] bool on_host_backend() const { return device_ == kexp::Device::host; }
  [[nodiscard]] std::string name() const { return kexp::to_string(device_); }
  /// The backend; throws kexp::Error, saying why, where it cannot run.
  [[nodiscard]] kexp::device::Backend& backend() const { return kexp::device::backend(name()); }

  /// Throws kexp::InvalidArgument, naming `solver`, when the device code path is set in a
  /// precision other than double: it runs in float64 only.
  void require_float64(const char* solver, bool in_float64) const {
    if (on_device() && !in_float64) {
      throw kexp::InvalidArgument(std::string(solver) + ": device: " + name() +
                                  " runs in float64 only; use precision: double there");
    }
  }

  /// Host bytes the device path holds besides `host_bytes`: on the host backend its
  /// device memory (`device_bytes`) is the host's too.
  [[nodiscard]] double host_bytes(double host_bytes, double device_bytes) const {
    return host_bytes + (on_host_backend() ? device_bytes : 0.0);
  }

 private:
  kexp::Device device_;
};

/// The kernel's program on the device (kexp::device_formula); throws
/// kexp::InvalidArgument, naming `solver`, for a kernel with neither a formula nor a
/// device form (the runner refuses such a cell before it starts).
[[nodiscard]] inline kexp::FormulaProgram device_program(const kexp::Kernel& kernel,
                                                         const char* solver) {
  const std::optional<kexp::FormulaProgram> program = kexp::device_formula(kernel);
  if (!program) {
    throw kexp::InvalidArgument(std::string(solver) +
                                ": the kernel has neither a formula nor a device form");
  }
  return *program;
}

/// Adds `seconds` of copies made while predicting to the metric transfer_seconds, which
/// the fit put in `report`.
inline void add_transfer_seconds(kexp::SolverReport& report, double seconds) {
  for (auto& [name, value] : report.metrics) {
    if (name == "transfer_seconds") value += seconds;
  }
}

}  // namespace kexp_solvers
