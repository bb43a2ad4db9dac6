// Sums and products of kernels checked against the plugins' schemas with
// file:line:column, swept, built into kernels, and written back.
#include "sweep/kernel_resolution.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "support/config.hpp"
#include "support/plugins.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string config(const std::string& kernels) { return test::config_with_kernels(kernels); }

Plan plan_of(const std::string& kernels, const std::vector<Override>& overrides = {}) {
  return make_plan(parse_experiment(config(kernels), "algebra.yaml", overrides), test::registry());
}

std::string error_of(const std::string& kernels) {
  try {
    (void)plan_of(kernels);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kGp =
    "  - sum:\n"
    "      - {plugin: gaussian, sigma: 1.0, scale: [1.0, 2.0]}\n"
    "      - {plugin: constant, c: 0.5}\n"
    "      - {plugin: linear, scale: 0.1}\n";

TEST(KernelResolution, SumIsPlannedWithColumnsNamedByPath) {
  const Plan plan = plan_of(kGp);
  ASSERT_EQ(plan.kernels.size(), 2U);  // scale of the first term swept
  EXPECT_EQ(plan.kernels[0].name(), "sum(gaussian,constant,linear)");
  EXPECT_THAT(
      std::vector<std::string>(plan.param_columns.begin() + 5, plan.param_columns.end()),
      ::testing::IsSupersetOf({"kernel.sum[0].sigma", "kernel.sum[0].map", "kernel.sum[0].scale",
                               "kernel.sum[1].c", "kernel.sum[2].scale"}));
  EXPECT_EQ(param_text(plan, plan.cells[1], "kernel.sum[0].scale"), "2");
  EXPECT_NE(plan.cells[0].id, plan.cells[1].id);
}

TEST(KernelResolution, ASumIsAVariantWithoutAPlugin) {
  const Plan plan = plan_of(kGp);
  const Variant& v = plan.kernels[0];
  EXPECT_EQ(v.plugin, nullptr);
  ASSERT_TRUE(v.composite());
  EXPECT_EQ(v.name(), "sum(gaussian,constant,linear)");
  // σ = 1 is gaussian's default: not in the text
  EXPECT_EQ(v.canonical,
            "sum(gaussian,constant,linear)(sum[0].scale=1,sum[1].c=0.5,sum[2].scale=0.1)");
  const ResolvedKernelExpression& tree = *v.expression;
  EXPECT_EQ(tree.kind, KernelExpression::Kind::Sum);
  EXPECT_EQ(tree.label, "sum(gaussian,constant,linear)");
  ASSERT_EQ(tree.terms.size(), 3U);
  EXPECT_EQ(tree.terms[0].plugin->name(), "gaussian");
  EXPECT_EQ(tree.terms[0].path, "sum[0]");
  EXPECT_TRUE(tree.terms[0].scaled);
  EXPECT_FALSE(tree.terms[1].scaled);
  EXPECT_EQ(tree.terms[0].params.front(), "sigma");  // its own names, in schema order
  EXPECT_THAT(tree.terms[1].params, ElementsAre("c"));
}

TEST(KernelResolution, APluginKernelIsItsPlugin) {
  const Plan plan = plan_of("  - {plugin: linear}\n");
  const Variant& v = plan.kernels[0];
  ASSERT_NE(v.plugin, nullptr);
  EXPECT_FALSE(v.composite());
  EXPECT_EQ(v.name(), "linear");
  EXPECT_THAT(kernel_plugins(v), ElementsAre(v.plugin));
  const arma::vec x{1, 2}, z{3, 4};
  EXPECT_EQ(create_kernel_of(v)->evaluate(x, z), 11.0);
}

TEST(KernelResolution, BuildsTheKernelFromItsTerms) {
  const Plan plan = plan_of(kGp);
  const auto k = create_kernel_of(plan.kernels[1]);  // scale 2
  const arma::vec x{1, 2}, z{0, 1};                  // ‖x − z‖² = 2, xᵀz = 2
  EXPECT_NEAR(k->evaluate(x, z), 2.0 * std::exp(-1.0) + 0.5 + 0.2, 1e-15);
  EXPECT_TRUE(k->positive_semidefinite());
  const auto plugins = kernel_plugins(plan.kernels[0]);
  ASSERT_EQ(plugins.size(), 3U);
  EXPECT_EQ(plugins[0]->name(), "gaussian");
}

TEST(KernelResolution, NestedProductWithScale) {
  const Plan plan = plan_of(
      "  - product:\n"
      "      - {plugin: polynomial, degree: 2}\n"
      "      - sum:\n"
      "          - {plugin: gaussian, sigma: 2}\n"
      "          - {plugin: constant, c: 1}\n"
      "    scale: 3\n");
  EXPECT_EQ(plan.kernels[0].name(), "product(polynomial,sum(gaussian,constant))");
  EXPECT_TRUE(plan.kernels[0].params.has("product[1].sum[0].sigma"));
  EXPECT_TRUE(plan.kernels[0].params.has("scale"));
  const auto k = create_kernel_of(plan.kernels[0]);
  const arma::vec x{1, 0}, z{0, 1};  // xᵀz = 0, ‖x − z‖² = 2
  EXPECT_NEAR(k->evaluate(x, z), 3.0 * 1.0 * (std::exp(-0.25) + 1.0), 1e-14);
}

TEST(KernelResolution, TermParametersAreSweptFromTheCommandLine) {
  const Plan plan = plan_of(kGp, {{"kernels[0].sum[0].sigma=0.5,1,2"}});
  EXPECT_EQ(plan.kernels.size(), 6U);
  EXPECT_EQ(param_text(plan, plan.cells[0], "kernel.sum[0].sigma"), "0.5");
}

TEST(KernelResolution, BadTermsNameTheirPlaceInTheFile) {
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: gaussian, sigma: -1}\n"),
              HasSubstr("algebra.yaml:5:35: kernels[0].sum[0].sigma must be > 0, got -1"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: linear}\n"
                       "      - {plugin: polynomial, degree: 2.5}\n"),
              HasSubstr("kernels[0].sum[1].degree must be an integer, got '2.5'"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: linear, scale: 0}\n"),
              HasSubstr("kernels[0].sum[0].scale must be > 0, got 0"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: gausian}\n"),
              HasSubstr("did you mean 'gaussian'?"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: constant, scale: 2, c: 1}\n"
                       "      - {plugin: gaussian, sigma: 1, scal: 2}\n"),
              HasSubstr("kernels[0].sum[1].scal"));
}

