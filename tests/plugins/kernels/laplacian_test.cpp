// laplacian: k = exp(−‖x − z‖₂ / σ) on the Euclidean norm.
#include <gtest/gtest.h>

#include <cmath>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(LaplacianKernel, HandComputedValueUsesTheEuclideanNorm) {
  const auto k = make_kernel("laplacian", {{"sigma", "2"}});
  // ‖(3, 4)‖₂ = 5 (the ℓ₁ norm would be 7): exp(−5/2)
  EXPECT_NEAR(k->evaluate(arma::vec{0, 0}, arma::vec{3, 4}), std::exp(-2.5), 1e-16);
  EXPECT_EQ(k->evaluate(arma::vec{1, 2}, arma::vec{1, 2}), 1.0);
}

TEST(LaplacianKernel, BlockedGramEqualsPairwise) {
  expect_blocked_gram_matches_naive(*make_kernel("laplacian", {{"sigma", "0.8"}}), 6, 1e-12);
}

TEST(LaplacianKernel, IsPsdOnRandomPoints) {
  for (const char* sigma : {"0.1", "1", "10"}) {
    const auto k = make_kernel("laplacian", {{"sigma", sigma}});
    const core::KernelCheck c = check_on_random_points(*k);
    EXPECT_TRUE(c.valid()) << "sigma " << sigma << ": λmin/λmax " << c.eigen_min_relative;
    EXPECT_EQ(k->feature_map(), nullptr);
  }
}

TEST(LaplacianKernel, RejectsANonPositiveSigma) {
  EXPECT_THROW(make_kernel("laplacian", {{"sigma", "0"}}), ConfigError);
}

}  // namespace
}  // namespace kexp::test
