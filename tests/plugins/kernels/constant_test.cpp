// constant: k = c ≥ 0, and its one-feature map √c.
#include <gtest/gtest.h>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(ConstantKernel, HandComputedValue) {
  const auto k = make_kernel("constant", {{"c", "0.5"}});
  EXPECT_EQ(k->evaluate(arma::vec{1, 2}, arma::vec{-3, 7}), 0.5);
  arma::mat K;
  k->gram(uniform_points(2, 3, 1), uniform_points(2, 4, 2), K);
  EXPECT_TRUE(arma::all(arma::vectorise(K) == 0.5));
}

TEST(ConstantKernel, IsValidWithAnExactMap) {
  const auto k = make_kernel("constant", {{"c", "2.5"}});
  expect_blocked_gram_matches_naive(*k, 3, 0.0);
  ASSERT_NE(k->feature_map(), nullptr);
  EXPECT_EQ(k->feature_map()->dimension(7), 1U);
  const core::KernelCheck c = check_on_random_points(*k);
  EXPECT_TRUE(c.valid());
  EXPECT_LE(c.map_error_relative, 1e-10);
}

TEST(ConstantKernel, RejectsANegativeValue) {
  EXPECT_THROW(make_kernel("constant", {{"c", "-1"}}), ConfigError);
}

}  // namespace
}  // namespace kexp::test
