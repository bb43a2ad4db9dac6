// The device form of kernels (kexp/device_form.hpp): each built-in vector kernel and each
// sum, product and scale of them declares a program whose host evaluation from s = xᵀz
// and r² = ‖x − z‖² equals the kernel itself; a kernel without one, or a composite with
// such a term, has none; malformed programs are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/device_form.hpp"
#include "kexp/formula_kernel.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

/// max over pairs of |program(s, r²) − k(x, z)| / max(1, |k(x, z)|), with r² = 0 for x = z.
double worst_relative_error(const Kernel& kernel, const DeviceProgram& program) {
  arma::arma_rng::set_seed(7);
  const arma::mat X = arma::randn(3, 12) * 0.8;
  double worst = 0;
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      const arma::vec x = X.col(i), z = X.col(j);
      const double s = arma::dot(x, z);
      const double r2 = i == j ? 0.0 : arma::dot(x - z, x - z);
      const double want = kernel.evaluate(x, z);
      const double got = evaluate_device_program(program, s, r2);
      worst = std::max(worst, std::abs(got - want) / std::max(1.0, std::abs(want)));
    }
  }
  return worst;
}

struct Case {
  std::string name;
  TextParams params;
};

TEST(DeviceForm, EachBuiltInVectorKernelEvaluatesAsItself) {
  const std::vector<Case> cases = {
      {"gaussian", {{"sigma", "0.7"}}},
      {"laplacian", {{"sigma", "1.3"}}},
      {"polynomial", {{"degree", "3"}, {"c", "0.5"}}},
      {"polynomial", {{"degree", "2"}, {"c", "0"}}},
      {"linear", {}},
      {"sigmoid", {{"a", "0.4"}, {"b", "-0.2"}}},
      {"constant", {{"c", "2.5"}}},
  };
  for (const Case& c : cases) {
    const auto kernel = make_kernel(c.name, c.params);
    const std::optional<DeviceProgram> program = device_program(*kernel);
    ASSERT_TRUE(program) << c.name;
    EXPECT_LT(worst_relative_error(*kernel, *program), 1e-14) << c.name;
  }
}

TEST(DeviceForm, ProgramsCarryTheParametersAsWritten) {
  const auto program = device_program(*make_kernel("polynomial", {{"degree", "4"}, {"c", "2"}}));
  ASSERT_TRUE(program);
  ASSERT_EQ(program->size(), 1U);
  EXPECT_EQ((*program)[0].op, DeviceOp::polynomial);
  EXPECT_EQ((*program)[0].a, 2.0);
  EXPECT_EQ((*program)[0].count, 4);
  // (s + 2)⁴ at s = 1: 81; the value depends on s only
  EXPECT_EQ(evaluate_device_program(*program, 1.0, 123.0), 81.0);
  // exp(−r²/(2σ²)) at r² = 2, σ = 1: e⁻¹
  EXPECT_DOUBLE_EQ(evaluate_device_program({{DeviceOp::gaussian, 1.0, 0, 0}}, 5.0, 2.0),
                   std::exp(-1.0));
  // exp(−√r²/σ) at r² = 4, σ = 2: e⁻¹
  EXPECT_DOUBLE_EQ(evaluate_device_program({{DeviceOp::laplacian, 2.0, 0, 0}}, 5.0, 4.0),
                   std::exp(-1.0));
}

TEST(DeviceForm, SumsProductsAndScalesEvaluateAsTheComposite) {
  using algebra::Combination;
  const auto gaussian = make_kernel("gaussian", {{"sigma", "1.1"}});
  const auto linear = make_kernel("linear");
  const auto constant = make_kernel("constant", {{"c", "0.3"}});
  const auto poly = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  const auto sum = algebra::combined(
      Combination::Sum, {algebra::scaled(gaussian, 2.0), constant, algebra::scaled(linear, 0.5)});
  const auto product = algebra::combined(Combination::Product, {poly, gaussian});
  const auto nested = algebra::combined(Combination::Sum, {product, algebra::scaled(sum, 3.0)});
  for (const auto& kernel : {sum, product, nested}) {
    const std::optional<DeviceProgram> program = device_program(*kernel);
    ASSERT_TRUE(program);
    EXPECT_LT(worst_relative_error(*kernel, *program), 1e-14);
  }
  // 2·g, c, 0.5·lin, sum of 3: six steps, the sum last
  const auto program = device_program(*sum);
  ASSERT_EQ(program->size(), 6U);
  EXPECT_EQ(program->back().op, DeviceOp::sum);
  EXPECT_EQ(program->back().count, 3);
}

TEST(DeviceForm, AKernelWithoutOneAndACompositeWithSuchATermHaveNone) {
  const auto cubic = make_kernel("cubic");
  EXPECT_FALSE(device_program(*cubic));
  const auto sum = algebra::combined(algebra::Combination::Sum, {make_kernel("gaussian"), cubic});
  EXPECT_FALSE(device_program(*sum));
  EXPECT_FALSE(device_program(*algebra::scaled(cubic, 2.0)));
}

