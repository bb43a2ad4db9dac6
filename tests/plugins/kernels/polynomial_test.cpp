// polynomial: k = (xᵀz + c)^p, its exact map of weighted monomials, and its schema.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(PolynomialKernel, HandComputedValues) {
  const arma::vec x{1, 2}, z{3, -1};  // xᵀz = 1
  EXPECT_NEAR(make_kernel("polynomial", {{"degree", "3"}, {"c", "1"}})->evaluate(x, z), 8.0, 1e-14);
  EXPECT_NEAR(make_kernel("polynomial", {{"degree", "2"}, {"c", "0.5"}})->evaluate(x, z), 2.25,
              1e-14);
  // homogeneous: (xᵀz)^p; xᵀx = 5
  EXPECT_NEAR(make_kernel("polynomial", {{"degree", "3"}, {"c", "0"}})->evaluate(x, x), 125.0,
              1e-12);
}

TEST(PolynomialKernel, MapDimensionIsTheNumberOfMonomials) {
  const auto k = make_kernel("polynomial", {{"degree", "3"}, {"c", "1"}});
  EXPECT_EQ(k->feature_map()->dimension(3), 20U);    // C(6, 3)
  EXPECT_EQ(k->feature_map()->dimension(10), 286U);  // C(13, 10)
  const auto h = make_kernel("polynomial", {{"degree", "3"}, {"c", "0"}});
  EXPECT_EQ(h->feature_map()->dimension(3), 10U);  // C(5, 2): degree-3 monomials only
  arma::mat Phi;
  h->feature_map()->features(uniform_points(3, 4, 1), Phi);
  EXPECT_EQ(Phi.n_rows, 10U);
  EXPECT_EQ(Phi.n_cols, 4U);
}

TEST(PolynomialKernel, ExactMapAgreesWithTheKernel) {
  for (const char* degree : {"1", "2", "3", "5"}) {
    for (const char* c : {"0", "0.5", "2"}) {
      const auto k = make_kernel("polynomial", {{"degree", degree}, {"c", c}});
      ASSERT_TRUE(k->feature_map()->exact());
      const core::KernelCheck r = check_on_random_points(*k, 4, 60);
      EXPECT_LE(r.map_error_relative, 1e-10) << "degree " << degree << ", c " << c;
      EXPECT_TRUE(r.valid()) << "degree " << degree << ", c " << c << ": λmin/λmax "
                             << r.eigen_min_relative;
    }
  }
}

TEST(PolynomialKernel, BlockedGramEqualsPairwise) {
  expect_blocked_gram_matches_naive(*make_kernel("polynomial", {{"degree", "3"}, {"c", "1"}}), 5,
                                    1e-13);
}

TEST(PolynomialKernel, RejectsBadDegreeAndOffset) {
  EXPECT_THROW(make_kernel("polynomial", {{"degree", "2.5"}}), ConfigError);
  EXPECT_THROW(make_kernel("polynomial", {{"degree", "-2"}}), ConfigError);
  EXPECT_THROW(make_kernel("polynomial", {{"degree", "0"}}), ConfigError);
  EXPECT_THROW(make_kernel("polynomial", {{"degree", "two"}}), ConfigError);
  EXPECT_THROW(make_kernel("polynomial", {{"c", "-0.1"}}), ConfigError);
  try {
    make_kernel("polynomial", {{"degree", "2.5"}});
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("must be an integer, got '2.5'"));
  }
}

TEST(PolynomialKernel, RefusesAnAbsurdFeatureDimensionNamingIt) {
  const auto k = make_kernel("polynomial", {{"degree", "10"}, {"c", "1"}});
  try {
    (void)k->feature_map()->dimension(1000);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("D = "));
    EXPECT_THAT(e.what(), HasSubstr("d = 1000, degree p = 10"));
  }
  arma::mat Phi;
  EXPECT_THROW(k->feature_map()->features(arma::mat(1000, 2, arma::fill::ones), Phi),
               InvalidArgument);
}

}  // namespace
}  // namespace kexp::test
