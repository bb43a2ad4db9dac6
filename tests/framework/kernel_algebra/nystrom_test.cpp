// Nyström features: with every training point a centre, ⟨φ(x), φ(z)⟩ = k(x, z) on the
// training points and primal ridge on φ predicts as kernel ridge; the map against
// k_m(x)ᵀ K_mm⁻¹ k_m(z) computed by hand elsewhere; centres distinct and the same from the
// same seed; the dual form is the kernel itself; and the errors (m above n, a kernel that
// is not PSD, a map used before its fit).
#include "kernel_algebra/nystrom.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "kexp/parallel.hpp"
#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::algebra {
namespace {

using test::make_kernel;
using test::uniform_points;
using ::testing::HasSubstr;

constexpr double kEps = std::numeric_limits<double>::epsilon();
/// The map floors K_mm's eigenvalues at 1e-12·λ_max: the condition number it works with.
double floored_condition(const arma::mat& K_mm) { return std::min(arma::cond(K_mm), 1e12); }

std::shared_ptr<Kernel> fitted(std::size_t m, bool kmeanspp, const arma::mat& X,
                               std::uint64_t seed = 3, double sigma = 0.8) {
  auto k = nystrom(make_kernel("gaussian", {{"sigma", std::to_string(sigma)}}), {m, kmeanspp});
  const arma::vec y(X.n_cols, arma::fill::zeros);
  k->fit(KernelFitData{&X, &y, seed});
  return k;
}

TEST(Nystrom, WithEveryPointACentreTheMapIsExactOnThem) {
  const arma::mat X = uniform_points(2, 40, 1);
  for (const bool kmeanspp : {false, true}) {
    const auto k = fitted(40, kmeanspp, X);
    arma::mat Phi, K;
    k->feature_map()->features(X, Phi);
    k->gram(X, K);
    ASSERT_EQ(Phi.n_rows, 40U);
    // Φ = K^{-1/2}K, a root of condition √κ: |ΦᵀΦ − K| ≤ m·ε·√κ·max|K|; κ ≈ 7e9, m = 40
    const double bound = 40 * kEps * std::sqrt(floored_condition(K)) * arma::abs(K).max();
    EXPECT_LE(arma::abs(Phi.t() * Phi - K).max(), bound) << "kmeans++ " << kmeanspp;
  }
}

TEST(Nystrom, TheMapIsTheProjectionOnTheCentres) {
  const arma::mat X = uniform_points(3, 200, 2);
  const auto base = make_kernel("gaussian", {{"sigma", "0.8"}});
  const auto k = fitted(25, true, X, 9);
  const arma::uvec idx = nystrom_centres(*base, X, {25, true}, 9);
  const arma::mat C = X.cols(idx);
  arma::mat K_mm, K_mx, K_mz;
  base->gram(C, K_mm);
  const arma::mat Z = uniform_points(3, 30, 4);
  base->gram(C, X.cols(0, 29), K_mx);
  base->gram(C, Z, K_mz);
  const arma::mat expected = K_mx.t() * arma::solve(K_mm, K_mz);
  arma::mat Px, Pz;
  k->feature_map()->features(X.cols(0, 29), Px);
  k->feature_map()->features(Z, Pz);
  const double kappa = floored_condition(K_mm);
  // a solve with K_mm against its root: ≤ m·ε·(κ + √κ)·max|K|; κ(K_mm) ≈ 1.2e3, m = 25
  const double bound = 25 * kEps * (kappa + std::sqrt(kappa)) * arma::abs(K_mm).max();
  EXPECT_LE(arma::abs(Px.t() * Pz - expected).max(), bound);
  EXPECT_FALSE(k->feature_map()->exact());
  // the dual form is the kernel itself
  arma::mat K, K_base;
  k->gram(Z, K);
  base->gram(Z, K_base);
  EXPECT_TRUE(arma::approx_equal(K, K_base, "absdiff", 0.0));
}

// Φ(X) is mapped in tiles of 256 columns shared among threads: each column is the map of
// its point alone, on one thread or four, across the tiles' edges.
TEST(Nystrom, EachColumnIsThatPointsMapWhateverTheTileAndTheThreads) {
  const arma::mat X = uniform_points(3, 600, 6);
  const auto k = fitted(40, false, X, 2);
  arma::mat one, four, alone;
  set_thread_count(1);
  k->feature_map()->features(X, one);
  set_thread_count(4);
  k->feature_map()->features(X, four);
  set_thread_count(0);
  ASSERT_EQ(one.n_cols, 600U);
  // the same DGEMM on the same tiles, whichever thread takes them: the same bits
  EXPECT_TRUE(arma::approx_equal(four, one, "absdiff", 0.0));
  // A point alone is one DGEMM column in another order: each φᵢ sums m terms rootᵢⱼ·kⱼ with
  // |kⱼ| ≤ 1, so two orders differ by at most 2·m·ε·‖K_mm^{−1/2}‖_∞ ≤ 2·m·ε·√m/√λ_min.
  arma::mat K_mm;
  const auto base = make_kernel("gaussian", {{"sigma", "0.8"}});
  base->gram(X.cols(nystrom_centres(*base, X, {40, false}, 2)), K_mm);
  const arma::vec lambda = arma::eig_sym(K_mm);
  const double lambda_min = std::max(lambda.min(), 1e-12 * lambda.max());
  const double bound = 2 * 40 * kEps * std::sqrt(40.0 / lambda_min);
  for (const arma::uword i : {0U, 255U, 256U, 511U, 512U, 599U}) {
    k->feature_map()->features(X.col(i), alone);
    EXPECT_LE(arma::abs(alone - one.col(i)).max(), bound) << "column " << i;
  }
}

TEST(Nystrom, CentresAreDistinctAndFollowTheSeed) {
  const arma::mat X = uniform_points(2, 300, 5);
  const auto base = make_kernel("gaussian", {{"sigma", "0.5"}});
  for (const bool kmeanspp : {false, true}) {
    const arma::uvec a = nystrom_centres(*base, X, {120, kmeanspp}, 1);
    const arma::uvec b = nystrom_centres(*base, X, {120, kmeanspp}, 1);
    const arma::uvec c = nystrom_centres(*base, X, {120, kmeanspp}, 2);
    EXPECT_EQ(std::set<arma::uword>(a.begin(), a.end()).size(), 120U);
    EXPECT_TRUE(arma::all(a == b));
    EXPECT_FALSE(arma::all(a == c));
    EXPECT_LT(a.max(), 300U);
  }
}

TEST(Nystrom, KmeansppSpreadsTheCentres) {
  // 190 points in one tight cluster, 10 far away: D² sampling finds the far ones first.
  arma::arma_rng::set_seed(1);
  arma::mat X = 0.01 * arma::randn<arma::mat>(2, 200);
  X.cols(190, 199) += 5.0 * arma::randn<arma::mat>(2, 10);
  const auto base = make_kernel("linear");
  const arma::uvec idx = nystrom_centres(*base, X, {5, true}, 3);
  EXPECT_GE(arma::accu(idx >= 190), 4U);
}

TEST(Nystrom, PrimalRidgeOnTheFullMapPredictsAsKernelRidge) {
  const arma::mat X = uniform_points(2, 60, 7);
  const arma::vec y = arma::sin(3.0 * X.row(0).t());
  const arma::mat Xs = uniform_points(2, 15, 8);
  const auto k = fitted(60, false, X, 3, 0.5);
  arma::mat K, Ks, Phi, Phis;
  k->gram(X, K);
  k->gram(X, Xs, Ks);
  k->feature_map()->features(X, Phi);
  k->feature_map()->features(Xs, Phis);
  const double lambda = 0.1;
  const arma::vec dual = Ks.t() * arma::solve(K + lambda * arma::eye(60, 60), y);
  const arma::vec theta = arma::solve(Phi * Phi.t() + lambda * arma::eye(60, 60), Phi * y);
  const double kappa_dual = arma::cond(K + lambda * arma::eye(60, 60));
  const double kappa_primal = arma::cond(Phi * Phi.t() + lambda * arma::eye(60, 60));
  const double kappa_map = floored_condition(K);  // every point a centre: K_mm = K
  // two solves and the map: ≤ n·ε·(κ(K+λI) + κ(ΦΦᵀ+λI) + √κ(K_mm))·max|y|; κ(K_mm) ≈ 2e9
  const double bound =
      60 * kEps * (kappa_dual + kappa_primal + std::sqrt(kappa_map)) * arma::abs(y).max();
  EXPECT_LE(arma::abs(Phis.t() * theta - dual).max(), bound);
}

TEST(Nystrom, Errors) {
  const arma::mat X = uniform_points(2, 30, 1);
  const arma::vec y(30, arma::fill::zeros);
  auto k = nystrom(make_kernel("gaussian"), {31, true});
  try {
    k->fit(KernelFitData{&X, &y, 1});
    FAIL() << "m above n";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("m = 31 centres needs at least 31 training points, and the "
                                    "training part has 30; lower m"));
  }
  arma::mat Phi;
  EXPECT_THROW(k->feature_map()->features(X, Phi), InvalidArgument) << "used before a fit";
  try {
    (void)nystrom(make_kernel("sigmoid", {{"a", "1"}, {"b", "1"}}), {10, true});
    FAIL() << "not PSD";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("Nyström features need a PSD kernel"));
  }
}

}  // namespace
}  // namespace kexp::algebra
