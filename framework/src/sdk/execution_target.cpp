// The execution target: a device and a precision read from a solver's parameters.
#include "kexp/execution_target.hpp"

#include <fmt/format.h>

#include <string>

#include "kexp/error.hpp"

namespace kexp {

namespace {

/// The text of the parameter `name` of `params`, or nothing when it is absent or not text.
const std::string* text_of(const Params& params, const char* name) {
  if (!params.has(name)) return nullptr;
  return std::get_if<std::string>(&params.value(name));
}

}  // namespace

Device parse_device(std::string_view text) {
  for (const Device d : {Device::cpu, Device::cuda, Device::host}) {
    if (text == to_string(d)) return d;
  }
  throw InvalidArgument(fmt::format("{} must be {}, {} or {}, got '{}'", kDeviceParam,
                                    to_string(Device::cpu), to_string(Device::cuda),
                                    to_string(Device::host), text));
}

Precision parse_precision(std::string_view text) {
  for (const Precision p : {Precision::Double, Precision::Single, Precision::Mixed}) {
    if (text == to_string(p)) return p;
  }
  throw InvalidArgument(fmt::format("{} must be {}, {} or {}, got '{}'", kPrecisionParam,
                                    to_string(Precision::Double), to_string(Precision::Single),
                                    to_string(Precision::Mixed), text));
}

ExecutionTarget ExecutionTarget::of(const Params& params) {
  ExecutionTarget target;
  if (const std::string* device = text_of(params, kDeviceParam)) {
    target.device = parse_device(*device);
  }
  if (const std::string* precision = text_of(params, kPrecisionParam)) {
    target.precision = parse_precision(*precision);
  }
  return target;
}

}  // namespace kexp
