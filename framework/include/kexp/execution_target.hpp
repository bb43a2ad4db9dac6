// The execution target of a solver: the device its cells run on and the precision they
// compute in. A solver opts into either by declaring the parameter with
// kexp::target::device / kexp::target::precision in its schema, and reads the value it was
// made with by ExecutionTarget::of(params); the runner reads the same value, resolved
// once per cell, to budget, group, pair and refuse cells. The parameter names are
// declared here and nowhere else.
#pragma once

#include <string_view>

#include "kexp/export.hpp"
#include "kexp/params.hpp"

namespace kexp {

/// Where a solver's cells run.
enum class Device {
  cpu,   ///< the solver's host code
  cuda,  ///< its device code path on an NVIDIA GPU
  host,  ///< its device code path on the CPU, through the SDK's host backend
};

namespace linalg {

/// The precision a solver computes in (for a shifted system (A + shift·I) X = B, what
/// kexp::linalg::solve_shifted does in each). Declared in kexp::linalg, where the SDK's
/// functions that take it were first built, so that their symbols, which a plugin built
/// before links to, stay the same; kexp::Precision names it.
enum class Precision {
  Double,  ///< float64 throughout
  Single,  ///< float32 throughout: A + shift·I and B rounded, X rounded back
  Mixed,   ///< a float32 factor, refined in float64 to float64 accuracy (as LAPACK dsposv)
};

}  // namespace linalg

using linalg::Precision;

/// The value of the `device` parameter that selects `device`: "cpu", "cuda", "host".
constexpr const char* to_string(Device device) {
  switch (device) {
    case Device::cpu:
      return "cpu";
    case Device::cuda:
      return "cuda";
    case Device::host:
      return "host";
  }
  return "?";
}

/// The value of the `precision` parameter that selects `precision`: "double", "single",
/// "mixed".
constexpr const char* to_string(Precision precision) {
  switch (precision) {
    case Precision::Double:
      return "double";
    case Precision::Single:
      return "single";
    case Precision::Mixed:
      return "mixed";
  }
  return "?";
}

/// "cpu", "cuda" or "host" as a Device; kexp::InvalidArgument naming the choices otherwise.
KEXP_API Device parse_device(std::string_view text);

/// "double", "single" or "mixed" as a Precision; kexp::InvalidArgument naming the choices
/// otherwise.
KEXP_API Precision parse_precision(std::string_view text);

/// The name of the solver parameter that selects the device. Declare it with
/// kexp::target::device, never by hand.
inline constexpr const char* kDeviceParam = "device";
/// The name of the solver parameter that selects the precision. Declare it with
/// kexp::target::precision, never by hand.
inline constexpr const char* kPrecisionParam = "precision";

/// How a cell of a solver executes.
struct ExecutionTarget {
  Device device = Device::cpu;
  Precision precision = Precision::Double;

  /// The target a solver made with `params` runs on: its `device` and `precision`
  /// parameters, cpu and double for those it does not declare. Throws
  /// kexp::InvalidArgument for a value that names no Device or Precision.
  [[nodiscard]] KEXP_API static ExecutionTarget of(const Params& params);

  /// Whether the solver's device code path runs (on the GPU, or on the CPU by the host
  /// backend) rather than its host code.
  [[nodiscard]] constexpr bool device_code() const { return device != Device::cpu; }
};

constexpr bool operator==(const ExecutionTarget& a, const ExecutionTarget& b) {
  return a.device == b.device && a.precision == b.precision;
}
constexpr bool operator!=(const ExecutionTarget& a, const ExecutionTarget& b) { return !(a == b); }

namespace target {

/// The `device` parameter of a solver's schema: default cpu, `choices` the devices it
/// offers ("cpu|cuda"), each a to_string(Device). A solver offers only the devices its
/// code runs on; the runner refuses a cell on any other.
constexpr ParamSpec device(const char* choices, const char* doc) {
  return param::choice(kDeviceParam, to_string(Device::cpu), choices, doc);
}

/// The `precision` parameter of a solver's schema: default double, `choices` the
/// precisions it offers ("double|single|mixed"), each a to_string(Precision).
constexpr ParamSpec precision(const char* choices, const char* doc) {
  return param::choice(kPrecisionParam, to_string(Precision::Double), choices, doc);
}

}  // namespace target

}  // namespace kexp
