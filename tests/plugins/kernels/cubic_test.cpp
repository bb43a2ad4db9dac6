// cubic: k = 1 + xᵀz + (xᵀz)² + (xᵀz)³ and its map (1, x, x⊗x, x⊗x⊗x).
#include <gtest/gtest.h>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(CubicKernel, HandComputedValues) {
  const auto k = make_kernel("cubic");
  EXPECT_NEAR(k->evaluate(arma::vec{1, 2}, arma::vec{3, -1}), 4.0, 1e-14);  // s = 1
  EXPECT_NEAR(k->evaluate(arma::vec{1, 2}, arma::vec{0, 1}), 15.0, 1e-14);  // s = 2
  EXPECT_NEAR(k->evaluate(arma::vec{1, 0}, arma::vec{-1, 5}), 0.0, 1e-15);  // s = −1
}

TEST(CubicKernel, MapKeepsRepeatedMonomials) {
  const auto k = make_kernel("cubic");
  EXPECT_EQ(k->feature_map()->dimension(4), 1U + 4U + 16U + 64U);
  arma::mat Phi;
  k->feature_map()->features(arma::mat(arma::vec{2.0, 3.0}), Phi);  // x = (2, 3)
  const arma::vec expected = {1, 2, 3, 4, 6, 6, 9, 8, 12, 12, 18, 12, 18, 18, 27};
  EXPECT_TRUE(arma::approx_equal(Phi.col(0), expected, "absdiff", 1e-15));
}

TEST(CubicKernel, ExactMapAgreesAndIsValid) {
  const auto k = make_kernel("cubic");
  const core::KernelCheck c = check_on_random_points(*k, 4, 80);
  EXPECT_TRUE(c.map_exact);
  EXPECT_LE(c.map_error_relative, 1e-10);
  EXPECT_TRUE(c.valid()) << c.eigen_min_relative;
}

TEST(CubicKernel, BlockedGramEqualsPairwise) {
  expect_blocked_gram_matches_naive(*make_kernel("cubic"), 4, 1e-13);
}

}  // namespace
}  // namespace kexp::test
