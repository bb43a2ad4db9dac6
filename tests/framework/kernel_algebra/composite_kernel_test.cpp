// Sums, products and positive scalings of kernels: values, validity from the parts, and
// the concatenated and tensor-product feature maps.
#include "kernel_algebra/composite_kernel.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::algebra {
namespace {

using test::make_kernel;

TEST(CompositeKernel, GaussianProcessKernelByHand) {
  // θ₀·exp(−θ₁/2·‖x − z‖²) + θ₂ + θ₃·xᵀz with θ = (2, 1, 0.5, 0.1): σ = 1/√θ₁ = 1
  const auto k = combined(Combination::Sum, {scaled(make_kernel("gaussian", {{"sigma", "1"}}), 2.0),
                                             make_kernel("constant", {{"c", "0.5"}}),
                                             scaled(make_kernel("linear"), 0.1)});
  const arma::vec x{1, 2}, z{0, 1};  // ‖x − z‖² = 2, xᵀz = 2
  EXPECT_NEAR(k->evaluate(x, z), 2.0 * std::exp(-1.0) + 0.5 + 0.2, 1e-15);
  test::expect_blocked_gram_matches_naive(*k, 3, 1e-12);
}

TEST(CompositeKernel, ProductByHand) {
  const auto k = combined(Combination::Product, {make_kernel("polynomial", {{"degree", "2"}}),
                                                 make_kernel("gaussian", {{"sigma", "2"}})});
  const arma::vec x{1, 0}, z{0, 1};  // xᵀz = 0, ‖x − z‖² = 2
  EXPECT_NEAR(k->evaluate(x, z), 1.0 * std::exp(-0.25), 1e-15);
  test::expect_blocked_gram_matches_naive(*k, 3, 1e-12);
}

TEST(CompositeKernel, SumsAndProductsOfValidKernelsAreValid) {
  const auto sum = combined(Combination::Sum,
                            {make_kernel("laplacian", {{"sigma", "0.5"}}), make_kernel("cubic")});
  const auto product = combined(
      Combination::Product,
      {make_kernel("gaussian", {{"sigma", "0.7"}}), make_kernel("polynomial", {{"degree", "3"}})});
  const auto nested = scaled(combined(Combination::Sum, {sum, product}), 3.0);
  for (const auto& k : {sum, product, nested}) {
    EXPECT_TRUE(k->positive_semidefinite());
    const core::KernelCheck c = test::check_on_random_points(*k, 4, 120);
    EXPECT_TRUE(c.valid()) << c.eigen_min_relative;
  }
}

TEST(CompositeKernel, ValidityFollowsTheParts) {
  const auto sigmoid = make_kernel("sigmoid", {{"a", "1"}, {"b", "-1"}});
  const auto with_sigmoid = combined(Combination::Sum, {make_kernel("linear"), sigmoid});
  EXPECT_FALSE(with_sigmoid->positive_semidefinite());
  EXPECT_FALSE(scaled(sigmoid, 2.0)->positive_semidefinite());
  EXPECT_TRUE(scaled(make_kernel("linear"), 2.0)->positive_semidefinite());
}

TEST(CompositeKernel, MapsOfSumsAndProductsAreExactWhenThePartsAre) {
  const auto sum = combined(Combination::Sum, {scaled(make_kernel("linear"), 0.3),
                                               make_kernel("constant", {{"c", "2"}})});
  const auto product =
      combined(Combination::Product,
               {make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}}), make_kernel("linear")});
  ASSERT_NE(sum->feature_map(), nullptr);
  ASSERT_NE(product->feature_map(), nullptr);
  EXPECT_EQ(sum->feature_map()->dimension(3), 4U);            // 3 + 1
  EXPECT_EQ(product->feature_map()->dimension(3), 10U * 3U);  // C(5, 3) · 3
  for (const auto& k : {sum, product}) {
    const core::KernelCheck c = test::check_on_random_points(*k, 3, 40);
    EXPECT_TRUE(c.map_exact);
    EXPECT_LE(c.map_error_relative, 1e-10);
    EXPECT_TRUE(c.valid());
  }
  // no map when a part has none; approximate when a part is
  EXPECT_EQ(
      combined(Combination::Sum, {make_kernel("linear"), make_kernel("gaussian")})->feature_map(),
      nullptr);
  EXPECT_FALSE(
      combined(Combination::Sum, {make_kernel("linear"), make_kernel("gaussian", {{"map", "rff"}})})
          ->feature_map()
          ->exact());
}

TEST(CompositeKernel, RefusesAnAbsurdProductMap) {
  const auto k = combined(Combination::Product, {make_kernel("cubic"), make_kernel("cubic")});
  EXPECT_THROW((void)k->feature_map()->dimension(50), InvalidArgument);
}

TEST(CompositeKernel, HyperparametersAreNamedAsTheExperimentNamesThem) {
  const auto k = combined(Combination::Sum, {scaled(make_kernel("gaussian", {{"sigma", "1"}}), 2.0),
                                             make_kernel("constant", {{"c", "0.5"}}),
                                             scaled(make_kernel("linear"), 0.1)});
  ASSERT_TRUE(k->learnable());
  std::vector<std::string> names;
  std::vector<double> values;
  for (const Hyperparameter& h : k->hyperparameters()) {
    names.push_back(h.name);
    values.push_back(h.value);
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"sum[0].sigma", "sum[0].scale", "sum[1].c", "sum[2].scale"}));
  EXPECT_EQ(values, (std::vector<double>{1.0, 2.0, 0.5, 0.1}));
  // A copy with other values is the kernel written with them.
  const auto copy = k->with_hyperparameters(arma::vec{0.5, 3.0, 0.25, 0.2});
  const arma::vec x{1, 2}, z{0, 1};  // ‖x − z‖² = 2, xᵀz = 2
  EXPECT_NEAR(copy->evaluate(x, z), 3.0 * std::exp(-4.0) + 0.25 + 0.4, 1e-15);
  EXPECT_FALSE(
      combined(Combination::Sum, {make_kernel("gaussian"), make_kernel("sigmoid")})->learnable());
}

TEST(CompositeKernel, GradientsOfSumsProductsAndScalingsAgainstDifferences) {
  const arma::mat X = test::uniform_points(3, 35, 12);
  const auto gp =
      combined(Combination::Sum,
               {scaled(make_kernel("gaussian", {{"sigma", "0.7"}}), 2.0),
                make_kernel("constant", {{"c", "0.5"}}), scaled(make_kernel("linear"), 0.1)});
  test::expect_gradient_matches_differences(*gp, X);
  const auto product =
      combined(Combination::Product, {make_kernel("polynomial", {{"degree", "2"}, {"c", "1.5"}}),
                                      make_kernel("laplacian", {{"sigma", "2"}}),
                                      make_kernel("gaussian", {{"sigma", "1.2"}})});
  test::expect_gradient_matches_differences(*product, X);
  // a scaled product inside a sum
  const auto nested = combined(Combination::Sum, {scaled(product, 0.3), make_kernel("linear")});
  test::expect_gradient_matches_differences(*nested, X);
  EXPECT_EQ(nested->hyperparameters().front().name, "sum[0].product[0].c");
}

}  // namespace
}  // namespace kexp::algebra
