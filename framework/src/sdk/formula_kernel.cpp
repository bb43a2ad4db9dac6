// Kernels defined by a formula (kexp/formula_kernel.hpp): the program compiled from the
// formula and the kernel's parameters, and everything the kernel computes from it.
#include "kexp/formula_kernel.hpp"

#include <fmt/format.h>

namespace kexp {

FormulaForm::~FormulaForm() = default;

const FormulaProgram* formula_program(const Kernel& kernel) {
  const auto* form = dynamic_cast<const FormulaForm*>(&kernel);
  return form == nullptr ? nullptr : form->formula_program();
}

namespace {

std::vector<std::string> parameter_names(const PluginInfo& info) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.param_count; ++i) names.emplace_back(info.params[i].name);
  return names;
}

std::vector<double> parameter_values(const PluginInfo& info, const Params& p) {
  std::vector<double> values;
  for (std::size_t i = 0; i < info.param_count; ++i) {
    const ParamSpec& spec = info.params[i];
    if (spec.type != ParamType::Real && spec.type != ParamType::Int) {
      throw InvalidArgument(
          fmt::format("kernel plugin '{}': the parameter '{}' of its formula is a {}; a formula's "
                      "parameters are numbers (real or integer)",
                      info.name, spec.name, to_string(spec.type)));
    }
    values.push_back(p.real(spec.name));
  }
  return values;
}

/// The flops of one entry of the program.
double entry_flops(const FormulaProgram& p) {
  double f = 0;
  for (std::uint32_t i = 0; i < p.instruction_count; ++i) {
    switch (p.code[i].op) {
      case FormulaOp::exp:
      case FormulaOp::log:
      case FormulaOp::tanh:
      case FormulaOp::sin:
      case FormulaOp::cos:
      case FormulaOp::pow:
      case FormulaOp::powc:
        f += 20;
        break;
      case FormulaOp::sqrt:
        f += 10;
        break;
      default:
        f += 1;
        break;
    }
  }
  return f;
}

}  // namespace

FormulaKernel::FormulaKernel(std::shared_ptr<const Formula> formula,
                             const std::vector<double>& values, bool psd)
    : formula_(std::move(formula)), program_(formula_->compile(values)), psd_(psd) {}

FormulaKernel::FormulaKernel(const char* formula, const Params& p, const PluginInfo& info)
    : FormulaKernel(std::make_shared<const Formula>(formula, parameter_names(info)),
                    parameter_values(info, p), (info.flags & flags::psd_always) != 0) {}

FormulaKernel::~FormulaKernel() = default;

double FormulaKernel::gram_flops(std::size_t n, std::size_t m, std::size_t d) const {
  return static_cast<double>(n) * static_cast<double>(m) *
         (2.0 * static_cast<double>(d) + entry_flops(program_));
}

double FormulaKernel::compute(const arma::vec& x, const arma::vec& z) const {
  return evaluate_formula(program_, x, z);
}

void FormulaKernel::compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const {
  gram::formula(program_, X, Z, K);
}

void FormulaKernel::compute_symmetric_gram(const arma::mat& X, arma::mat& K) const {
  gram::formula(program_, X, K);
}

void FormulaKernel::compute_diagonal(const arma::mat& X, arma::vec& diag) const {
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    const double xx = arma::dot(X.col(j), X.col(j));
    diag[j] = evaluate_formula<double>(program_, xx, 0.0, xx, xx);
  }
}

}  // namespace kexp
