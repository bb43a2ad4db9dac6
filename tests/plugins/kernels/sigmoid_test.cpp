// sigmoid: k = tanh(a·xᵀz + b), declared not PSD, and shown not PSD.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(SigmoidKernel, HandComputedValue) {
  const auto k = make_kernel("sigmoid", {{"a", "0.5"}, {"b", "-1"}});
  // xᵀz = 1·3 + 2·(−1) = 1; tanh(0.5·1 − 1) = tanh(−0.5)
  EXPECT_NEAR(k->evaluate(arma::vec{1, 2}, arma::vec{3, -1}), std::tanh(-0.5), 1e-15);
}

TEST(SigmoidKernel, DeclaresItselfNotPsdAndHasNoMap) {
  const auto k = make_kernel("sigmoid");
  EXPECT_FALSE(k->positive_semidefinite());
  EXPECT_EQ(k->feature_map(), nullptr);
  EXPECT_TRUE(registry().find(PluginKind::Kernel, "sigmoid").has_flag(flags::psd_never));
}

TEST(SigmoidKernel, WithSlopeOneAndOffsetMinusOneFailsThePsdCheck) {
  const auto k = make_kernel("sigmoid", {{"a", "1"}, {"b", "-1"}});
  const core::KernelCheck c = check_on_random_points(*k);
  EXPECT_TRUE(c.symmetric);
  EXPECT_FALSE(c.positive_semidefinite);
  EXPECT_LT(c.eigen_min_relative, -0.01);
  EXPECT_FALSE(c.valid());
}

TEST(SigmoidKernel, BlockedGramEqualsPairwise) {
  expect_blocked_gram_matches_naive(*make_kernel("sigmoid", {{"a", "0.7"}, {"b", "0.2"}}), 5,
                                    1e-13);
}

}  // namespace
}  // namespace kexp::test
