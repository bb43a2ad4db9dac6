// The SDK's linear algebra: in-place Cholesky (also of a shifted matrix, with the error it
// throws), its solve and log-determinant, the restore of a symmetric matrix from its upper
// triangle (and the loan that does it on scope exit), and the band reduction A = QBQᵀ that
// solves shifted systems, on hand-checked cases and against direct solves. The blocked
// Cholesky of large matrices, with small blocks and strips, against dpotrf.
#include "kexp/linalg.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/parallel.hpp"
#include "sdk/blocked_cholesky.hpp"

namespace kexp::linalg {
namespace {

/// dpotrf's lower factor and info on A.
int lapack_cholesky(arma::mat& A) {
  char lower = 'L';
  auto n = static_cast<arma::blas_int>(A.n_rows);
  arma::blas_int info = 0;
  arma::lapack::potrf(&lower, &n, A.memptr(), &n, &info);
  return info;
}

// A·B by columns of B on kexp's threads: A·B to rounding, across the 256-column tiles and
// into memory of the caller's, with the same bits on one thread and on three.
TEST(Linalg, MultiplyByColumnsIsTheProductWithTheSameBitsOnAnyThreads) {
  arma::arma_rng::set_seed(4);
  const arma::mat A = arma::randn<arma::mat>(40, 70), B = arma::randn<arma::mat>(70, 600);
  arma::mat one, three;
  set_thread_count(1);
  multiply_by_columns(A, B, one);
  set_thread_count(3);
  multiply_by_columns(A, B, three);
  set_thread_count(0);
  ASSERT_EQ(one.n_rows, 40U);
  ASSERT_EQ(one.n_cols, 600U);
  EXPECT_TRUE(arma::approx_equal(one, three, "absdiff", 0.0));
  // k = 70 products in another order: k·ε·max Σ|aᵢ||bⱼ|
  const double bound =
      70 * std::numeric_limits<double>::epsilon() * arma::abs(A).max() * arma::abs(B).max() * 70;
  EXPECT_LE(arma::abs(one - A * B).max(), bound);
  // into columns of a larger matrix, leaving the others alone
  arma::mat host(40, 610, arma::fill::value(7.0));
  arma::mat view(host.colptr(5), 40, 600, /*copy_aux_mem=*/false, /*strict=*/true);
  multiply_by_columns(A, B, view);
  EXPECT_TRUE(arma::approx_equal(host.cols(5, 604), one, "absdiff", 0.0));
  EXPECT_TRUE(arma::all(arma::vectorise(host.cols(0, 4)) == 7.0));
  EXPECT_TRUE(arma::all(arma::vectorise(host.cols(605, 609)) == 7.0));
  arma::mat empty;
  multiply_by_columns(A, arma::mat(70, 0), empty);
  EXPECT_EQ(empty.n_rows, 40U);
  EXPECT_EQ(empty.n_cols, 0U);
  EXPECT_THROW(multiply_by_columns(A, B.t(), empty), InvalidArgument);
}

TEST(Linalg, BlockedCholeskyIsDpotrfsFactorWhateverTheBlocksAndStrips) {
  arma::arma_rng::set_seed(3);
  const arma::uword n = 37;
  const arma::mat G = arma::randn<arma::mat>(n, n);
  const arma::mat A = G * G.t() + 0.5 * arma::eye(n, n);
  arma::mat expected = A;
  ASSERT_EQ(lapack_cholesky(expected), 0);
  const double eps = std::numeric_limits<double>::epsilon(), size = static_cast<double>(n);
  const double kappa = arma::cond(A), norm_L = std::sqrt(arma::norm(A));  // ‖L‖₂ = √‖A‖₂
  // blocks that divide n and that do not, strips narrower and wider than the rest
  for (const auto& [block, strip] : std::vector<std::pair<int, int>>{
           {8, 5}, {8, 64}, {5, 3}, {1, 1}, {37, 4}, {64, 64}, {16, 16}}) {
    arma::mat L = A;
    L(0, n - 1) = 123.0;  // the strict upper triangle is left as it was
    ASSERT_EQ(detail::blocked_cholesky(L.memptr(), static_cast<int>(n), block, strip), 0)
        << block << " " << strip;
    EXPECT_EQ(L(0, n - 1), 123.0);
    const arma::mat lower = arma::trimatl(L), lapack = arma::trimatl(expected);
    // two backward-stable factors: max|ΔL| ≤ ‖ΔL‖_F ≲ n·ε·κ(A)·‖L‖₂ (Sun); κ ≈ 300 here
    EXPECT_LT(arma::abs(lower - lapack).max(), size * eps * kappa * norm_L)
        << block << " " << strip;
    // |LLᵀ − A| ≤ γ_{n+1}|L||Lᵀ| ≤ (n+1)·ε/2·max aᵢᵢ (Higham 10.3); forming LLᵀ adds as much
    EXPECT_LT(arma::abs(lower * lower.t() - A).max(), (size + 1) * eps * arma::abs(A).max());
  }
}

TEST(Linalg, BlockedCholeskyReportsTheMinorDpotrfReports) {
  arma::arma_rng::set_seed(4);
  const arma::uword n = 30;
  const arma::mat G = arma::randn<arma::mat>(n, n);
  for (const arma::uword broken : {0U, 7U, 8U, 20U, 29U}) {
    arma::mat A = G * G.t() + arma::eye(n, n);
    A(broken, broken) = -1.0;  // leading minor broken + 1 is the first not positive definite
    arma::mat expected = A, L = A;
    const int info = lapack_cholesky(expected);
    EXPECT_EQ(info, static_cast<int>(broken) + 1);
    EXPECT_EQ(detail::blocked_cholesky(L.memptr(), static_cast<int>(n), 8, 5), info) << broken;
  }
}

TEST(Linalg, CholeskyRefusesNonFiniteEntriesInsteadOfFactoringGarbage) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const double bad : {inf, std::nan("")}) {
    arma::mat A = {{bad, 1.0}, {1.0, 2.0}};
    EXPECT_THROW((void)linalg::cholesky_in_place(A), NumericError) << bad;
    // Off the diagonal: an error, or a minor reported as not positive definite (4 − ∞ ≤ 0),
    // never success.
    arma::mat B = {{4.0, bad}, {bad, 4.0}};
    int info = 0;
    try {
      info = linalg::cholesky_in_place(B);
    } catch (const NumericError&) {
      info = -1;
    }
    EXPECT_NE(info, 0) << bad;
  }
  arma::mat ok = {{4.0, 2.0}, {2.0, 5.0}};  // L = [2 0; 1 2]
  ASSERT_EQ(linalg::cholesky_in_place(ok), 0);
  EXPECT_DOUBLE_EQ(ok(0, 0), 2.0);
  EXPECT_DOUBLE_EQ(ok(1, 0), 1.0);
  EXPECT_DOUBLE_EQ(ok(1, 1), 2.0);
}

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

