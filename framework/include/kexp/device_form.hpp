// DeviceForm: how a kernel is evaluated on a GPU (a solver's `device: cuda`).
//
// A GPU builds K(X, Z) from the two quantities of every pair that one matrix product gives,
//   s = xᵀz   and   r² = ‖x − z‖² = ‖x‖² + ‖z‖² − 2xᵀz   (clamped at 0, exactly 0 on the
// diagonal of K(X, X)),
// and a kernel that is a function of them declares it as a short program of DeviceSteps
// in postfix order: each leaf step pushes its value, `sum` and `product` pop `count`
// values and push their sum or product, `scale` multiplies the top value by `a`. The
// built-in vector kernels and the sums, products and scales of kernel_algebra declare one;
// a kernel that does not (a plugin kernel, a sequence kernel) is refused for
// `device: cuda`, by name, before anything runs.
//
// A plugin kernel declares its form by deriving from kexp::DeviceForm beside kexp::Kernel
// and returning its program from device_form(); the GPU evaluates only the steps below.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kexp/export.hpp"

namespace kexp {

class Kernel;

enum class DeviceOp : std::uint8_t {
  gaussian,    ///< exp(−r² / (2a²)), a = σ
  laplacian,   ///< exp(−√r² / a), a = σ
  polynomial,  ///< (s + a)^count, a = c, count = p ≥ 1
  linear,      ///< s
  sigmoid,     ///< tanh(a·s + b)
  constant,    ///< a
  sum,         ///< the sum of the last `count` values
  product,     ///< the product of the last `count` values
  scale,       ///< a times the last value
};

struct DeviceStep {
  DeviceOp op = DeviceOp::constant;
  double a = 0;
  double b = 0;
  std::int64_t count = 0;
};

/// The steps of k(x, z) as a function of s and r², in postfix order.
using DeviceProgram = std::vector<DeviceStep>;

/// Implemented, beside kexp::Kernel, by a kernel that the GPU can evaluate.
class KEXP_API DeviceForm {
 public:
  virtual ~DeviceForm();
  /// The program of k; empty when, with the parameters it holds, the kernel has none (a
  /// sum with a term that has none).
  [[nodiscard]] virtual DeviceProgram device_form() const = 0;
};

/// The kernel's program, or nothing when it declares no device form or an empty one.
[[nodiscard]] KEXP_API std::optional<DeviceProgram> device_program(const Kernel& kernel);

/// k for one pair from its s = xᵀz and r² = ‖x − z‖², as the GPU evaluates the program
/// (the host's reference). Throws kexp::InvalidArgument for a malformed program (a step
/// that pops more values than there are, more than one value left, a polynomial of degree
/// < 1, a stack deeper than kMaxDeviceStack).
[[nodiscard]] KEXP_API double evaluate_device_program(const DeviceProgram& program, double s,
                                                      double r2);

/// The deepest stack a program may use on the GPU.
inline constexpr std::size_t kMaxDeviceStack = 16;

/// The steps of a program at most: the GPU holds it in constant memory.
inline constexpr std::size_t kMaxDeviceSteps = 64;

}  // namespace kexp
