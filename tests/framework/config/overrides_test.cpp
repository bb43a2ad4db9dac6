// Command-line overrides: written into the document before it is parsed, so that a value
// set or swept from the command line is checked like one in the file and located at its
// --set.
#include "config/overrides.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/config.hpp"

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const char* const kBase = test::kBaseConfig;

Experiment parse(const std::string& text, const std::vector<std::string>& sets = {}) {
  return test::parse_config(text, sets);
}

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  return test::config_error(text, sets);
}

using test::values_of;

const ParamSetting& param(const ComponentSpec& c, const std::string& name) {
  return test::setting_of(c, name);
}

/// The text of apply_override's error, or "(no error)".
std::string apply_error(const std::string& yaml, const std::string& text) {
  try {
    apply_override(YAML::Load(yaml), Override{text});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Override, OverridesSetAndSweep) {
  const Experiment e = parse(kBase, {"kernels[0].sigma=0.25,4", "solvers[0].lambda=1e-6",
                                     "dataset.noise=0.3", "repeats=3"});
  EXPECT_EQ(values_of(param(e.kernels[0], "sigma")), (std::vector<std::string>{"0.25", "4"}));
  EXPECT_TRUE(param(e.kernels[0], "sigma").swept);
  EXPECT_EQ(values_of(param(e.solvers[0], "lambda")), (std::vector<std::string>{"1e-6"}));
  EXPECT_EQ(values_of(param(e.dataset, "noise")), (std::vector<std::string>{"0.3"}));
  EXPECT_EQ(param(e.dataset, "noise").where.str(), "--set dataset.noise=0.3");
  EXPECT_EQ(e.repeats, 3);
}

TEST(Override, GeneratorsAndListsAsTheFileWritesThem) {
  const Experiment e = parse(
      kBase, {"solvers[0].lambda=logspace(-3, 0, 4)", "kernels[0].sigma={linspace: [1, 2, 3]}"});
  EXPECT_EQ(values_of(param(e.solvers[0], "lambda")),
            (std::vector<std::string>{"0.001", "0.01", "0.1", "1"}));
  EXPECT_EQ(values_of(param(e.kernels[0], "sigma")), (std::vector<std::string>{"1", "1.5", "2"}));
  const Experiment list = parse(kBase, {"kernels[0].sigma=[0.5, 2]"});
  EXPECT_EQ(values_of(param(list.kernels[0], "sigma")), (std::vector<std::string>{"0.5", "2"}));
  EXPECT_THAT(error_of(kBase, {"solvers[0].lambda=logspace(-3, 0)"}),
              HasSubstr("[start, stop, count]"));
  EXPECT_THAT(error_of(kBase, {"solvers[0].lambda=geomspace(1, 2, 3)"}),
              HasSubstr("'geomspace' is not a generator"));
  EXPECT_THAT(error_of(kBase, {"solvers[0].lambda=[1, 2"}), HasSubstr("not valid YAML"));
}

TEST(Override, AnOverrideThatNamesNoKeyIsAnError) {
  EXPECT_THAT(error_of(kBase, {"kernels[3].sigma=1"}), HasSubstr("no element [3]"));
  EXPECT_THAT(error_of(kBase, {"kernel[0].sigma=1"}),
              HasSubstr("no key 'kernel'; did you mean 'kernels'?"));
  // A list index written with a dot, as in other tools, gets the bracketed form.
  EXPECT_THAT(error_of(kBase, {"kernels.0.sigma=2"}),
              HasSubstr("no key '0'; an element of a list is written [0]: "
                        "--set kernels[0].sigma=2"));
  EXPECT_THAT(error_of(kBase, {"solvers.0.lambda=2"}), HasSubstr("--set solvers[0].lambda=2"));
  EXPECT_THAT(error_of(kBase, {"=1"}), HasSubstr("must be KEY=VALUE"));
  EXPECT_THAT(error_of(kBase, {"sigma"}), HasSubstr("must be KEY=VALUE"));
  EXPECT_THAT(error_of(kBase, {"kernels[0]=1"}), HasSubstr("does not name a key of a map"));
  EXPECT_THAT(error_of(kBase, {"kernels[0].sigma=1,,2"}), HasSubstr("an empty value"));
  // a new top-level key is checked like one written in the file, located at the --set
  EXPECT_THAT(error_of(kBase, {"sed=3"}),
              AllOf(HasSubstr("--set sed=3: unknown top-level key 'sed'"),
                    HasSubstr("did you mean 'seed'?")));
}

TEST(Override, WritesOneValueOrAListAndReturnsTheKeyPath) {
  const YAML::Node root = YAML::Load(kBase);
  EXPECT_EQ(apply_override(root, {"kernels[0].sigma=3"}), "kernels[0].sigma");
  EXPECT_TRUE(root["kernels"][0]["sigma"].IsScalar());
  EXPECT_EQ(root["kernels"][0]["sigma"].as<std::string>(), "3");
  EXPECT_EQ(apply_override(root, {"dataset.n=10,20,30"}), "dataset.n");
  ASSERT_TRUE(root["dataset"]["n"].IsSequence());
  EXPECT_EQ(root["dataset"]["n"].size(), 3U);
  EXPECT_EQ(root["dataset"]["n"][2].as<std::string>(), "30");
  EXPECT_EQ(apply_override(root, {"dataset.noise=0.2"}), "dataset.noise");  // a new key
  EXPECT_EQ(root["dataset"]["noise"].as<std::string>(), "0.2");
}

TEST(Override, AnOutputOrTimingSettingNeedsNoSectionInTheFile) {
  // The base config has neither output: nor timing:.
  ASSERT_FALSE(YAML::Load(kBase)["output"]);
  const Experiment e = parse(kBase, {"output.kernel_matrix=true", "timing.max_measurements=3"});
  EXPECT_EQ(e.output.kernel_matrix, KernelMatrixOutput::Train);
  EXPECT_EQ(e.timing.max_measurements, 3);
  // A key the section does not have is reported as in the file.
  EXPECT_THAT(error_of(kBase, {"output.htlm=true"}), HasSubstr("htlm"));
  // Other sections are not created: their keys name plugins and values.
  EXPECT_THAT(error_of(kBase, {"validation.folds=3"}), HasSubstr("no key 'validation'"));
}

TEST(Override, AnEntryWrittenAsOneMapIsElementZero) {
  const YAML::Node root = YAML::Load("solvers: {plugin: kernel_ridge}\n");
  EXPECT_EQ(apply_override(root, {"solvers[0].lambda=0.5"}), "solvers[0].lambda");
  EXPECT_EQ(root["solvers"]["lambda"].as<std::string>(), "0.5");
}

TEST(Override, MalformedKeysAreNamed) {
  EXPECT_THAT(apply_error(kBase, "kernels[0.sigma=1"), HasSubstr("unclosed '[' in the key"));
  EXPECT_THAT(apply_error(kBase, "kernels[x].sigma=1"), HasSubstr("'x' is not an index"));
  EXPECT_THAT(apply_error(kBase, "kernels[0].sigma="), HasSubstr("no value given"));
}

}  // namespace
}  // namespace kexp::core
