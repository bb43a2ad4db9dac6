// What yaml-cpp accepts but an experiment file must not hold: repeated keys, a second
// document, alias cycles and alias bombs; and numbers past what their type holds.
#include "config/structure.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/config.hpp"

namespace kexp::core {
namespace {

using test::config_error;
using ::testing::HasSubstr;

TEST(Structure, ARepeatedKeyIsAnErrorAtItsSecondPlace) {
  const std::string text = std::string(test::kBaseConfig) + "solvers:\n  - plugin: dual_gd\n";
  const std::string e = config_error(text);
  EXPECT_THAT(e, HasSubstr("exp.yaml:12:1:"));
  EXPECT_THAT(e, HasSubstr("key 'solvers' is given twice in this map (first at line 9)"));
  EXPECT_THAT(config_error("experiment: t\ndataset: {plugin: cubic, n: 1, n: 2}\n"),
              HasSubstr("key 'n' is given twice"));
}

TEST(Structure, ASecondDocumentIsAnError) {
  const std::string e = config_error(std::string(test::kBaseConfig) + "---\nexperiment: u\n");
  EXPECT_THAT(e, HasSubstr("exp.yaml:13:"));
  EXPECT_THAT(e, HasSubstr("second YAML document"));
}

TEST(Structure, InputOnWhichYamlCppsLoadAllLoopsIsAnErrorAtOnce) {
  // yaml-cpp 0.7's LoadAll adds empty documents without end after a comma like this one;
  // an empty second document is no document.
  EXPECT_THAT(config_error("\n,\n    "), HasSubstr("must be a YAML map"));
  EXPECT_THAT(config_error(std::string(test::kBaseConfig) + "---\n"), ::testing::Eq("(no error)"));
}

TEST(Structure, AKeyThatIsNotAPlainNameIsAnError) {
  for (const char* key : {"? ", "? [a, b]", "? {a: 1}"}) {
    const std::string e =
        config_error(std::string(test::kBaseConfig) + "output:\n  " + key + "\n  : results\n");
    EXPECT_THAT(e, HasSubstr("is not a plain name")) << key;
  }
}

TEST(Structure, AnAliasCycleIsAnErrorNotARecursion) {
  const std::string e = config_error(
      "experiment: t\ndataset: {plugin: cubic}\nkernels: &k [{sum: *k}]\n"
      "solvers: [{plugin: kernel_ridge}]\n");
  EXPECT_THAT(e, HasSubstr("a YAML alias refers to a node that contains it"));
}

TEST(Structure, AnAliasBombIsRefusedBeforeItExpands) {
  // Each level doubles the one before: 2³⁰ leaves from a few hundred bytes.
  std::string text = "a0: &a0 [{plugin: linear}, {plugin: linear}]\n";
  for (int i = 1; i <= 30; ++i) text += fmt::format("a{}: &a{} [*a{}, *a{}]\n", i, i, i - 1, i - 1);
  text += "experiment: t\n";
  EXPECT_THAT(config_error(text), HasSubstr("expands to more than 100000 values"));
}

TEST(Structure, IntegersPastTheirRangeAreErrors) {
  const std::string base(test::kBaseConfig);
  EXPECT_THAT(config_error(base + "repeats: 4294967296\n"),
              HasSubstr("repeats must be ≤ 1000000, got 4294967296"));
  EXPECT_THAT(config_error(base + "repeats: 2147483648\n"), HasSubstr("repeats must be ≤ 1000000"));
  EXPECT_THAT(config_error(base + "repeats: 99999999999999999999999\n"),
              HasSubstr("repeats must be ≤ 1000000"));
  std::string seedless = base;
  seedless.replace(seedless.find("seed: 1"), 7, "seed: 99999999999999999999999");
  EXPECT_THAT(config_error(seedless), HasSubstr("seed must be ≤"));
  EXPECT_EQ(test::parse_config(base + "repeats: 3\n").repeats, 3);
}

}  // namespace
}  // namespace kexp::core
