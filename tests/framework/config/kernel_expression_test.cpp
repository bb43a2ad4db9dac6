// Sums and products of kernels in the experiment file, as parsed: the tree, the settings
// named by their path in the entry, and the errors in its shape with file:line:column.
#include "config/kernel_expression.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/config.hpp"

namespace kexp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Kind = KernelExpression::Kind;

std::string config(const std::string& kernels) { return test::config_with_kernels(kernels); }

Experiment parse(const std::string& kernels, const std::vector<Override>& overrides = {}) {
  return parse_experiment(config(kernels), "algebra.yaml", overrides);
}

std::string error_of(const std::string& kernels) {
  try {
    (void)parse(kernels);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> names_of(const ComponentSpec& c) {
  std::vector<std::string> out;
  for (const ParamSetting& p : c.params) out.push_back(p.name);
  return out;
}

const char* kGp =
    "  - sum:\n"
    "      - {plugin: gaussian, sigma: 1.0, scale: [1.0, 2.0]}\n"
    "      - {plugin: constant, c: 0.5}\n"
    "      - {plugin: linear, scale: 0.1}\n";

TEST(KernelExpression, ASumIsParsedIntoItsTree) {
  const Experiment e = parse(kGp);
  ASSERT_EQ(e.kernels.size(), 1U);
  const ComponentSpec& spec = e.kernels[0];
  EXPECT_EQ(spec.plugin, "sum");
  EXPECT_EQ(spec.key, "kernels[0]");
  EXPECT_EQ(spec.where.str(), "algebra.yaml:4:5");
  ASSERT_NE(spec.expression, nullptr);
  const KernelExpression& tree = *spec.expression;
  EXPECT_EQ(tree.kind, Kind::Sum);
  EXPECT_EQ(tree.path, "");
  EXPECT_FALSE(tree.scale.has_value());
  ASSERT_EQ(tree.terms.size(), 3U);
  EXPECT_EQ(tree.terms[0].kind, Kind::Plugin);
  EXPECT_EQ(tree.terms[0].plugin.plugin, "gaussian");
  EXPECT_EQ(tree.terms[0].key, "kernels[0].sum[0]");
  EXPECT_EQ(tree.terms[0].path, "sum[0]");
  ASSERT_TRUE(tree.terms[0].scale.has_value());  // the term's factor, not the plugin's own
  EXPECT_TRUE(tree.terms[0].scale->swept);
  EXPECT_EQ(tree.terms[0].plugin.params.size(), 1U);
  EXPECT_EQ(tree.terms[2].plugin.plugin, "linear");
}

TEST(KernelExpression, SettingsAreNamedByTheirPathInTheEntry) {
  const Experiment e = parse(kGp);
  EXPECT_THAT(names_of(e.kernels[0]),
              ElementsAre("sum[0].sigma", "sum[0].scale", "sum[1].c", "sum[2].scale"));
  EXPECT_EQ(e.kernels[0].params[0].key, "kernels[0].sum[0].sigma");
  EXPECT_EQ(e.kernels[0].params[0].where.str(), "algebra.yaml:5:35");
}

TEST(KernelExpression, NestedProductWithScale) {
  const Experiment e = parse(
      "  - product:\n"
      "      - {plugin: polynomial, degree: 2}\n"
      "      - sum:\n"
      "          - {plugin: gaussian, sigma: 2}\n"
      "          - {plugin: constant, c: 1}\n"
      "    scale: 3\n");
  const ComponentSpec& spec = e.kernels[0];
  EXPECT_EQ(spec.plugin, "product");
  EXPECT_THAT(names_of(spec), ElementsAre("product[0].degree", "product[1].sum[0].sigma",
                                          "product[1].sum[1].c", "scale"));
  const KernelExpression& tree = *spec.expression;
  ASSERT_EQ(tree.terms.size(), 2U);
  EXPECT_EQ(tree.terms[1].kind, Kind::Sum);
  EXPECT_EQ(tree.terms[1].terms[0].path, "product[1].sum[0]");
  ASSERT_TRUE(tree.scale.has_value());
  EXPECT_EQ(tree.scale->key, "kernels[0].scale");
}

TEST(KernelExpression, TermParametersAreSetFromTheCommandLine) {
  const Experiment e = parse(kGp, {{"kernels[0].sum[0].sigma=0.5,1,2"}});
  const ParamSetting& sigma = e.kernels[0].params[0];
  EXPECT_EQ(sigma.name, "sum[0].sigma");
  EXPECT_TRUE(sigma.swept);
  EXPECT_EQ(sigma.values.size(), 3U);
  EXPECT_EQ(sigma.where.str(), "--set kernels[0].sum[0].sigma=0.5,1,2");
}

TEST(KernelExpression, ABadShapeNamesItsPlaceInTheFile) {
  EXPECT_THAT(error_of("  - sum: []\n"), HasSubstr("must be a list of one or more kernels"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: linear}\n"
                       "    weight: 2\n"),
              HasSubstr("unknown key 'weight' in kernels[0]"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - {plugin: linear, sum: []}\n"),
              HasSubstr("exactly one of 'plugin', 'sum', 'product' or 'nystrom'"));
  EXPECT_THAT(error_of("  - sum:\n"
                       "      - 3\n"),
              HasSubstr("algebra.yaml:5:9: kernels[0].sum[0] must be a kernel"));
}

TEST(KernelExpression, ASumOrProductWithoutPluginOrAScaledPluginIsOne) {
  EXPECT_TRUE(is_kernel_expression(YAML::Load("{sum: [{plugin: linear}]}")));
  EXPECT_TRUE(is_kernel_expression(YAML::Load("{product: []}")));
  EXPECT_FALSE(is_kernel_expression(YAML::Load("{plugin: linear}")));
  // s·k written on a plain entry, as it may be on a term of a sum.
  EXPECT_TRUE(is_kernel_expression(YAML::Load("{plugin: linear, scale: 2}")));
  EXPECT_FALSE(is_kernel_expression(YAML::Load("{plugin: linear, sum: []}")));
  EXPECT_FALSE(is_kernel_expression(YAML::Load("[sum]")));
}

TEST(KernelExpression, APlainEntryTakesAScaleAsItsFactor) {
  const Experiment e = parse("  - {plugin: gaussian, sigma: 1, scale: [2, 3]}\n");
  const ComponentSpec& spec = e.kernels.at(0);
  ASSERT_NE(spec.expression, nullptr);
  EXPECT_EQ(spec.expression->kind, Kind::Plugin);
  EXPECT_EQ(spec.plugin, "gaussian");
  EXPECT_THAT(names_of(spec), ElementsAre("sigma", "scale"));
}

TEST(KernelExpression, TermParameterNamesJoinThePath) {
  EXPECT_EQ(term_param_name("", "scale"), "scale");
  EXPECT_EQ(term_param_name("product[1].sum[0]", "sigma"), "product[1].sum[0].sigma");
  EXPECT_STREQ(operator_name(Kind::Sum), "sum");
  EXPECT_STREQ(operator_name(Kind::Product), "product");
}

}  // namespace
}  // namespace kexp::core
