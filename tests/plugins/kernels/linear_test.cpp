// linear: k = xᵀz, and its identity feature map.
#include <gtest/gtest.h>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(LinearKernel, HandComputedValue) {
  const auto k = make_kernel("linear");
  // 1·4 + 2·(−5) + 3·6 = 12
  EXPECT_NEAR(k->evaluate(arma::vec{1, 2, 3}, arma::vec{4, -5, 6}), 12.0, 1e-15);
}

TEST(LinearKernel, BlockedGramEqualsPairwise) {
  expect_blocked_gram_matches_naive(*make_kernel("linear"), 7, 1e-13);
}

TEST(LinearKernel, IsValidAndItsIdentityMapIsExact) {
  const auto k = make_kernel("linear");
  ASSERT_NE(k->feature_map(), nullptr);
  EXPECT_EQ(k->feature_map()->dimension(9), 9U);
  EXPECT_TRUE(k->feature_map()->exact());
  const core::KernelCheck c = check_on_random_points(*k);
  EXPECT_TRUE(c.valid());
  EXPECT_TRUE(c.positive_semidefinite);
  EXPECT_LE(c.map_error_relative, 1e-10);
  const arma::mat X = uniform_points(4, 6, 1);
  arma::mat Phi;
  k->feature_map()->features(X, Phi);
  EXPECT_TRUE(arma::approx_equal(Phi, X, "absdiff", 0.0));
}

}  // namespace
}  // namespace kexp::test
