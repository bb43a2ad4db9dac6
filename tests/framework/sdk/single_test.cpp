// Kernels in float32 (kexp/single.hpp): vexpf against the float64 exp; each built-in
// vector kernel and each sum, product and scale of them through its formula (the
// native path) against its own float64 Gram, within the bound the header states; a kernel
// without a formula through the converted path; the streamed products against the
// float64 ones.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/gram.hpp"
#include "kexp/single.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

constexpr double kU = 0x1p-24;  // the float32 rounding unit

TEST(Vexpf, IsWithinThreeUnitsOfTheFloat32RoundingOfExp) {
  double worst = 0;
  for (double x = -87.0; x <= 88.0; x += 0.0137) {
    const float got = vexpf(static_cast<float>(x));
    const double want = std::exp(static_cast<double>(static_cast<float>(x)));
    worst = std::max(worst, std::abs(got - want) / want);
  }
  EXPECT_LT(worst, 3 * kU);
  EXPECT_EQ(vexpf(0.0F), 1.0F);
  EXPECT_EQ(vexpf(-200.0F), 0.0F);
  EXPECT_EQ(vexpf(100.0F), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(vexpf(std::numeric_limits<float>::quiet_NaN())));
  // into the subnormals: exp(−95) ≈ 5.5e-42, rounded once
  EXPECT_NEAR(vexpf(-95.0F), std::exp(-95.0), 2e-45);
}

struct Case {
  std::string name;
  TextParams params;
};

/// The float64 Gram of the float32 inputs, so that only the kernel's arithmetic differs.
arma::mat reference(const Kernel& kernel, const arma::fmat& X, const arma::fmat& Z) {
  arma::mat K;
  kernel.gram(arma::conv_to<arma::mat>::from(X), arma::conv_to<arma::mat>::from(Z), K);
  return K;
}

/// max |K₃₂ − K₆₄| / (max(1, |K₆₄|)·(d + 2)·u·(1 + ‖x‖² + ‖z‖²)), the error in units of
/// the bound that kexp/single.hpp states, made relative to the values the kernels reach.
double worst_in_bound_units(const arma::fmat& K32, const arma::mat& K64, const arma::fmat& X,
                            const arma::fmat& Z, double scale) {
  const arma::rowvec xn = arma::sum(arma::square(arma::conv_to<arma::mat>::from(X)), 0);
  const arma::rowvec zn = arma::sum(arma::square(arma::conv_to<arma::mat>::from(Z)), 0);
  const double d = static_cast<double>(X.n_rows);
  double worst = 0;
  for (arma::uword j = 0; j < K64.n_cols; ++j) {
    for (arma::uword i = 0; i < K64.n_rows; ++i) {
      const double bound =
          std::max(1.0, std::abs(K64(i, j))) * (d + 2) * kU * (1.0 + scale * (xn[i] + zn[j]));
      worst = std::max(worst, std::abs(static_cast<double>(K32(i, j)) - K64(i, j)) / bound);
    }
  }
  return worst;
}

TEST(SingleGram, EachBuiltInVectorKernelAgreesWithFloat64WithinTheStatedBound) {
  const std::vector<Case> cases = {
      {"gaussian", {{"sigma", "0.7"}}},
      {"laplacian", {{"sigma", "1.3"}}},
      {"polynomial", {{"degree", "3"}, {"c", "0.5"}}},
      {"linear", {}},
      {"sigmoid", {{"a", "0.4"}, {"b", "-0.2"}}},
      {"constant", {{"c", "2.5"}}},
  };
  arma::arma_rng::set_seed(3);
  // 300 and 270 points: blocks of 256 and the ragged ones after them
  const arma::fmat X = arma::randn<arma::fmat>(5, 300) * 0.6F;
  const arma::fmat Z = arma::randn<arma::fmat>(5, 270) * 0.6F;
  for (const Case& c : cases) {
    const auto kernel = make_kernel(c.name, c.params);
    arma::fmat K;
    EXPECT_EQ(gram::single(*kernel, X, Z, K), gram::SinglePath::native) << c.name;
    ASSERT_EQ(K.n_rows, 300U);
    ASSERT_EQ(K.n_cols, 270U);
    // 1/σ² scales the distances of the Gaussian and the Laplacian; a polynomial of degree
    // p multiplies the error of s by p
    const double scale = c.name == "gaussian" ? 1 / 0.49 : c.name == "polynomial" ? 3.0 : 1.0;
    EXPECT_LT(worst_in_bound_units(K, reference(*kernel, X, Z), X, Z, scale), 1.0) << c.name;
    // and the error is float32's, not float64's: somewhere it is above float64's rounding
    if (c.name != "constant") {
      EXPECT_GT(arma::abs(arma::conv_to<arma::mat>::from(K) - reference(*kernel, X, Z)).max(),
                1e-12)
          << c.name;
    }
  }
}

TEST(SingleGram, SumsProductsAndScalesRunNatively) {
  using algebra::Combination;
  const auto gaussian = make_kernel("gaussian", {{"sigma", "1.1"}});
  const auto linear = make_kernel("linear");
  const auto poly = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  const auto sum = algebra::combined(
      Combination::Sum, {algebra::scaled(gaussian, 2.0), algebra::scaled(linear, 0.5)});
  const auto nested = algebra::combined(
      Combination::Sum, {algebra::combined(Combination::Product, {poly, gaussian}), sum});
  arma::arma_rng::set_seed(4);
  const arma::fmat X = arma::randn<arma::fmat>(3, 290) * 0.5F;
  for (const auto& kernel : {sum, nested}) {
    arma::fmat K;
    EXPECT_EQ(gram::single(*kernel, X, X, K), gram::SinglePath::native);
    EXPECT_LT(worst_in_bound_units(K, reference(*kernel, X, X), X, X, 4.0), 1.0);
  }
}

