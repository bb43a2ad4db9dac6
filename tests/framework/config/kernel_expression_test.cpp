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
              HasSubstr("exactly one of 'plugin', 'formula', 'sum', 'product' or 'nystrom'"));
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

// ---- Kernels written as formulas.

TEST(KernelExpression, AFormulaIsParsedWithItsParametersAndItsTextFirst) {
  const Experiment e = parse(
      "  - formula: \"(1 + r2 / (2 * alpha * l^2))^(-alpha)\"\n"
      "    name: rational_quadratic\n"
      "    alpha: [0.5, 1]\n"
      "    l: 2\n"
      "    psd: true\n");
  ASSERT_EQ(e.kernels.size(), 1U);
  const ComponentSpec& spec = e.kernels[0];
  EXPECT_EQ(spec.plugin, "rational_quadratic");
  ASSERT_NE(spec.expression, nullptr);
  const KernelExpression& f = *spec.expression;
  EXPECT_EQ(f.kind, Kind::Formula);
  EXPECT_TRUE(f.psd);
  EXPECT_EQ(f.formula->text(), "(1 + r2 / (2 * alpha * l^2))^(-alpha)");
  EXPECT_THAT(f.formula->parameters(), ElementsAre("alpha", "l"));
  EXPECT_EQ(f.formula_where.str(), "algebra.yaml:4:14");
  EXPECT_THAT(names_of(spec), ElementsAre("formula", "alpha", "l"));
  EXPECT_TRUE(spec.params[1].swept);
}

TEST(KernelExpression, AFormulaMayBeATermWithAScale) {
  const Experiment e = parse(
      "  - sum:\n"
      "      - {formula: \"exp(-r / l)\", l: 1.5, scale: 2}\n"
      "      - {plugin: constant, c: 0.5}\n");
  const KernelExpression& tree = *e.kernels[0].expression;
  ASSERT_EQ(tree.terms.size(), 2U);
  EXPECT_EQ(tree.terms[0].kind, Kind::Formula);
  EXPECT_EQ(tree.terms[0].plugin.plugin, "formula");  // the default name
  EXPECT_THAT(names_of(e.kernels[0]),
              ElementsAre("sum[0].formula", "sum[0].l", "sum[0].scale", "sum[1].c"));
}

TEST(KernelExpression, AMistakeInAFormulaIsAtTheFormulasPlaceWithItsColumn) {
  const std::string e = error_of("  - formula: \"exp(-r2 / (2 * sigmaa^2))\"\n    sigma: 1\n");
  EXPECT_THAT(e, HasSubstr("algebra.yaml:4:14: kernels[0].formula: column 16 of the formula"));
  EXPECT_THAT(e, HasSubstr("unknown name 'sigmaa' (did you mean 'sigma'?)"));
  EXPECT_THAT(error_of("  - formula: \"max(s)\"\n"), HasSubstr("max takes 2 arguments"));
  EXPECT_THAT(error_of("  - formula: \"s / (2 - 2)\"\n"), HasSubstr("division by zero"));
  // a parameter the formula does not use, at its own place
  EXPECT_THAT(error_of("  - formula: \"exp(-r2)\"\n    sigma: 1\n"),
              HasSubstr("algebra.yaml:5:12: kernels[0].sigma is set, but the formula"));
  // a parameter named as an input of the language
  EXPECT_THAT(error_of("  - formula: \"exp(-r2)\"\n    r2: 1\n"),
              HasSubstr("'r2' cannot be a parameter's name"));
  EXPECT_THAT(error_of("  - formula: \"s\"\n    name: \"a b\"\n"),
              HasSubstr("kernels[0].name 'a b' must be a plain name"));
  EXPECT_THAT(error_of("  - {formula: s, plugin: linear}\n"),
              HasSubstr("exactly one of 'plugin', 'formula'"));
  EXPECT_THAT(error_of("  - formula: [s]\n"),
              HasSubstr("kernels[0].formula must be a single value"));
  // hostile: a million characters are refused by their length
  EXPECT_THAT(error_of("  - formula: \"" + std::string(1000000, '1') + "\"\n"),
              HasSubstr("more than the 10000 a formula may have"));
}

}  // namespace
}  // namespace kexp::core
