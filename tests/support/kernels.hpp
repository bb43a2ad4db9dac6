// Test support for kernels: sample points, the naive pairwise Gram matrix, and the
// validity check that `kexp check-kernel` runs.
#pragma once

#include <gtest/gtest.h>

#include <armadillo>
#include <cstdint>
#include <random>
#include <vector>

#include "check/kernel_check.hpp"
#include "kexp/kexp.hpp"

namespace kexp::test {

/// d × n points with independent entries uniform in [lo, hi), from `seed`.
inline arma::mat uniform_points(std::size_t d, std::size_t n, std::uint64_t seed, double lo = -1.0,
                                double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  arma::mat X(d, n);
  for (double& v : X) v = u(rng);
  return X;
}

/// K(X, Z) by k(xᵢ, zⱼ) for every pair, one evaluate() at a time.
inline arma::mat naive_gram(const Kernel& k, const arma::mat& X, const arma::mat& Z) {
  arma::mat K(X.n_cols, Z.n_cols);
  for (arma::uword j = 0; j < Z.n_cols; ++j)
    for (arma::uword i = 0; i < X.n_cols; ++i)
      K(i, j) = k.evaluate(arma::vec(X.col(i)), arma::vec(Z.col(j)));
  return K;
}

/// The blocked Gram matrix equals the pairwise evaluation, for sizes that are not
/// multiples of the block (X ≠ Z: 300 × 517; X = Z: 517 × 517), to `tol` relative to
/// max |K|.
inline void expect_blocked_gram_matches_naive(const Kernel& k, std::size_t d, double tol,
                                              double spread = 1.0) {
  const arma::mat X = spread * uniform_points(d, 300, 11);
  const arma::mat Z = spread * uniform_points(d, 517, 12);
  arma::mat K;
  k.gram(X, Z, K);
  const arma::mat naive = naive_gram(k, X, Z);
  ASSERT_EQ(K.n_rows, 300U);
  ASSERT_EQ(K.n_cols, 517U);
  const double scale = std::max(1.0, arma::abs(naive).max());
  EXPECT_LE(arma::abs(K - naive).max(), tol * scale) << "K(X, Z), X ≠ Z";

  arma::mat S;
  k.gram(Z, S);
  const arma::mat naive_s = naive_gram(k, Z, Z);
  const double scale_s = std::max(1.0, arma::abs(naive_s).max());
  EXPECT_LE(arma::abs(S - naive_s).max(), tol * scale_s) << "K(X, X)";
  EXPECT_TRUE(arma::approx_equal(S, S.t(), "absdiff", 0.0)) << "K(X, X) is exactly symmetric";
  EXPECT_LE(arma::abs(k.diagonal(Z) - naive_s.diag()).max(), tol * scale_s) << "diagonal";
}

/// The check of `kexp check-kernel` on n N(0, 1) points in d dimensions.
inline core::KernelCheck check_on_random_points(const Kernel& k, std::size_t d = 5,
                                                std::size_t n = 150, std::uint64_t seed = 3,
                                                double spread = 1.0) {
  return core::check_kernel(k, spread * core::sample_points(d, n, seed), "under test");
}

/// Kernel::gram_gradient against central differences in log θ: for each hyperparameter j,
/// (K(θ·e^{εe_j}) − K(θ·e^{−εe_j}))/(2ε) with ε = 1e-5, whose error is O(ε²) ≈ 1e-10
/// relative plus rounding ≈ 1e-11: within 1e-7 of max(1, max |∂K|). Also: the slices are
/// exactly symmetric, and with_hyperparameters at the kernel's own values gives its K.
inline void expect_gradient_matches_differences(const Kernel& k, const arma::mat& X) {
  ASSERT_TRUE(k.learnable());
  const std::vector<Hyperparameter> hyper = k.hyperparameters();
  arma::vec theta(hyper.size());
  for (std::size_t j = 0; j < hyper.size(); ++j) theta[j] = hyper[j].value;
  arma::cube dK;
  k.gram_gradient(X, dK);
  ASSERT_EQ(dK.n_slices, hyper.size());
  ASSERT_EQ(dK.n_rows, X.n_cols);
  arma::mat K, same;
  k.gram(X, K);
  k.with_hyperparameters(theta)->gram(X, same);
  EXPECT_LE(arma::abs(K - same).max(), 1e-15 * std::max(1.0, arma::abs(K).max()));
  const double eps = 1e-5;
  for (std::size_t j = 0; j < hyper.size(); ++j) {
    arma::vec up = theta, down = theta;
    up[j] *= std::exp(eps);
    down[j] *= std::exp(-eps);
    arma::mat K_up, K_down;
    k.with_hyperparameters(up)->gram(X, K_up);
    k.with_hyperparameters(down)->gram(X, K_down);
    const arma::mat differences = (K_up - K_down) / (2.0 * eps);
    const double scale = std::max(1.0, arma::abs(dK.slice(j)).max());
    EXPECT_LE(arma::abs(dK.slice(j) - differences).max(), 1e-7 * scale) << hyper[j].name;
    EXPECT_TRUE(arma::approx_equal(dK.slice(j), dK.slice(j).t(), "absdiff", 0.0))
        << hyper[j].name << ": the slice is exactly symmetric";
  }
}

}  // namespace kexp::test
