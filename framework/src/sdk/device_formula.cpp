// The program a GPU evaluates for a kernel: its formula's, or its device form's as a
// formula program (kexp/formula_kernel.hpp).
#include <utility>
#include <vector>

#include "kexp/device_form.hpp"
#include "kexp/formula.hpp"
#include "kexp/formula_kernel.hpp"

namespace kexp {

namespace {

/// Each kind of device step as a formula of its values (kexp/device_form.hpp).
struct StepFormulas {
  Formula gaussian{"exp(-r2 / (2 * a^2))", {"a"}};
  Formula laplacian{"exp(-r / a)", {"a"}};
  Formula polynomial{"(s + a)^p", {"a", "p"}};
  Formula linear{"s", {}};
  Formula sigmoid{"tanh(a * s + b)", {"a", "b"}};
  Formula constant{"a", {"a"}};
};

const StepFormulas& step_formulas() {
  static const StepFormulas formulas;
  return formulas;
}

}  // namespace

FormulaProgram formula_of_device_program(const DeviceProgram& program) {
  (void)evaluate_device_program(program, 0.0, 0.0);  // throws for a malformed program
  const StepFormulas& f = step_formulas();
  std::vector<FormulaProgram> stack;
  for (const DeviceStep& step : program) {
    switch (step.op) {
      case DeviceOp::gaussian:
        stack.push_back(f.gaussian.compile({step.a}));
        break;
      case DeviceOp::laplacian:
        stack.push_back(f.laplacian.compile({step.a}));
        break;
      case DeviceOp::polynomial:
        stack.push_back(f.polynomial.compile({step.a, static_cast<double>(step.count)}));
        break;
      case DeviceOp::linear:
        stack.push_back(f.linear.compile({}));
        break;
      case DeviceOp::sigmoid:
        stack.push_back(f.sigmoid.compile({step.a, step.b}));
        break;
      case DeviceOp::constant:
        stack.push_back(f.constant.compile({step.a}));
        break;
      case DeviceOp::sum:
      case DeviceOp::product: {
        // the last `count` values, in the order of the terms
        const auto first = stack.end() - static_cast<std::ptrdiff_t>(step.count);
        std::vector<FormulaProgram> terms(std::make_move_iterator(first),
                                          std::make_move_iterator(stack.end()));
        stack.erase(first, stack.end());
        stack.push_back(terms.size() == 1
                            ? terms.front()
                            : combine_formula_programs(step.op == DeviceOp::sum, terms));
        break;
      }
      case DeviceOp::scale:
        stack.back() = scale_formula_program(stack.back(), step.a);
        break;
    }
  }
  return stack.front();
}

std::optional<FormulaProgram> device_formula(const Kernel& kernel) {
  if (const FormulaProgram* p = formula_program(kernel)) return *p;
  if (const std::optional<DeviceProgram> d = device_program(kernel)) {
    return formula_of_device_program(*d);
  }
  return std::nullopt;
}

}  // namespace kexp
