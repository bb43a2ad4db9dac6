// The SDK's linear algebra: in-place Cholesky, its solve and log-determinant, and the
// restore of a symmetric matrix from its upper triangle, on hand-checked cases.
#include "kexp/linalg.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "kexp/error.hpp"

namespace kexp::linalg {
namespace {

TEST(Linalg, CholeskyOfAHandComputedMatrix) {
  // A = LLᵀ with L = [[2, 0], [1, 3]]: A = [[4, 2], [2, 10]].
  arma::mat A = {{4.0, 2.0}, {2.0, 10.0}};
  ASSERT_EQ(cholesky_in_place(A), 0);
  EXPECT_DOUBLE_EQ(A(0, 0), 2.0);
  EXPECT_DOUBLE_EQ(A(1, 0), 1.0);
  EXPECT_DOUBLE_EQ(A(1, 1), 3.0);
  EXPECT_DOUBLE_EQ(A(0, 1), 2.0);  // the upper triangle is left as it was
  // b = A·x for x = [1.5, 2.3]ᵀ
  arma::mat b(2, 1);
  b(0, 0) = 4.0 * 1.5 + 2.0 * 2.3;
  b(1, 0) = 2.0 * 1.5 + 10.0 * 2.3;
  cholesky_solve(A, b);
  EXPECT_NEAR(b(0, 0), 1.5, 1e-14);
  EXPECT_NEAR(b(1, 0), 2.3, 1e-14);
  EXPECT_NEAR(cholesky_log_det(A), std::log(36.0), 1e-14);  // det A = 40 − 4 = 36
}

TEST(Linalg, CholeskyReportsTheFirstMinorThatIsNotPositive) {
  arma::mat A = {{1.0, 2.0}, {2.0, 1.0}};  // eigenvalues 3 and −1
  EXPECT_EQ(cholesky_in_place(A), 2);
  arma::mat rectangular(2, 3, arma::fill::ones);
  EXPECT_THROW(cholesky_in_place(rectangular), InvalidArgument);
}

TEST(Linalg, SymmetrizeFromUpperRestoresAFactoredMatrixBitForBit) {
  // Sizes around and across the 64-wide blocks.
  for (const arma::uword n : {1U, 2U, 63U, 64U, 65U, 150U, 201U}) {
    arma::arma_rng::set_seed(n);
    const arma::mat B = arma::randn(n, n);
    const arma::mat S = B * B.t() + static_cast<double>(n) * arma::eye(n, n);
    const arma::mat symmetric = arma::symmatu(S);  // exactly symmetric
    arma::mat A = symmetric;
    const arma::vec diagonal = A.diag();
    ASSERT_EQ(cholesky_in_place(A), 0);
    symmetrize_from_upper(A);
    A.diag() = diagonal;
    EXPECT_TRUE(arma::approx_equal(A, symmetric, "absdiff", 0.0)) << "n = " << n;
  }
}

TEST(Linalg, SymmetrizeFromUpperCopiesTheUpperTriangleDown) {
  arma::mat A = {{1.0, 2.0, 3.0}, {9.0, 4.0, 5.0}, {9.0, 9.0, 6.0}};
  symmetrize_from_upper(A);
  const arma::mat expected = {{1.0, 2.0, 3.0}, {2.0, 4.0, 5.0}, {3.0, 5.0, 6.0}};
  EXPECT_TRUE(arma::approx_equal(A, expected, "absdiff", 0.0));
  arma::mat rectangular(2, 3);
  EXPECT_THROW(symmetrize_from_upper(rectangular), InvalidArgument);
}

}  // namespace
}  // namespace kexp::linalg
