// feature_map_kernel: the Gram blocks, the symmetric Gram matrix and the diagonal of a
// kernel defined by its map, against inner products of φ computed here.
#include <gtest/gtest.h>

#include <limits>

#include "common/feature_map_kernel.hpp"

namespace kexp::test {
namespace {

/// φ(x) = (x, x², 1) entry by entry: D = 2d + 1.
class SquaresKernel final : public kexp_kernels::FeatureMapKernel {
 public:
  bool positive_semidefinite() const override { return true; }
  void features(const arma::mat& X, arma::mat& Phi) const override {
    Phi = arma::join_cols(X, arma::square(X), arma::ones<arma::rowvec>(X.n_cols));
  }
};

double phi_dot(const arma::vec& x, const arma::vec& z) {
  return arma::dot(x, z) + arma::dot(arma::square(x), arma::square(z)) + 1.0;
}

TEST(FeatureMapKernel, EveryBlockIsAnInnerProductOfTheMap) {
  arma::arma_rng::set_seed(7);
  const arma::mat X = arma::randn(3, 5), Z = arma::randn(3, 4);
  const SquaresKernel k;
  EXPECT_NEAR(k.evaluate(X.col(0), Z.col(1)), phi_dot(X.col(0), Z.col(1)), 1e-12);
  arma::mat K;
  k.gram(X, Z, K);
  ASSERT_EQ(K.n_rows, 5U);
  ASSERT_EQ(K.n_cols, 4U);
  for (arma::uword i = 0; i < 5; ++i) {
    for (arma::uword j = 0; j < 4; ++j) EXPECT_NEAR(K(i, j), phi_dot(X.col(i), Z.col(j)), 1e-12);
  }
  arma::mat S;
  k.gram(X, S);
  EXPECT_TRUE(S.is_symmetric());  // exactly
  for (arma::uword i = 0; i < 5; ++i) {
    for (arma::uword j = 0; j < 5; ++j) EXPECT_NEAR(S(i, j), phi_dot(X.col(i), X.col(j)), 1e-12);
  }
  const arma::vec diag = k.diagonal(X);
  for (arma::uword i = 0; i < 5; ++i) EXPECT_NEAR(diag[i], phi_dot(X.col(i), X.col(i)), 1e-12);
}

// 600 points: K(X, X) in Gram blocks of 256, mirrored across them, exactly symmetric; and
// only its lower triangle when that is all the caller asks for.
TEST(FeatureMapKernel, ManyBlocksAreMirroredAndTheLowerTriangleAloneIsTheSame) {
  arma::arma_rng::set_seed(8);
  const arma::mat X = arma::randn(3, 600);
  const SquaresKernel k;
  arma::mat Phi;
  k.features(X, Phi);
  const arma::mat expected = Phi.t() * Phi;
  arma::mat S, L;
  k.gram(X, S);
  ASSERT_EQ(S.n_rows, 600U);
  EXPECT_TRUE(S.is_symmetric());  // exactly, across the blocks
  // D = 7 products of entries up to about 10: a few ulps of the largest
  const double bound = 7 * 4 * std::numeric_limits<double>::epsilon() * arma::abs(expected).max();
  EXPECT_LE(arma::abs(S - expected).max(), bound);
  k.gram(X, L, Triangle::Lower);
  EXPECT_TRUE(arma::approx_equal(arma::trimatl(L), arma::trimatl(S), "absdiff", 0.0));
}

}  // namespace
}  // namespace kexp::test
