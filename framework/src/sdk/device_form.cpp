// The device form of a kernel: finding it, checking a program and evaluating it on the
// host exactly as the GPU does (kexp/device_form.hpp).
#include "kexp/device_form.hpp"

#include <fmt/format.h>

#include <cmath>

#include "kexp/error.hpp"
#include "kexp/integer_power.hpp"
#include "kexp/kernel.hpp"

namespace kexp {

DeviceForm::~DeviceForm() = default;

std::optional<DeviceProgram> device_program(const Kernel& kernel) {
  const auto* form = dynamic_cast<const DeviceForm*>(&kernel);
  if (form == nullptr) return std::nullopt;
  DeviceProgram program = form->device_form();
  if (program.empty()) return std::nullopt;
  return program;
}

double evaluate_device_program(const DeviceProgram& program, double s, double r2) {
  if (program.size() > kMaxDeviceSteps) {
    throw InvalidArgument(fmt::format("a device program has {} steps, more than the {} allowed",
                                      program.size(), kMaxDeviceSteps));
  }
  double stack[kMaxDeviceStack];
  std::size_t top = 0;
  const auto push = [&](double v) {
    if (top == kMaxDeviceStack) {
      throw InvalidArgument(
          fmt::format("a device program needs a stack deeper than {}", kMaxDeviceStack));
    }
    stack[top++] = v;
  };
  for (const DeviceStep& step : program) {
    switch (step.op) {
      case DeviceOp::gaussian:
        push(std::exp(-r2 / (2.0 * step.a * step.a)));
        break;
      case DeviceOp::laplacian:
        push(std::exp(-std::sqrt(r2) / step.a));
        break;
      case DeviceOp::polynomial:
        if (step.count < 1) {
          throw InvalidArgument(
              fmt::format("a device polynomial step has degree {}, not ≥ 1", step.count));
        }
        push(integer_power(s + step.a, step.count));
        break;
      case DeviceOp::linear:
        push(s);
        break;
      case DeviceOp::sigmoid:
        push(std::tanh(step.a * s + step.b));
        break;
      case DeviceOp::constant:
        push(step.a);
        break;
      case DeviceOp::sum:
      case DeviceOp::product: {
        if (step.count < 1 || static_cast<std::size_t>(step.count) > top) {
          throw InvalidArgument(fmt::format("a device {} step combines {} values, and {} are there",
                                            step.op == DeviceOp::sum ? "sum" : "product",
                                            step.count, top));
        }
        const bool sum = step.op == DeviceOp::sum;
        double v = sum ? 0.0 : 1.0;
        // in the order of the terms, as the host's sum and product add them
        const std::size_t first = top - static_cast<std::size_t>(step.count);
        for (std::size_t i = first; i < top; ++i) v = sum ? v + stack[i] : v * stack[i];
        top = first;
        stack[top++] = v;
        break;
      }
      case DeviceOp::scale:
        if (top == 0) throw InvalidArgument("a device scale step has no value to scale");
        stack[top - 1] *= step.a;
        break;
      default:
        throw InvalidArgument("a device program has a step of unknown kind");
    }
  }
  if (top != 1) {
    throw InvalidArgument(fmt::format(
        "a device program leaves {} values, not one: combine them by sum or product", top));
  }
  return stack[0];
}

}  // namespace kexp
