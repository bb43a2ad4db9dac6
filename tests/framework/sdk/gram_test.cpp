// The SDK's Gram helpers: the vectorizable exp and the blocked, fused Gram blocks, each
// against a plain evaluation, for sizes that are not multiples of the block; and K(X, X)
// asked for its lower triangle only, which must equal that triangle of the full K and
// leave the blocks above the diagonal unwritten.
#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"

#include <gtest/gtest.h>
#include <omp.h>

extern "C" {
void openblas_set_num_threads(int n);
int openblas_get_num_threads();
}

#include <stdexcept>

#include <cmath>
#include <limits>
#include <random>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp {
namespace {

TEST(Vexp, RelativeErrorBelow1e15OverTheNormalRange) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-708.0, 709.0);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = i < 100000 ? u(rng) : u(rng) / 700.0;  // also many |x| < 1
    const double want = std::exp(x);
    worst = std::max(worst, std::fabs(kexp::vexp(x) - want) / want);
  }
  EXPECT_LE(worst, 1e-15);
  EXPECT_EQ(kexp::vexp(0.0), 1.0);
}

TEST(Vexp, EdgesOfTheRange) {
  EXPECT_EQ(kexp::vexp(-800.0), 0.0);
  EXPECT_EQ(kexp::vexp(-std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_TRUE(std::isinf(kexp::vexp(710.0)));
  EXPECT_TRUE(std::isnan(kexp::vexp(std::numeric_limits<double>::quiet_NaN())));
  // subnormal results: within one subnormal step of the true value
  for (double x : {-709.0, -720.0, -740.0, -744.0}) {
    EXPECT_NEAR(kexp::vexp(x), std::exp(x), std::numeric_limits<double>::denorm_min() * 2) << x;
  }
  EXPECT_NEAR(kexp::vexp(709.0) / std::exp(709.0), 1.0, 1e-15);
}

arma::mat pairwise(const arma::mat& X, const arma::mat& Z, double (*f)(double, double)) {
  arma::mat K(X.n_cols, Z.n_cols);
  for (arma::uword j = 0; j < Z.n_cols; ++j)
    for (arma::uword i = 0; i < X.n_cols; ++i)
      K(i, j) = f(arma::accu(arma::square(X.col(i) - Z.col(j))), arma::dot(X.col(i), Z.col(j)));
  return K;
}

TEST(GramBlocks, FusedExponentialEqualsPairwiseForXNotZAndXIsZ) {
  const double gamma = 0.7;
  for (const auto& [n, m] :
       {std::pair<arma::uword, arma::uword>{1, 1}, {255, 257}, {300, 517}, {513, 100}}) {
    const arma::mat X = 1.5 * test::uniform_points(6, n, 1);
    const arma::mat Z = 1.5 * test::uniform_points(6, m, 2);
    arma::mat K(n, m);
    gram::exp_of_squared_distances(X, Z, K, gamma);
    const arma::mat want = pairwise(X, Z, [](double s, double) { return std::exp(-0.7 * s); });
    EXPECT_LE(arma::abs(K - want).max(), 1e-12) << n << " × " << m;

    arma::mat S(m, m);
    gram::exp_of_squared_distances(Z, S, gamma);
    const arma::mat want_s = pairwise(Z, Z, [](double s, double) { return std::exp(-0.7 * s); });
    EXPECT_LE(arma::abs(S - want_s).max(), 1e-12) << m << " × " << m;
    EXPECT_TRUE(arma::approx_equal(S, S.t(), "absdiff", 0.0));
    EXPECT_TRUE(arma::all(S.diag() == 1.0));
  }
}

TEST(GramBlocks, GenericTransformsEqualPairwise) {
  const arma::mat X = test::uniform_points(4, 300, 3);
  const arma::mat Z = test::uniform_points(4, 517, 4);
  arma::mat K(300, 517);
  gram::from_inner_products(X, Z, K, [](double s) { return s * s + 1.0; });
  EXPECT_LE(arma::abs(K - pairwise(X, Z, [](double, double p) { return p * p + 1.0; })).max(),
            1e-13);
  gram::from_squared_distances(X, Z, K, [](double s) { return 1.0 / (1.0 + s); });
  EXPECT_LE(arma::abs(K - pairwise(X, Z, [](double s, double) { return 1.0 / (1.0 + s); })).max(),
            1e-13);
  arma::mat S(517, 517);
  gram::from_squared_distances(Z, S, [](double s) { return 1.0 / (1.0 + s); });
  EXPECT_LE(arma::abs(S - pairwise(Z, Z, [](double s, double) { return 1.0 / (1.0 + s); })).max(),
            1e-13);
  EXPECT_TRUE(arma::approx_equal(S, S.t(), "absdiff", 0.0));
  gram::from_inner_products(Z, S, [](double s) { return s; });
  EXPECT_LE(arma::abs(S - Z.t() * Z).max(), 1e-13);
}

TEST(GramBlocks, ATransformThatThrowsReachesTheCallerOnEveryThreadCount) {
  // Not noexcept: the plain loop, out of which the exception propagates to the caller of
  // each helper instead of ending the process from inside a vectorized loop.
  const arma::mat X = test::uniform_points(3, 600, 5);
  const auto throwing = [](double s) -> double {
    if (s >= 0.0) throw std::runtime_error("transform threw");
    return s;
  };
  for (const int threads : {1, 3}) {
    SCOPED_TRACE(threads);
    const int before = thread_count();
    set_thread_count(threads);
    arma::mat K(600, 600);
    arma::mat C(600, 300);
    const arma::mat Z = X.cols(0, 299);
    EXPECT_THROW(gram::from_squared_distances(X, Z, C, throwing), std::runtime_error);
    EXPECT_THROW(gram::from_inner_products(X, Z, C, throwing), std::runtime_error);
    EXPECT_THROW(gram::from_inner_products(X, K, throwing), std::runtime_error);
    // the symmetric form evaluates f(0) for its diagonal first, outside the blocks
    const auto throws_off_diagonal = [](double s) -> double {
      if (s > 0.0) throw std::runtime_error("transform threw");
      return 1.0;
    };
    EXPECT_THROW(gram::from_squared_distances(X, K, throws_off_diagonal), std::runtime_error);
    set_thread_count(before);
  }
}

/// A kernel with nothing but compute(): the SDK's default Gram loops.
class PlainKernel final : public Kernel {
 public:
  [[nodiscard]] bool positive_semidefinite() const override { return true; }

 protected:
  [[nodiscard]] double compute(const arma::vec& x, const arma::vec& z) const override {
    return std::exp(-arma::accu(arma::square(x - z)));
  }
};

/// K(X, X, Triangle::Lower) against K(X, X): the same lower triangle and diagonal, to
/// `tol` relative to max |K|, and (when `untouched`) the far corner above the diagonal
/// still holding what was there before.
void expect_lower_triangle_only(const Kernel& kernel, const std::string& name, bool untouched) {
  constexpr arma::uword n = 600;  // three blocks of 256, the last one partial
  constexpr double sentinel = -12345.0;
  const arma::mat X = test::uniform_points(4, n, 21);
  arma::mat full;
  kernel.gram(X, full);
  arma::mat lower(n, n);
  lower.fill(sentinel);
  kernel.gram(X, lower, Triangle::Lower);
  const double scale = std::max(1.0, arma::abs(full).max());
  double worst = 0;
  for (arma::uword j = 0; j < n; ++j)
    for (arma::uword i = j; i < n; ++i) worst = std::max(worst, std::abs(lower(i, j) - full(i, j)));
  EXPECT_LE(worst, 1e-13 * scale) << name;
  if (untouched) {
    EXPECT_EQ(lower(0, n - 1), sentinel) << name;
    EXPECT_EQ(lower(255, 256), sentinel) << name;  // just above the first diagonal block
  }
  // An ordinary call after one for the lower triangle asks for all of K again.
  arma::mat again;
  kernel.gram(X, again);
  EXPECT_TRUE(arma::approx_equal(again, again.t(), "absdiff", 0.0)) << name;
}

TEST(GramLowerTriangle, EqualsTheFullMatrixsLowerTriangleAndWritesNothingAboveIt) {
  for (const std::string name :
       {"gaussian", "laplacian", "linear", "polynomial", "sigmoid", "cubic"}) {
    expect_lower_triangle_only(*test::make_kernel(name), name, true);
  }
  expect_lower_triangle_only(PlainKernel(), "the default loops", true);
  // A kernel that fills all of K anyway is right too.
  expect_lower_triangle_only(*test::make_kernel("constant"), "constant", false);
  EXPECT_EQ(gram::requested_triangle(), Triangle::Both);
}

TEST(GramProduct, EqualsTheStoredMatrixTimesVAcrossBlocks) {
  // Tiles of 1024 columns by 64 rows: 3100 columns of Z make four column blocks, the last
  // one short, and 3000 rows 47 row tiles, the last one short.
  const arma::mat X = test::uniform_points(4, 3000, 1), Z = test::uniform_points(4, 3100, 2);
  const arma::mat V = test::uniform_points(3100, 2, 3);
  const auto k = test::make_kernel("gaussian", {{"sigma", "0.9"}});
  arma::mat K, out;
  k->gram(X, Z, K);
  gram::product(*k, X, Z, V, out);
  ASSERT_EQ(out.n_rows, 3000U);
  ASSERT_EQ(out.n_cols, 2U);
  EXPECT_LE(arma::abs(out - K * V).max(), 1e-11 * arma::abs(K * V).max());
  const double threads = thread_count();
  EXPECT_EQ(gram::product_block_bytes(3000, 3100), 8.0 * threads * 65536) << "a tile a thread";
  EXPECT_EQ(gram::product_block_bytes(100, 30), 8.0 * threads * 100 * 30) << "never more than K";
  EXPECT_THROW(gram::product(*k, X, Z, arma::mat(3099, 1), out), InvalidArgument);
}

TEST(GramProduct, IsTheSameOnOneThreadAndOnSeveral) {
  const arma::mat X = test::uniform_points(3, 700, 4), Z = test::uniform_points(3, 1500, 5);
  const arma::mat V = test::uniform_points(1500, 1, 6);
  const auto k = test::make_kernel("gaussian", {{"sigma", "0.7"}});
  arma::mat several, one;
  gram::product(*k, X, Z, V, several);
  set_thread_count(1);
  gram::product(*k, X, Z, V, one);
  set_thread_count(0);
  // each row of out is summed by one thread, in the same order whatever the threads
  EXPECT_TRUE(arma::approx_equal(several, one, "absdiff", 0.0));
}

TEST(GramNormalProduct, EqualsKtTimesKuPlusVAcrossTiles) {
  // A tile holds 256 rows, so 1000 points make four tiles, the last one short, added on
  // every thread.
  const arma::mat X = test::uniform_points(4, 1000, 7), C = test::uniform_points(4, 300, 8);
  const arma::vec u = arma::vectorise(test::uniform_points(300, 1, 9));
  const arma::vec v = arma::vectorise(test::uniform_points(1000, 1, 10));
  const auto k = test::make_kernel("gaussian", {{"sigma", "0.9"}});
  arma::mat K;
  k->gram(X, C, K);
  const arma::vec expected = K.t() * (K * u + v);
  const arma::vec w = gram::normal_product(*k, X, C, u, v);
  ASSERT_EQ(w.n_elem, 300U);
  // sums of 1000 nonnegative terms in another order: n·ε relative to the largest entry
  EXPECT_LE(arma::abs(w - expected).max(),
            1000 * std::numeric_limits<double>::epsilon() * arma::abs(expected).max());
  const double threads = thread_count();
  // a tile and its products on each thread; four lanes, one a tile
  EXPECT_EQ(gram::normal_product_bytes(1000, 300), 8.0 * (threads * (256 * 300 + 256) + 4 * 300));
  // 10⁴ centres: 256 rows would pass 16 MiB, so 209 rows (16 MiB / 8·10⁴ bytes)
  EXPECT_EQ(gram::normal_product_bytes(100000, 10000),
            8.0 * (threads * (209.0 * 10000 + 209) + 64 * 10000));
  set_thread_count(1);
  const arma::vec on_one = gram::normal_product(*k, X, C, u, v);
  set_thread_count(0);
  EXPECT_TRUE(arma::approx_equal(w, on_one, "absdiff", 0.0)) << "the same sums in the same order";
  EXPECT_THROW((void)gram::normal_product(*k, X, C, v, v), InvalidArgument);
  EXPECT_THROW((void)gram::normal_product(*k, X, C, u, u), InvalidArgument);
}

// Holding BLAS to one thread holds BLAS alone: OpenBLAS's OpenMP build sets its count
// through omp_set_num_threads, and kexp's regions must keep their default size, taken as
// the library loaded, not follow it.
TEST(SingleThreadedBlas, HoldsBlasAloneAndRestoresIt) {
  const int blas_before = openblas_get_num_threads();
  openblas_set_num_threads(2);
  const int threads = thread_count();
  int held = 0, threads_held = 0, team = 0;
  {
    const detail::SingleThreadedBlas single;
    held = openblas_get_num_threads();
    threads_held = thread_count();
#pragma omp parallel num_threads(thread_count())
    {
#pragma omp single
      team = omp_get_num_threads();
    }
  }
  const int after = openblas_get_num_threads();
  openblas_set_num_threads(blas_before);
  EXPECT_EQ(held, 1);
  EXPECT_EQ(after, 2);
  EXPECT_EQ(threads_held, threads);
  EXPECT_EQ(team, threads);
}

}  // namespace
}  // namespace kexp