TEST(SingleGram, TheSymmetricGramIsExactlySymmetricWithItsDiagonalAtZeroDistance) {
  arma::arma_rng::set_seed(5);
  const arma::fmat X = arma::randn<arma::fmat>(4, 600) * 3.0F;
  for (const char* name : {"gaussian", "laplacian"}) {
    const auto kernel = make_kernel(name, {{"sigma", "0.9"}});
    arma::fmat K;
    gram::single(*kernel, X, K);
    EXPECT_TRUE(arma::approx_equal(K, K.t(), "absdiff", 0.0F)) << name;
    EXPECT_TRUE(arma::all(K.diag() == 1.0F)) << name;
    // the lower triangle alone is the same lower triangle
    arma::fmat L(600, 600, arma::fill::value(-7.0F));
    gram::single(*kernel, X, L, Triangle::Lower);
    EXPECT_TRUE(arma::approx_equal(arma::trimatl(L), arma::trimatl(K), "absdiff", 0.0F)) << name;
  }
}

TEST(SingleGram, AKernelWithoutAFormulaIsConvertedFromItsFloat64Gram) {
  const auto cubic = make_kernel("cubic");
  EXPECT_EQ(gram::single_path(*cubic), gram::SinglePath::converted);
  EXPECT_EQ(gram::single_path(*make_kernel("gaussian")), gram::SinglePath::native);
  arma::arma_rng::set_seed(6);
  const arma::fmat X = arma::randn<arma::fmat>(2, 40);
  arma::fmat K;
  EXPECT_EQ(gram::single(*cubic, X, K), gram::SinglePath::converted);
  const arma::fmat want = arma::conv_to<arma::fmat>::from(reference(*cubic, X, X));
  EXPECT_TRUE(arma::approx_equal(K, want, "absdiff", 0.0F));
  EXPECT_STREQ(gram::single_path_name(gram::SinglePath::converted), "converted");
}

TEST(SingleGram, BadInputsAreRefused) {
  const auto kernel = make_kernel("gaussian");
  arma::fmat K;
  EXPECT_THROW(gram::single(*kernel, arma::fmat(2, 3, arma::fill::ones),
                            arma::fmat(3, 3, arma::fill::ones), K),
               InvalidArgument);
  arma::fmat X(2, 3, arma::fill::ones);
  X(1, 1) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(gram::single(*kernel, X, K), InvalidArgument);
}

TEST(SingleProducts, TheStreamedProductsAgreeWithFloat64ToFloat32Rounding) {
  const auto kernel = make_kernel("gaussian", {{"sigma", "1.5"}});
  arma::arma_rng::set_seed(8);
  // 3000 points against 700 centres: several tiles and lanes
  const arma::mat X = arma::randn(6, 3000), C = arma::randn(6, 700);
  const arma::fmat Xf = arma::conv_to<arma::fmat>::from(X);
  const arma::fmat Cf = arma::conv_to<arma::fmat>::from(C);
  const arma::mat Xr = arma::conv_to<arma::mat>::from(Xf), Cr = arma::conv_to<arma::mat>::from(Cf);
  const arma::vec u = arma::randn(700), v = arma::randn(3000);
  const arma::vec want = gram::normal_product(*kernel, Xr, Cr, u, v);
  gram::SinglePath path = gram::SinglePath::converted;
  const arma::vec got = gram::normal_product(*kernel, Xf, Cf, u, v, &path);
  EXPECT_EQ(path, gram::SinglePath::native);
  // float32 sums of a few hundred terms, each tile added in float64: a few u, not the
  // worst case of the sums' lengths times u
  const double relative = arma::norm(got - want, "inf") / arma::norm(want, "inf");
  EXPECT_LT(relative, 32 * kU);
  EXPECT_GT(relative, 1e-12);  // float32, not float64

  const arma::mat V = arma::randn(700, 2);
  arma::mat want_kv, got_kv;
  gram::product(*kernel, Xr, Cr, V, want_kv);
  EXPECT_EQ(gram::product(*kernel, Xf, Cf, V, got_kv), gram::SinglePath::native);
  EXPECT_LT(arma::norm(got_kv - want_kv, "inf") / arma::norm(want_kv, "inf"), 32 * kU);
}

TEST(SingleProducts, AKernelValueBeyondFloat32sRangeIsAnErrorNotAnAnswer) {
  // (xᵀz)²⁰ with xᵀz = 100: 10⁴⁰, beyond float32's 3.4·10³⁸ (float64 holds it)
  const auto kernel = make_kernel("polynomial", {{"degree", "20"}, {"c", "0"}});
  const arma::fmat X(1, 40, arma::fill::value(10.0F));
  const arma::vec u(40, arma::fill::ones), v(40, arma::fill::zeros);
  try {
    (void)gram::normal_product(*kernel, X, X, u, v);
    FAIL() << "no error";
  } catch (const NumericError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("use precision: double"));
  }
  arma::mat out;
  EXPECT_THROW(gram::product(*kernel, X, X, arma::mat(u), out), NumericError);
}

}  // namespace
}  // namespace kexp::test
