// A kernel's declared forms against its compute(): its formula, its device form and an exact
// feature map each agree to 1e-12 on the built-in kernels and their sums, and a form that
// is another kernel's, or a map that misses a term, is named with the pair, both values and
// the difference.
#include "exec/kernel_consistency.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/kexp.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

/// k(x, z) = exp(−r2/2) in compute(); its formula is `declared`.
class DeclaredFormula final : public FormulaKernel {
 public:
  explicit DeclaredFormula(const std::string& declared)
      : FormulaKernel(std::make_shared<const Formula>(declared, std::vector<std::string>{}), {}) {}

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return std::exp(-arma::accu(arma::square(x - z)) / 2.0);
  }
};

/// k(x, z) = (1 + r2)^(−1) in compute(), declaring the Gaussian's device form.
class DeclaredDeviceForm final : public Kernel, public DeviceForm {
 public:
  bool positive_semidefinite() const override { return true; }
  DeviceProgram device_form() const override { return {{DeviceOp::gaussian, 1.0, 0, 0}}; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return 1.0 / (1.0 + arma::accu(arma::square(x - z)));
  }
};

arma::mat points() { return consistency_points(3, 8, 11, nullptr, 0); }

TEST(KernelConsistency, TheBuiltInKernelsAndTheirSumsAgreeWithWhatTheyDeclare) {
  const arma::mat X = points();
  for (const auto& [name, params] : std::vector<std::pair<std::string, test::TextParams>>{
           {"gaussian", {{"sigma", "0.7"}}},
           {"laplacian", {{"sigma", "1.3"}}},
           {"polynomial", {{"degree", "3"}, {"c", "0.5"}}},
           {"linear", {}},
           {"sigmoid", {{"a", "0.3"}, {"b", "-0.1"}}},
           {"constant", {{"c", "2"}}},
           {"cubic", {}}}) {
    const auto kernel = test::make_kernel(name, params);
    EXPECT_TRUE(declares_forms(*kernel)) << name;
    EXPECT_EQ(kernel_disagreement(*kernel, X, 8), std::nullopt) << name;
  }
  const auto sum =
      algebra::combined(algebra::Combination::Sum,
                        {algebra::scaled(test::make_kernel("gaussian", {{"sigma", "1"}}), 2.0),
                         test::make_kernel("polynomial", {{"degree", "2"}})});
  EXPECT_NE(formula_program(*sum), nullptr);
  EXPECT_EQ(kernel_disagreement(*sum, X, 8), std::nullopt);
}

TEST(KernelConsistency, AFormulaThatIsAnotherKernelsIsNamedWithThePairAndBothValues) {
  const arma::mat X = points();
  EXPECT_EQ(kernel_disagreement(DeclaredFormula("exp(-r2 / 2)"), X, 8), std::nullopt);
  const auto problem = kernel_disagreement(DeclaredFormula("exp(-r2)"), X, 8);
  ASSERT_TRUE(problem.has_value());
  EXPECT_THAT(*problem, AllOf(HasSubstr("its formula and its compute() disagree"),
                              HasSubstr("for the pair (random point"), HasSubstr("compute() gives"),
                              HasSubstr("the formula gives"), HasSubstr("beyond 1e-12")));
  // a formula off by one part in 10¹⁰ is off
  EXPECT_TRUE(kernel_disagreement(DeclaredFormula("1.0000000001 * exp(-r2 / 2)"), X, 8));
  // the data's points are named as such
  const arma::mat own = consistency_points(3, 0, 1, &X, 4);
  EXPECT_THAT(kernel_disagreement(DeclaredFormula("exp(-r2)"), own, 0).value_or(""),
              HasSubstr("the data's point"));
}

TEST(KernelConsistency, ADeviceFormThatIsAnotherKernelsIsNamed) {
  const auto problem = kernel_disagreement(DeclaredDeviceForm(), points(), 8);
  ASSERT_TRUE(problem.has_value());
  EXPECT_THAT(*problem, HasSubstr("its device form (DeviceForm::device_form()) and its compute() "
                                  "disagree"));
}

TEST(KernelConsistency, AnExactMapThatMissesATermIsNamed) {
  // the polynomial kernel's exact map agrees; the linear map under a constant does not
  const arma::mat X = points();
  EXPECT_EQ(kernel_disagreement(*test::make_kernel("polynomial", {{"degree", "4"}}), X, 8),
            std::nullopt);
  class ShortMap final : public FeatureMap {
   public:
    std::size_t dimension(std::size_t d) const override { return d; }
    bool exact() const override { return true; }

   protected:
    void compute_features(const arma::mat& X, arma::mat& Phi) const override { Phi = X; }
  };
  class ShortMapKernel final : public Kernel {
   public:
    bool positive_semidefinite() const override { return true; }
    const FeatureMap* feature_map() const override { return &map_; }

   protected:
    double compute(const arma::vec& x, const arma::vec& z) const override {
      return arma::dot(x, z) + 1.0;
    }

   private:
    ShortMap map_;
  };
  const auto problem = kernel_disagreement(ShortMapKernel(), X, 8);
  ASSERT_TRUE(problem.has_value());
  EXPECT_THAT(*problem, HasSubstr("its exact feature map and its compute() disagree"));
}

TEST(KernelConsistency, AFormulaThatIsNotSymmetricIsNamed) {
  class Lopsided final : public FormulaKernel {
   public:
    Lopsided()
        : FormulaKernel(
              std::make_shared<const Formula>("exp(-r2) * xx", std::vector<std::string>{}), {}) {}
  };
  EXPECT_THAT(kernel_disagreement(Lopsided(), points(), 8).value_or(""),
              HasSubstr("its formula is not symmetric in x and z"));
}

TEST(KernelConsistency, NaNWhereBothGiveNaNAgrees) {
  class Root final : public FormulaKernel {
   public:
    Root()
        : FormulaKernel(std::make_shared<const Formula>("sqrt(s)", std::vector<std::string>{}),
                        {}) {}

   protected:
    double compute(const arma::vec& x, const arma::vec& z) const override {
      return std::sqrt(arma::dot(x, z));
    }
  };
  EXPECT_EQ(kernel_disagreement(Root(), points(), 8), std::nullopt);
}

}  // namespace
}  // namespace kexp::core