TEST(DeviceForm, MalformedProgramsAreRefused) {
  const DeviceStep one{DeviceOp::constant, 1.0, 0, 0};
  const auto message = [](const DeviceProgram& p) {
    try {
      (void)evaluate_device_program(p, 0.0, 0.0);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_THAT(message({}), HasSubstr("leaves 0 values"));
  EXPECT_THAT(message({one, one}), HasSubstr("leaves 2 values"));
  EXPECT_THAT(message({one, {DeviceOp::sum, 0, 0, 2}}), HasSubstr("combines 2 values, and 1"));
  EXPECT_THAT(message({{DeviceOp::scale, 2.0, 0, 0}}), HasSubstr("no value to scale"));
  EXPECT_THAT(message({{DeviceOp::polynomial, 1.0, 0, 0}}), HasSubstr("degree 0"));
  const DeviceProgram deep(kMaxDeviceStack + 1, one);
  EXPECT_THAT(message(deep), HasSubstr("stack deeper than 16"));
  const DeviceProgram isLong(kMaxDeviceSteps + 1, one);
  EXPECT_THAT(message(isLong), HasSubstr("more than the 64 allowed"));
  // a well-formed program at the limit of the stack
  DeviceProgram full(kMaxDeviceStack, one);
  full.push_back({DeviceOp::sum, 0, 0, static_cast<std::int64_t>(kMaxDeviceStack)});
  EXPECT_EQ(evaluate_device_program(full, 0.0, 0.0), 16.0);
}

/// max over pairs (s, r²) of |formula − device program| / max(1, |device program|), the
/// norms consistent with them (xx = zz = (r² + 2s)/2 is not needed: a device form reads
/// s and r² only).
double worst_difference(const FormulaProgram& formula, const DeviceProgram& program) {
  double worst = 0;
  for (const double s : {-1.7, -0.3, 0.0, 0.25, 1.0, 2.9}) {
    for (const double r2 : {0.0, 1e-6, 0.4, 1.0, 3.3, 12.0}) {
      const double want = evaluate_device_program(program, s, r2);
      const double got = evaluate_formula<double>(formula, s, r2, 1.0, 1.0);
      worst = std::max(worst, std::abs(got - want) / std::max(1.0, std::abs(want)));
    }
  }
  return worst;
}

TEST(DeviceFormula, EachDeviceStepBecomesAFormulaOfTheSameValues) {
  const std::vector<DeviceProgram> programs = {
      {{DeviceOp::gaussian, 0.7, 0, 0}},
      {{DeviceOp::laplacian, 1.3, 0, 0}},
      {{DeviceOp::polynomial, 0.5, 0, 3}},
      {{DeviceOp::polynomial, 0.0, 0, 70}},  // beyond the integer powers: a constant power
      {{DeviceOp::linear, 0, 0, 0}},
      {{DeviceOp::sigmoid, 0.4, -0.2, 0}},
      {{DeviceOp::constant, 2.5, 0, 0}},
      // 2·gaussian + 0.3 + linear; (s + 1)² · gaussian; a sum of one term
      {{DeviceOp::gaussian, 1.1, 0, 0},
       {DeviceOp::scale, 2.0, 0, 0},
       {DeviceOp::constant, 0.3, 0, 0},
       {DeviceOp::linear, 0, 0, 0},
       {DeviceOp::sum, 0, 0, 3}},
      {{DeviceOp::polynomial, 1.0, 0, 2},
       {DeviceOp::gaussian, 1.1, 0, 0},
       {DeviceOp::product, 0, 0, 2}},
      {{DeviceOp::laplacian, 0.9, 0, 0}, {DeviceOp::sum, 0, 0, 1}, {DeviceOp::scale, -3.0, 0, 0}},
  };
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const FormulaProgram f = formula_of_device_program(programs[i]);
    EXPECT_NO_THROW(check_formula_program(f)) << i;
    EXPECT_LT(worst_difference(f, programs[i]), 1e-13) << i << "\n" << formula_listing(f);
  }
  // a malformed device program is refused as evaluate_device_program refuses it
  EXPECT_THROW((void)formula_of_device_program({{DeviceOp::scale, 2.0, 0, 0}}), InvalidArgument);
}

TEST(DeviceFormula, AKernelRunsOnTheGpuByItsFormulaElseByItsDeviceFormElseNot) {
  // the built-in Gaussian declares both: its formula's program is the one
  const auto gaussian = make_kernel("gaussian", {{"sigma", "0.8"}});
  const std::optional<FormulaProgram> g = device_formula(*gaussian);
  ASSERT_TRUE(g);
  EXPECT_EQ(formula_listing(*g), formula_listing(*formula_program(*gaussian)));
  // a kernel written as a formula, which has no device form
  const FormulaKernel rq(std::make_shared<const Formula>("(1 + r2 / (2 * alpha * l^2))^(-alpha)",
                                                         std::vector<std::string>{"alpha", "l"}),
                         {0.7, 1.3}, true);
  EXPECT_FALSE(device_program(rq));
  const std::optional<FormulaProgram> f = device_formula(rq);
  ASSERT_TRUE(f);
  arma::arma_rng::set_seed(2);
  const arma::mat X = arma::randn(3, 6);
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      const arma::vec x = X.col(i), z = X.col(j);
      const double r2 = i == j ? 0.0 : arma::dot(x - z, x - z);
      const double got =
          evaluate_formula<double>(*f, arma::dot(x, z), r2, arma::dot(x, x), arma::dot(z, z));
      EXPECT_NEAR(got, rq.evaluate(x, z), 1e-14 * std::abs(rq.evaluate(x, z)));
    }
  }
  // neither: a kernel without a formula or device form
  EXPECT_FALSE(device_formula(*make_kernel("cubic")));
}

}  // namespace
}  // namespace kexp::test
