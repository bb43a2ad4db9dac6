// Kernels defined by a formula (kexp/formula.hpp).
//
// A kernel declares its formula by implementing FormulaForm beside kexp::Kernel; kexp then
// computes its Gram matrices in float64 and float32 from the formula's program, and checks,
// before any cell uses the kernel, that the program agrees with the kernel's own compute()
// on random points and on the data's points (to 1e-12, relative). FormulaKernel is the
// kernel made of its formula alone: compute(), the Gram matrices and the diagonal all
// come from the program. A plugin may derive from it and add what the formula does not
// say (its PSD verdict, a feature map, hyperparameters), or be nothing but its formula
// and its parameters:
//
//     constexpr kexp::ParamSpec kParams[] = {
//         kexp::param::real("alpha", "1.0", "shape α").greater_than(0),
//         kexp::param::real("l", "1.0", "length scale ℓ").greater_than(0),
//     };
//     constexpr kexp::PluginInfo kInfo{"rational_quadratic", "1.0.0",
//         "k(x, z) = (1 + ‖x − z‖²/(2αℓ²))^(−α)", kParams, kexp::flags::psd_always};
//     KEXP_FORMULA_PLUGIN("(1 + r2 / (2 * alpha * l^2))^(-alpha)", kInfo)
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kexp/device_form.hpp"
#include "kexp/export.hpp"
#include "kexp/formula.hpp"
#include "kexp/kernel.hpp"
#include "kexp/plugin.hpp"

namespace kexp {

/// Implemented, beside kexp::Kernel, by a kernel that declares its formula.
class KEXP_API FormulaForm {
 public:
  virtual ~FormulaForm();
  /// The program of k with the parameters the kernel holds; nullptr when it has none (a
  /// sum with a term that has none).
  [[nodiscard]] virtual const FormulaProgram* formula_program() const = 0;
};

/// The kernel's program, or nullptr when it declares none.
[[nodiscard]] KEXP_API const FormulaProgram* formula_program(const Kernel& kernel);

/// What a GPU evaluates for `kernel` (`device: cuda`): the program of its formula when it
/// declares one, else its device form (kexp/device_form.hpp) as a formula program; nothing
/// when it declares neither. A kernel written as a formula therefore runs on the GPU as it
/// runs on the CPU, by the same program.
[[nodiscard]] KEXP_API std::optional<FormulaProgram> device_formula(const Kernel& kernel);

/// A device form as the formula program of the same function of s and r²: each step's
/// formula compiled with its values (a Gaussian step is exp(-r2 / (2 * a^2))), and the
/// sums, products and scales combined as kernel algebra combines formulas. Throws
/// InvalidArgument for a malformed program, as evaluate_device_program does.
[[nodiscard]] KEXP_API FormulaProgram formula_of_device_program(const DeviceProgram& program);

/// A kernel computed from its formula.
class KEXP_API FormulaKernel : public Kernel, public FormulaForm {
 public:
  /// `formula` with `values` for its parameters (in the order of formula.parameters()),
  /// positive semi-definite or not as `psd` says (the formula cannot tell). Throws
  /// FormulaError when the values make a constant part of it not finite.
  FormulaKernel(std::shared_ptr<const Formula> formula, const std::vector<double>& values,
                bool psd = false);

  /// A plugin's: `formula`'s parameters are the plugin's parameters (`info`), in order,
  /// read from `p` as reals; PSD when `info` declares flags::psd_always.
  FormulaKernel(const char* formula, const Params& p, const PluginInfo& info);

  ~FormulaKernel() override;

  [[nodiscard]] const FormulaProgram* formula_program() const override { return &program_; }
  [[nodiscard]] bool positive_semidefinite() const override { return psd_; }
  [[nodiscard]] const Formula& formula() const { return *formula_; }

  /// 2d for the inner product, then each instruction of the program: 20 for a
  /// transcendental function, 10 for a square root, 1 for the rest.
  [[nodiscard]] double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override;

 protected:
  /// k(x, z) by the formula (evaluate_formula). A kernel may give its own; kexp then
  /// checks that the two agree before it uses the kernel.
  [[nodiscard]] double compute(const arma::vec& x, const arma::vec& z) const override;
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override;
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override;
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override;

 private:
  std::shared_ptr<const Formula> formula_;
  FormulaProgram program_;
  bool psd_;
};

}  // namespace kexp

/// Exports a kernel plugin that is its formula: the parameters of INFO (a constexpr
/// kexp::PluginInfo, all numbers) are the formula's, and the kernel is PSD when INFO
/// declares flags::psd_always. One per library, in place of KEXP_PLUGIN.
#define KEXP_FORMULA_PLUGIN(FORMULA, INFO)                                                     \
  namespace kexp_formula_plugin {                                                              \
  class FormulaPluginKernel final : public ::kexp::FormulaKernel {                             \
   public:                                                                                     \
    explicit FormulaPluginKernel(const ::kexp::Params& p) : FormulaKernel(FORMULA, p, INFO) {} \
  };                                                                                           \
  }                                                                                            \
  KEXP_PLUGIN(kexp_formula_plugin::FormulaPluginKernel, INFO)
