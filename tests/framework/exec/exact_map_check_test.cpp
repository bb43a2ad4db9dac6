// The check of a declared exact map against a primal–dual pair: its bound, and the kernels
// and solvers it applies to.
#include "exec/exact_map_check.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class Map final : public FeatureMap {
 public:
  explicit Map(bool exact) : exact_(exact) {}
  std::size_t dimension(std::size_t d) const override { return d; }
  bool exact() const override { return exact_; }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override { Phi = X; }

 private:
  bool exact_;
};

class Dot final : public Kernel {
 public:
  explicit Dot(const FeatureMap* map) : map_(map) {}
  bool positive_semidefinite() const override { return true; }
  const FeatureMap* feature_map() const override { return map_; }

 protected:
  double compute(const arma::vec& x, const arma::vec& z) const override { return arma::dot(x, z); }

 private:
  const FeatureMap* map_;
};

TEST(ExactMapCheck, TheBoundIsRelativeToTheLargestPredictionAndNeverBelowItsUnitValue) {
  EXPECT_DOUBLE_EQ(exact_map_rounding_bound({0.1, -0.2}, {0.3}), 1e-6);
  EXPECT_DOUBLE_EQ(exact_map_rounding_bound({0.1, -250.0}, {100.0}), 2.5e-4);
  EXPECT_DOUBLE_EQ(exact_map_rounding_bound({}, {}), 1e-6);
}

TEST(ExactMapCheck, AnExactMapWhosePairDiffersBeyondTheBoundIsNamed) {
  const Map exact(true);
  const Dot kernel(&exact);
  const arma::vec dual = {10.0, -20.0, 5.0};
  arma::vec close = dual;
  close[1] += 1.9e-5;  // within 10⁻⁶·20
  EXPECT_FALSE(exact_map_disagreement(kernel, "dot", false, close, dual, "c0").has_value());
  arma::vec far = dual;
  far[2] += 2.1e-5;
  const auto said = exact_map_disagreement(kernel, "dot", false, far, dual, "c0");
  ASSERT_TRUE(said.has_value());
  EXPECT_THAT(*said, AllOf(HasSubstr("kernel 'dot' declares an exact feature map"),
                           HasSubstr("(cell c0)"), HasSubstr("max |Δŷ| = 2.1e-05"),
                           HasSubstr("rounding bound 2e-05"), HasSubstr("kexp check-kernel dot")));
}

TEST(ExactMapCheck, ApproximateMapsIterativeSolversAndNaNsAreNotChecked) {
  const Map approximate(false);
  const Dot approximated(&approximate);
  const Dot mapless(nullptr);
  const Map exact(true);
  const Dot kernel(&exact);
  const arma::vec a = {1.0, 2.0}, b = {3.0, 4.0};
  EXPECT_FALSE(exact_map_disagreement(approximated, "k", false, a, b, "c").has_value());
  EXPECT_FALSE(exact_map_disagreement(mapless, "k", false, a, b, "c").has_value());
  EXPECT_FALSE(exact_map_disagreement(kernel, "k", true, a, b, "c").has_value());
  EXPECT_TRUE(exact_map_disagreement(kernel, "k", false, a, b, "c").has_value());
  const arma::vec nan = {arma::datum::nan, 2.0};
  EXPECT_FALSE(exact_map_disagreement(kernel, "k", false, nan, a, "c").has_value());
}

}  // namespace
}  // namespace kexp::core