TEST(KernelResolution, ResolvedConfigWritesTheTreeBack) {
  const Plan plan = plan_of(kGp);
  YAML::Emitter out;
  emit_kernel_expression(out, *plan.kernels[0].expression, plan.kernel_params[0]);
  const YAML::Node back = YAML::Load(out.c_str());
  ASSERT_TRUE(back["sum"].IsSequence());
  EXPECT_EQ(back["sum"][0]["plugin"].as<std::string>(), "gaussian");
  EXPECT_EQ(back["sum"][0]["scale"].size(), 2U);
  EXPECT_EQ(back["sum"][1]["c"].as<std::string>(), "0.5");
  EXPECT_EQ(back["sum"][2]["scale"].as<std::string>(), "0.1");
}

const char* kNystrom =
    "  - nystrom: {plugin: gaussian, sigma: 0.5}\n"
    "    m: [10, 40]\n"
    "    centres: uniform\n";

TEST(KernelResolution, NystromIsPlannedWithItsOwnSettingsAndLearns) {
  const Plan plan = plan_of(kNystrom);
  ASSERT_EQ(plan.kernels.size(), 2U);
  EXPECT_EQ(plan.kernels[0].name(), "nystrom(gaussian)");
  EXPECT_EQ(param_text(plan, plan.cells[1], "kernel.m"), "40");
  EXPECT_EQ(param_text(plan, plan.cells[0], "kernel.centres"), "uniform");
  EXPECT_EQ(param_text(plan, plan.cells[0], "kernel.nystrom.sigma"), "0.5");
  EXPECT_TRUE(kernel_is_fitted(plan.kernels[0]));
  EXPECT_TRUE(plan.fitted_kernels);
  EXPECT_FALSE(plan_of(kGp).fitted_kernels);
  const std::shared_ptr<Kernel> k = create_kernel_of(plan.kernels[1]);
  ASSERT_NE(k->feature_map(), nullptr);
  EXPECT_EQ(k->feature_map()->dimension(3), 40U);
  EXPECT_EQ(plan_of("  - nystrom: {plugin: linear}\n").kernel_params[0].size(), 2U)
      << "m and centres take their defaults";

  YAML::Emitter out;
  emit_kernel_expression(out, *plan.kernels[0].expression, plan.kernel_params[0]);
  const YAML::Node back = YAML::Load(out.c_str());
  EXPECT_EQ(back["nystrom"]["plugin"].as<std::string>(), "gaussian");
  EXPECT_EQ(back["m"].size(), 2U);
  EXPECT_EQ(back["centres"].as<std::string>(), "uniform");
}

TEST(KernelResolution, NystromErrorsNameTheirPlace) {
  EXPECT_THAT(error_of("  - nystrom: {plugin: sigmoid}\n"),
              HasSubstr("kernels[0]: Nyström features need a PSD kernel, and kernel plugin "
                        "'sigmoid' is not PSD in general"));
  EXPECT_THAT(error_of("  - nystrom: {plugin: gaussian}\n"
                       "    m: 0\n"),
              HasSubstr("algebra.yaml:5:8: kernels[0].m must be ≥ 1, got 0"));
  EXPECT_THAT(error_of("  - nystrom: {plugin: gaussian}\n"
                       "    centres: random\n"),
              HasSubstr("kernels[0].centres"));
  EXPECT_THAT(error_of("  - nystrom: {plugin: gaussian}\n"
                       "    features: 10\n"),
              HasSubstr("unknown key 'features' in kernels[0]: a nystrom takes 'nystrom'"));
}

}  // namespace
}  // namespace kexp::core