TEST(Linalg, ShiftedCholeskyOfHandComputedMatrices) {
  // K = [[4, 2], [2, 3]], λ = 1: K + λI = [[5, 2], [2, 4]] = LLᵀ with L₁₁ = √5,
  // L₂₁ = 2/√5, L₂₂ = √(4 − 4/5) = 4/√5.
  arma::mat K = {{4.0, 2.0}, {2.0, 3.0}};
  cholesky_shifted_in_place(K, 1.0);
  EXPECT_DOUBLE_EQ(K(0, 0), std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(K(1, 0), 2.0 / std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(K(1, 1), 4.0 / std::sqrt(5.0));
  EXPECT_DOUBLE_EQ(K(0, 1), 2.0);  // the strict upper triangle is left as it was
  EXPECT_NEAR(cholesky_log_det(K), std::log(16.0), 1e-14);  // det = 20 − 4

  // 3 × 3, λ = 1: K + λI = [[4, 12, −16], [12, 37, −43], [−16, −43, 98]] = LLᵀ with
  // L = [[2, 0, 0], [6, 1, 0], [−8, 5, 3]], all exact in binary.
  arma::mat K3 = {{3.0, 12.0, -16.0}, {12.0, 36.0, -43.0}, {-16.0, -43.0, 97.0}};
  cholesky_shifted_in_place(K3, 1.0);
  const arma::mat L = {{2.0, 0.0, 0.0}, {6.0, 1.0, 0.0}, {-8.0, 5.0, 3.0}};
  EXPECT_TRUE(arma::approx_equal(arma::mat(arma::trimatl(K3)), L, "absdiff", 0.0));
  EXPECT_EQ(K3(0, 1), 12.0);
  EXPECT_EQ(K3(0, 2), -16.0);
  EXPECT_EQ(K3(1, 2), -43.0);
  // (K + λI)x = b for x = [1, −1, 2]: b = [4 − 12 − 32, 12 − 37 − 86, −16 + 43 + 196].
  arma::mat b = arma::vec{-40.0, -111.0, 223.0};
  cholesky_solve(K3, b);
  EXPECT_NEAR(b(0, 0), 1.0, 1e-12);
  EXPECT_NEAR(b(1, 0), -1.0, 1e-12);
  EXPECT_NEAR(b(2, 0), 2.0, 1e-12);
}

TEST(Linalg, ShiftedCholeskyIsTheShiftThenTheFactorBitForBit) {
  arma::arma_rng::set_seed(3);
  const arma::mat B = arma::randn(70, 70);
  const arma::mat K = arma::symmatu(B * B.t());
  arma::mat by_hand = K;
  by_hand.diag() += 1e-3;
  ASSERT_EQ(cholesky_in_place(by_hand), 0);
  arma::mat helper = K;
  cholesky_shifted_in_place(helper, 1e-3);
  EXPECT_TRUE(arma::approx_equal(helper, by_hand, "absdiff", 0.0));
}

TEST(Linalg, ShiftedCholeskyNamesTheMinorTheShiftAndTheRemedy) {
  // Eigenvalues 3 and −1: K + 0.5·I has eigenvalues 3.5 and −0.5, and its leading minor of
  // order 2 (the determinant 1.5² − 4) is negative.
  const arma::mat K = {{1.0, 2.0}, {2.0, 1.0}};
  arma::mat A = K;
  try {
    cholesky_shifted_in_place(A, 0.5);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_STREQ(e.what(),
                 "K + λI is not positive definite (leading minor 2 of 2, λ = 0.5): use a larger "
                 "lambda, or a valid (PSD) kernel");
  }
  A = K;
  try {
    cholesky_shifted_in_place(A, 0.25, {"C = K + noise·I", "noise", "noise"});
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_STREQ(e.what(),
                 "C = K + noise·I is not positive definite (leading minor 2 of 2, noise = 0.25): "
                 "use a larger noise, or a valid (PSD) kernel");
  }
  // A larger shift makes it positive definite: 1.5 > 1.
  A = K;
  EXPECT_NO_THROW(cholesky_shifted_in_place(A, 1.5));
  // The first diagonal entry alone: −1 + 0.5 < 0 is the leading minor of order 1.
  arma::mat negative = {{-1.0, 0.0}, {0.0, 1.0}};
  try {
    cholesky_shifted_in_place(negative, 0.5);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("(leading minor 1 of 2, λ = 0.5)"));
  }
  arma::mat rectangular(2, 3, arma::fill::ones);
  EXPECT_THROW(cholesky_shifted_in_place(rectangular, 1.0), InvalidArgument);
  EXPECT_TRUE(arma::approx_equal(rectangular, arma::mat(2, 3, arma::fill::ones), "absdiff", 0.0));
}

TEST(Linalg, ShiftedCholeskyOnALoanGivesKBackAfterAnError) {
  // A solver that must hand K back lends its lower triangle; the error unwinds the loan.
  const arma::mat K = {{1.0, 2.0, 0.5}, {2.0, 1.0, 0.25}, {0.5, 0.25, 3.0}};
  arma::mat A = K;
  try {
    const LowerTriangleLoan loan(A, true);
    cholesky_shifted_in_place(A, 0.5);
    FAIL() << "no error";
  } catch (const NumericError&) {
  }
  EXPECT_TRUE(arma::approx_equal(A, K, "absdiff", 0.0));
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

TEST(Linalg, LowerTriangleLoanGivesKBackOnEveryExit) {
  arma::arma_rng::set_seed(12);
  const arma::mat B = arma::randn(90, 90);
  const arma::mat K = arma::symmatu(B * B.t() + 90.0 * arma::eye(90, 90));
  arma::mat A = K;
  {
    const LowerTriangleLoan loan(A, true);
    EXPECT_EQ(loan.bytes(), 8.0 * 90);
    A.diag() += 1.0;
    ASSERT_EQ(cholesky_in_place(A), 0);
  }
  EXPECT_TRUE(arma::approx_equal(A, K, "absdiff", 0.0));
  // Also when the work in between throws.
  try {
    const LowerTriangleLoan loan(A, true);
    A.diag() += 1.0;
    ASSERT_EQ(cholesky_in_place(A), 0);
    throw NumericError("thrown while K is lent");
  } catch (const NumericError&) {
  }
  EXPECT_TRUE(arma::approx_equal(A, K, "absdiff", 0.0));
  // Not asked to give K back: the factor stays, and nothing is saved.
  {
    const LowerTriangleLoan loan(A, false);
    EXPECT_EQ(loan.bytes(), 0.0);
    ASSERT_EQ(cholesky_in_place(A), 0);
  }
  EXPECT_FALSE(arma::approx_equal(A, K, "absdiff", 0.0));
}

TEST(Linalg, SymmetrizeFromUpperCopiesTheUpperTriangleDown) {
  arma::mat A = {{1.0, 2.0, 3.0}, {9.0, 4.0, 5.0}, {9.0, 9.0, 6.0}};
  symmetrize_from_upper(A);
  const arma::mat expected = {{1.0, 2.0, 3.0}, {2.0, 4.0, 5.0}, {3.0, 5.0, 6.0}};
  EXPECT_TRUE(arma::approx_equal(A, expected, "absdiff", 0.0));
  arma::mat rectangular(2, 3);
  EXPECT_THROW(symmetrize_from_upper(rectangular), InvalidArgument);
}

/// An exactly symmetric positive definite n × n matrix with a spread of eigenvalues.
arma::mat spd(arma::uword n, arma::uword seed) {
  arma::arma_rng::set_seed(seed);
  const arma::mat B = arma::randn(n, n);
  return arma::symmatu(B * B.t() / static_cast<double>(n) + 1e-3 * arma::eye(n, n));
}

TEST(BandReduction, OfATwoByTwoMatrixIsTheMatrixItself) {
  // n ≤ b + 1: B = A and Q = I. (A + 1·I)x = b with A = [[4, 2], [2, 10]]:
  // [[5, 2], [2, 11]]x = [9, 24] has x = [1, 2].
  arma::mat A = {{4.0, 2.0}, {2.0, 10.0}};
  const BandReduction r(A, 1);
  EXPECT_EQ(r.bandwidth(), 1U);
  arma::vec x = {9.0, 24.0};
  ASSERT_EQ(r.solve_shifted(1.0, x), 0);
  EXPECT_NEAR(x[0], 1.0, 1e-14);
  EXPECT_NEAR(x[1], 2.0, 1e-14);
}

TEST(BandReduction, SolvesShiftedSystemsAsADirectSolveDoes) {
  // Sizes below, at and across the bandwidth and its multiples, and shifts over six
  // decades; each against the dense solve of (A + λI)x = y.
  for (const arma::uword bandwidth : {1U, 4U, 64U}) {
    for (const arma::uword n : {1U, 2U, 5U, 6U, 9U, 13U, 64U, 65U, 66U, 150U, 301U}) {
      const arma::mat A = spd(n, n + bandwidth);
      arma::mat work = A;
      const BandReduction r(work, bandwidth);
      EXPECT_EQ(r.size(), n);
      const arma::vec y = arma::randn(n);
      for (const double shift : {1e-6, 1e-3, 1.0}) {
        const arma::mat shifted = A + shift * arma::eye(n, n);
        const arma::vec direct = arma::solve(shifted, y, arma::solve_opts::likely_sympd);
        arma::vec x = y;
        ASSERT_EQ(r.solve_shifted(shift, x), 0);
        // Both are backward stable: they agree to about cond(A + λI)·ε.
        const double tolerance = 1e-13 * arma::cond(shifted);
        EXPECT_LE(arma::norm(x - direct) / arma::norm(direct), tolerance)
            << "n = " << n << ", b = " << bandwidth << ", λ = " << shift;
        const double eps = std::numeric_limits<double>::epsilon(), size = static_cast<double>(n);
        // S = A + λI: backward-stable x̂ (n·ε) plus forming r ((n+1)·ε): ‖r‖ ≤ 2(n+1)·ε·‖S‖‖x̂‖
        EXPECT_LE(arma::norm(shifted * x - y) / arma::norm(y),
                  2 * (size + 1) * eps * arma::norm(shifted) * arma::norm(x) / arma::norm(y))
            << "n = " << n << ", b = " << bandwidth << ", λ = " << shift;
      }
    }
  }
}

TEST(BandReduction, QIsOrthogonalAndQtAQIsBanded) {
  const arma::uword n = 40, bandwidth = 6;
  const arma::mat A = spd(n, 11);
  arma::mat work = A;
  const BandReduction r(work, bandwidth);
  // Q as a dense matrix, a column at a time.
  arma::mat Q(n, n);
  for (arma::uword j = 0; j < n; ++j) {
    arma::vec e(n, arma::fill::zeros);
    e[j] = 1.0;
    r.apply_q(e);
    Q.col(j) = e;
  }
  const double eps = std::numeric_limits<double>::epsilon(), size = static_cast<double>(n);
  // Q̂ applies ⌈(n − b)/b⌉ block reflectors of length ≤ n: |Q̂ᵀQ̂ − I| ≲ n·ε (Higham 19.3)
  EXPECT_LE(arma::abs(Q.t() * Q - arma::eye(n, n)).max(), size * eps);
  const arma::mat B = Q.t() * A * Q;
  double outside = 0;
  for (arma::uword j = 0; j < n; ++j) {
    for (arma::uword i = 0; i < n; ++i) {
      if (i > j + bandwidth || j > i + bandwidth) outside = std::max(outside, std::abs(B(i, j)));
    }
  }
  // Q̂ off orthogonal by n·ε, and the two products: ‖Q̂ᵀAQ̂ − B‖₂ ≲ n·ε·‖A‖₂; ‖A‖₂ ≈ 4.3
  EXPECT_LE(outside, size * eps * arma::norm(A));
  // Qᵀ undoes Q.
  const arma::vec x = arma::randn(n);
  arma::vec round_trip = x;
  r.apply_q(round_trip);
  r.apply_qt(round_trip);
  // Q and Qᵀ each backward stable to n·ε: ‖QᵀQx − x‖_∞ ≤ ‖·‖₂ ≤ 2·n·ε·‖x‖₂
  EXPECT_LE(arma::abs(round_trip - x).max(), 2 * size * eps * arma::norm(x));
}

TEST(BandReduction, LeavesTheStrictUpperTriangleAsItWas) {
  const arma::mat A = spd(100, 5);
  arma::mat work = A;
  const arma::vec diagonal = A.diag();
  const BandReduction r(work, 8);
  EXPECT_TRUE(arma::approx_equal(arma::trimatu(work, 1), arma::trimatu(A, 1), "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(work, A, "absdiff", 0.0));  // the lower triangle was used
  symmetrize_from_upper(work);
  work.diag() = diagonal;
  EXPECT_TRUE(arma::approx_equal(work, A, "absdiff", 0.0));
  // B, the Householder vectors (about n²/2) and the block factors.
  EXPECT_GE(r.bytes(), 8.0 * (100.0 - 8.0) * (100.0 - 8.0) / 2.0);
  EXPECT_LE(r.bytes(), 8.0 * (100.0 * 100.0 / 2.0 + 2.0 * 100.0 * 8.0));
}

TEST(BandReduction, ReportsAShiftThatIsNotPositiveDefinite) {
  arma::mat A = arma::diagmat(arma::vec{3.0, -1.0, 2.0, 5.0});  // eigenvalue −1
  arma::arma_rng::set_seed(3);
  const arma::mat Q0 = arma::orth(arma::randn(4, 4));
  A = arma::symmatu(Q0 * A * Q0.t());
  const BandReduction r(A, 1);
  arma::vec x = arma::ones(4);
  EXPECT_GT(r.solve_shifted(0.5, x), 0);  // eigenvalue −0.5
  x = arma::ones(4);
  EXPECT_EQ(r.solve_shifted(1.5, x), 0);  // every eigenvalue now ≥ 0.5
}

TEST(BandReduction, RejectsWhatItCannotReduce) {
  arma::mat rectangular(3, 4, arma::fill::ones);
  EXPECT_THROW(BandReduction(rectangular, 2), InvalidArgument);
  arma::mat A = arma::eye(3, 3);
  EXPECT_THROW(BandReduction(A, 0), InvalidArgument);
  const BandReduction r(A, 2);
  arma::vec wrong(4, arma::fill::ones);
  EXPECT_THROW(r.apply_q(wrong), InvalidArgument);
  EXPECT_THROW(r.apply_qt(wrong), InvalidArgument);
  EXPECT_THROW((void)r.solve_band(0.0, wrong), InvalidArgument);
}

/// A Gaussian Gram matrix of n random points in 3 dimensions, width σ.
arma::mat gaussian_gram_of_random_points(arma::uword n, double sigma, unsigned seed) {
  arma::arma_rng::set_seed(seed);
  const arma::mat X = arma::randn<arma::mat>(3, n);
  arma::mat K(n, n);
  for (arma::uword i = 0; i < n; ++i) {
    for (arma::uword j = 0; j < n; ++j) {
      K(i, j) = std::exp(-arma::accu(arma::square(X.col(i) - X.col(j))) / (2 * sigma * sigma));
    }
  }
  return K;
}

/// ‖(A + shift·I)x − b‖∞ / (‖A + shift·I‖∞ ‖x‖∞): the backward error a float64 solve
/// keeps near ε = 1.1e-16 and a float32 one near 6e-8.
double backward_error(const arma::mat& A, double shift, const arma::vec& x, const arma::vec& b) {
  arma::mat S = A;
  S.diag() += shift;
  return arma::norm(S * x - b, "inf") / (arma::norm(S, "inf") * arma::norm(x, "inf"));
}

TEST(SolveShifted, EachPrecisionSolvesAWellConditionedSystemToItsAccuracy) {
  const arma::mat K = gaussian_gram_of_random_points(200, 1.0, 5);
  const arma::vec y = arma::linspace(-1, 1, 200);
  const double lambda = 0.1;  // κ(K + λI) ≤ (λmax + λ)/λ, a few hundred
  arma::mat A = K, b = y;
  EXPECT_EQ(solve_shifted(A, lambda, b, Precision::Double).refinement_steps, 0);
  const arma::vec x_double = b.col(0);

  arma::mat As = K, bs = y;
  const ShiftedSolve single = solve_shifted(As, lambda, bs, Precision::Single);
  EXPECT_TRUE(arma::approx_equal(As, K, "absdiff", 0.0)) << "single wrote A";
  EXPECT_FALSE(single.fell_back);
  EXPECT_EQ(single.bytes, 4.0 * (200 * 200 + 200));
  const double eps32 = std::numeric_limits<float>::epsilon();
  EXPECT_LT(backward_error(K, lambda, bs.col(0), y), 200 * eps32);
  EXPECT_GT(arma::norm(bs.col(0) - x_double, "inf"), 1e-9) << "float32 is not float64";

  arma::mat Am = K, bm = y;
  const ShiftedSolve mixed = solve_shifted(Am, lambda, bm, Precision::Mixed);
  EXPECT_TRUE(arma::approx_equal(Am, K, "absdiff", 0.0)) << "mixed did not give A back";
  EXPECT_FALSE(mixed.fell_back);
  EXPECT_GE(mixed.refinement_steps, 1);
  EXPECT_LE(mixed.refinement_steps, 5);
  const double eps = std::numeric_limits<double>::epsilon();
  // dsposv's test: ‖r‖∞ ≤ ‖x‖∞ ‖A‖∞ ε √n.
  EXPECT_LT(backward_error(K, lambda, bm.col(0), y), eps * std::sqrt(200.0));
  // And the solution of a float64 solve to κ·ε: κ here is below 10⁴.
  EXPECT_LT(arma::norm(bm.col(0) - x_double, "inf") / arma::norm(x_double, "inf"), 1e4 * eps);
}

TEST(SolveShifted, MixedFallsBackToFloat64WhereFloat32CannotHoldTheMatrix) {
  // A = 11ᵀ + 10⁻¹⁰ I: positive definite, but in float32 1 + 10⁻¹⁰ rounds to 1 and the
  // second leading minor is 0.
  const arma::uword n = 6;
  const arma::mat ones(n, n, arma::fill::ones);
  const arma::vec y = arma::linspace(1, 2, n);
  arma::mat A = ones, b = y;
  const ShiftedSolve mixed = solve_shifted(A, 1e-10, b, Precision::Mixed);
  EXPECT_TRUE(mixed.fell_back);
  EXPECT_TRUE(arma::approx_equal(arma::vec(A.diag()), arma::vec(ones.diag()), "absdiff", 0.0));
  // As accurate as a float64 solve: backward error near ε.
  EXPECT_LT(backward_error(ones, 1e-10, b.col(0), y), 10 * std::numeric_limits<double>::epsilon());

  arma::mat As = ones, bs = y;
  try {
    (void)solve_shifted(As, 1e-10, bs, Precision::Single);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(),
                ::testing::HasSubstr("K + λI is not positive definite in single precision "
                                     "(leading minor 2 of 6, λ = 1e-10): use precision: mixed"));
  }
}

TEST(SolveShifted, MixedFallsBackWhenFloat32CannotFactorAnIllConditionedMatrix) {
  // A Gaussian Gram matrix of 300 points with λ = 10⁻¹⁰: κ near 10¹⁰, past float32's 10⁷,
  // so float32 cannot factor it; the float64 solve still reaches its own accuracy.
  const arma::mat K = gaussian_gram_of_random_points(300, 2.0, 9);
  const arma::vec y = arma::linspace(-1, 1, 300);
  arma::mat A = K, b = y;
  const ShiftedSolve mixed = solve_shifted(A, 1e-10, b, Precision::Mixed);
  EXPECT_TRUE(mixed.fell_back);
  arma::mat Ad = K, bd = y;
  (void)solve_shifted(Ad, 1e-10, bd, Precision::Double);
  EXPECT_TRUE(arma::approx_equal(b, bd, "absdiff", 0.0)) << "the fallback is dpotrf and dpotrs";
}

TEST(SolveShifted, OneColumnByBlocksSolvesAsSpotrsDoesForManyColumns) {
  // One column is solved by blocks of 256 (STRSV and SGEMV), several by spotrs: n = 700
  // has two whole blocks and a part. Both are float32 solves of one factor, so they agree
  // to float32's rounding, and each has a float32 backward error.
  const arma::uword n = 700;
  const arma::mat K = gaussian_gram_of_random_points(n, 1.0, 13);
  const arma::vec y = arma::sin(arma::linspace(0, 20, n));
  arma::mat A1 = K, one = y;
  (void)solve_shifted(A1, 0.1, one, Precision::Single);
  arma::mat A2 = K, two = arma::join_rows(y, y);
  (void)solve_shifted(A2, 0.1, two, Precision::Single);
  const double eps32 = std::numeric_limits<float>::epsilon();
  EXPECT_LT(backward_error(K, 0.1, one.col(0), y), 100 * eps32);
  EXPECT_LT(backward_error(K, 0.1, two.col(0), y), 100 * eps32);
  const double scale = arma::norm(two.col(0), "inf");
  EXPECT_LT(arma::norm(one.col(0) - two.col(0), "inf") / scale, 1e-3);
  EXPECT_GT(arma::norm(one.col(0) - two.col(0), "inf"), 0.0) << "not two paths";
}

TEST(ShiftedFactor, MixedSolvesManyRightHandSidesToFloat64AccuracyFromOneFloat32Factor) {
  const arma::uword n = 250;
  const arma::mat K = gaussian_gram_of_random_points(n, 1.0, 11);
  const double noise = 0.05;  // κ(K + noise·I) ≤ (λmax + noise)/noise, a few thousand
  arma::arma_rng::set_seed(3);
  const arma::mat B(n, 40, arma::fill::randn);
  arma::mat Ad = K, Bd = B;
  ShiftedFactor in_double(Ad, noise, Precision::Double);
  EXPECT_EQ(in_double.solve(Bd), 0);
  EXPECT_EQ(in_double.bytes(), 0.0);

  arma::mat Am = K, Bm = B;
  ShiftedFactor mixed(Am, noise, Precision::Mixed);
  const int steps = mixed.solve(Bm);
  EXPECT_GE(steps, 1);
  EXPECT_LE(steps, 6);
  EXPECT_FALSE(mixed.fell_back());
  EXPECT_EQ(mixed.bytes(), 4.0 * n * n);
  EXPECT_TRUE(arma::approx_equal(Am, K, "absdiff", 0.0)) << "mixed wrote A";
  const double eps = std::numeric_limits<double>::epsilon();
  for (arma::uword c = 0; c < B.n_cols; ++c) {
    // dsposv's test for each column, and the float64 solution to κ·ε (κ below 10⁵)
    EXPECT_LT(backward_error(K, noise, Bm.col(c), B.col(c)), eps * std::sqrt(double(n))) << c;
    EXPECT_LT(arma::norm(Bm.col(c) - Bd.col(c), "inf") / arma::norm(Bd.col(c), "inf"), 1e5 * eps)
        << c;
  }
  // A second solve by the same factor: the factor is kept, A is still read for residuals.
  arma::vec y = arma::linspace(-1, 1, n);
  arma::mat ym = y, yd = y;
  EXPECT_GE(mixed.solve(ym), 1);
  in_double.solve(yd);
  EXPECT_LT(arma::norm(ym - yd, "inf") / arma::norm(yd, "inf"), 1e5 * eps);

  // log det from the float32 factor: the float32 Cholesky's backward error E, |E| ≲
  // n·ε₃₂·|K + noise·I|, moves log det by tr((K + noise·I)⁻¹E), at most n‖E‖₂/λmin. The
  // measured difference is far below that worst case; it is held to 10⁻³ here (absolute),
  // and must differ from float64's (it is float32's).
  const double difference = std::abs(mixed.log_det() - in_double.log_det());
  EXPECT_LT(difference, 1e-3) << in_double.log_det();
  EXPECT_GT(difference, 0.0);
  EXPECT_NEAR(in_double.log_det(), cholesky_log_det(Ad), 0.0);
}

TEST(ShiftedFactor, MixedFallsBackOnceAndEveryLaterSolveIsFloat64s) {
  // λ near 10⁻⁵: κ near 10⁸, past float32's 10⁷, where the float32 factorization of these
  // points still succeeds but refinement cannot converge (on Xeon-207: for λ from 4·10⁻⁶ to
  // 8·10⁻⁶; from 3·10⁻⁶ down the factorization fails). The first λ of the scan that does
  // so is the case: another BLAS may round the factorization a little differently.
  const arma::mat K = gaussian_gram_of_random_points(300, 2.0, 9);
  const arma::vec y = arma::linspace(-1, 1, 300);
  double lambda = 0;
  for (const double candidate : {1e-5, 8e-6, 6e-6, 5e-6, 4e-6, 3e-6}) {
    arma::mat A = K, c = y;
    ShiftedFactor probe(A, candidate, Precision::Mixed);
    if (!probe.fell_back() && probe.solve(c) == kMaxRefinementSteps && probe.fell_back()) {
      lambda = candidate;
      break;
    }
  }
  ASSERT_GT(lambda, 0.0) << "no λ of the scan factors in float32 and then fails to refine";
  arma::mat Am = K, b = y;
  ShiftedFactor mixed(Am, lambda, Precision::Mixed);
  EXPECT_FALSE(mixed.fell_back());
  EXPECT_EQ(mixed.solve(b), kMaxRefinementSteps);
  EXPECT_TRUE(mixed.fell_back());
  EXPECT_EQ(mixed.bytes(), 0.0) << "the float32 factor is let go";
  arma::mat Ad = K, bd = y;
  ShiftedFactor in_double(Ad, lambda, Precision::Double);
  in_double.solve(bd);
  EXPECT_TRUE(arma::approx_equal(b, bd, "absdiff", 0.0));
  arma::mat again = y;
  EXPECT_EQ(mixed.solve(again), 0) << "no float32 step after the fallback";
  EXPECT_TRUE(arma::approx_equal(again, bd, "absdiff", 0.0));
  EXPECT_EQ(mixed.log_det(), in_double.log_det());
}

TEST(ShiftedFactor, SingleRefusesWhatFloat32CannotFactorAndMixedTakesFloat64) {
  const arma::mat ones(6, 6, arma::fill::ones);  // 1 + 10⁻¹⁰ is 1 in float32
  arma::mat As = ones;
  const ShiftedMatrixNames names{"C = K + noise·I", "noise", "noise"};
  try {
    ShiftedFactor single(As, 1e-10, Precision::Single, names);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("C = K + noise·I is not positive definite in "
                                               "single precision (leading minor 2 of 6"));
  }
  arma::mat Am = ones;
  ShiftedFactor mixed(Am, 1e-10, Precision::Mixed, names);
  EXPECT_TRUE(mixed.fell_back());
  // det(11ᵀ + εI) = ε⁵(6 + ε): log det = 5 log ε + log(6 + ε).
  EXPECT_NEAR(mixed.log_det(), 5 * std::log(1e-10) + std::log(6 + 1e-10), 1e-4);
}

TEST(SolveShifted, RejectsMismatchedShapesAndUnknownPrecisions) {
  arma::mat A(3, 3, arma::fill::eye), b(2, 1, arma::fill::ones);
  EXPECT_THROW((void)solve_shifted(A, 0, b, Precision::Mixed), InvalidArgument);
  EXPECT_EQ(precision_named("mixed"), Precision::Mixed);
  EXPECT_EQ(precision_named("single"), Precision::Single);
  EXPECT_EQ(precision_named("double"), Precision::Double);
  EXPECT_THROW((void)precision_named("half"), InvalidArgument);
}

TEST(Linalg, LowerTriangularSolveReadsOnlyTheLowerTriangle) {
  // L = [2 0; 1 4]; the strict upper triangle holds garbage that must not be read.
  const arma::mat L = {{2.0, 99.0}, {1.0, 4.0}};
  arma::mat b = arma::vec{2.0, 9.0};  // L x = b: x = (1, 2)
  lower_triangular_solve(L, b, false);
  EXPECT_NEAR(b(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(b(1, 0), 2.0, 1e-15);
  arma::mat c = arma::vec{4.0, 8.0};  // Lᵀ x = c: [2 1; 0 4] x = c, x = (1, 2)
  lower_triangular_solve(L, c, true);
  EXPECT_NEAR(c(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(c(1, 0), 2.0, 1e-15);
  arma::mat wrong(3, 1, arma::fill::ones);
  EXPECT_THROW(lower_triangular_solve(L, wrong, false), InvalidArgument);
  const arma::mat singular = {{0.0, 0.0}, {1.0, 1.0}};
  arma::mat d = arma::vec{1.0, 1.0};
  EXPECT_THROW(lower_triangular_solve(singular, d, false), NumericError);
}

}  // namespace
}  // namespace kexp::linalg
