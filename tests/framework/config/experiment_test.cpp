// The experiment parser: structure, generators, zip groups, overrides and their errors,
// each with the file:line:column (or the --set) it comes from.
#include "config/experiment.hpp"

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

std::string with_sigma(const std::string& sigma) {
  std::string text = kBase;
  text.replace(text.find("[0.5, 1, 2]"), 11, sigma);
  return text;
}

TEST(Experiment, ParsesTheFileWithLocations) {
  const Experiment e = parse(kBase);
  EXPECT_EQ(e.name, "t");
  EXPECT_EQ(e.seed, 1U);
  EXPECT_EQ(e.repeats, 1);
  ASSERT_EQ(e.kernels.size(), 1U);
  const ParamSetting& sigma = param(e.kernels[0], "sigma");
  EXPECT_TRUE(sigma.swept);
  EXPECT_EQ(values_of(sigma), (std::vector<std::string>{"0.5", "1", "2"}));
  EXPECT_EQ(sigma.key, "kernels[0].sigma");
  EXPECT_EQ(sigma.where.str(), "exp.yaml:8:12");
  EXPECT_FALSE(param(e.solvers[0], "lambda").swept);
}

TEST(Experiment, YamlSyntaxErrorsGiveLineAndColumn) {
  const std::string message = error_of("experiment: t\ndataset: {plugin: cubic\nkernels: [\n");
  EXPECT_THAT(message, AllOf(HasSubstr("exp.yaml:"), HasSubstr("YAML syntax error")));
  EXPECT_THAT(error_of("experiment: t\n  bad: indentation\n"), HasSubstr("exp.yaml:2:"));
}

TEST(Experiment, UnknownTopLevelKeysAreRejectedWithTheNearest) {
  EXPECT_THAT(error_of(std::string(kBase) + "repeat: 3\n"),
              AllOf(HasSubstr("exp.yaml:12:1"), HasSubstr("unknown top-level key 'repeat'"),
                    HasSubstr("did you mean 'repeats'?")));
}

TEST(Experiment, EveryErrorOfTheFileIsReportedInOnePassWithItsPlace) {
  const std::string message = error_of(R"(experiment: t
seed: -1
repeat: 3
dataset:
  plugin: cubic
  n: {linspace: [1, 2]}
kernels:
  - plugin: gaussian
    sigma: 0.5
  - sigma: 1
solvers:
  - plugin: kernel_ridge
timing: {min_seconds: -2, max_measurements: 0}
output: {dir: out, predicitons: true}
)");
  EXPECT_THAT(message, HasSubstr("7 errors in the experiment"));
  // In the file's order, each with file:line:column.
  const char* const expected[] = {
      "exp.yaml:2:7: seed must be ≥ 0",
      "exp.yaml:3:1: unknown top-level key 'repeat'",
      "exp.yaml:6:17: dataset.n.linspace takes three numbers",
      "exp.yaml:10:5: kernels[1] has no 'plugin' key",
      "exp.yaml:13:23: timing.min_seconds must be ≥ 0",
      "exp.yaml:13:45: timing.max_measurements must be ≥ 1",
      "exp.yaml:14:20: unknown key 'predicitons' in output; did you mean 'predictions'?"};
  std::size_t from = 0;
  for (const char* line : expected) {
    const std::size_t at = message.find(line);
    EXPECT_NE(at, std::string::npos) << line << "\nin\n" << message;
    EXPECT_GE(at, from) << line << " is out of order";
    from = at;
  }
}

TEST(Experiment, SeveralSeedsPointToRepeats) {
  std::string text = test::kBaseConfig;
  text.replace(text.find("seed: 1"), 7, "seed: [1, 2]");
  EXPECT_THAT(error_of(text),
              HasSubstr("exp.yaml:2:7: seed must be a single value: it is the root seed, from "
                        "which every dataset and cell derives its own; to run each cell with 2 "
                        "different seeds, write 'repeats: 2'"));
}

TEST(Experiment, OutputHtmlAndKernelMatrix) {
  const Experiment none = parse(kBase);
  EXPECT_FALSE(none.output.html);
  EXPECT_EQ(none.output.kernel_matrix, KernelMatrixOutput::None);
  const Experiment both =
      parse(std::string(kBase) + "output: {html: true, kernel_matrix: with_test}\n");
  EXPECT_TRUE(both.output.html);
  EXPECT_EQ(both.output.kernel_matrix, KernelMatrixOutput::TrainAndTest);
  EXPECT_EQ(both.output.kernel_matrix_where.line, 12);
  EXPECT_EQ(parse(std::string(kBase) + "output: {kernel_matrix: true}\n").output.kernel_matrix,
            KernelMatrixOutput::Train);
  EXPECT_EQ(parse(std::string(kBase) + "output: {kernel_matrix: false}\n").output.kernel_matrix,
            KernelMatrixOutput::None);
  EXPECT_THAT(error_of(std::string(kBase) + "output: {html: maybe}\n"),
              HasSubstr("exp.yaml:12:16: output.html must be true or false, got 'maybe'"));
  EXPECT_THAT(error_of(std::string(kBase) + "output: {kernel_matrix: [1]}\n"),
              HasSubstr("exp.yaml:12:25: output.kernel_matrix must be a single value"));
}

TEST(Experiment, OutputPlotsIsTheFindingsOrAll) {
  EXPECT_FALSE(parse(kBase).output.all_plots);
  EXPECT_TRUE(parse(std::string(kBase) + "output: {plots: all}\n").output.all_plots);
  EXPECT_FALSE(parse(std::string(kBase) + "output: {plots: findings}\n").output.all_plots);
  EXPECT_THAT(error_of(std::string(kBase) + "output: {plots: every}\n"),
              HasSubstr("exp.yaml:12:17: output.plots must be findings (the plots the "
                        "summary's findings rest on, the default) or all (every plot), got "
                        "'every'"));
}

TEST(Experiment, ValidationIsFoldsOrAFractionOfTheTrainingPart) {
  EXPECT_FALSE(parse(kBase).validation.enabled());
  const Experiment folds = parse(std::string(kBase) + "folds: 5\n");
  EXPECT_EQ(folds.validation.folds, 5);
  EXPECT_EQ(folds.validation.splits(), 5);
  EXPECT_EQ(folds.validation.where.line, 12);
  const Experiment split = parse(std::string(kBase) + "validation_fraction: 0.25\n");
  EXPECT_DOUBLE_EQ(split.validation.fraction, 0.25);
  EXPECT_EQ(split.validation.splits(), 1);
  EXPECT_EQ(parse(kBase, {"folds=3"}).validation.folds, 3);
}

TEST(Experiment, ValidationErrorsNameTheKeyAndTheFix) {
  EXPECT_THAT(error_of(std::string(kBase) + "folds: 1\n"),
              AllOf(HasSubstr("exp.yaml:12:8"), HasSubstr("folds must be ≥ 2, got 1")));
  EXPECT_THAT(error_of(std::string(kBase) + "folds: five\n"),
              HasSubstr("folds must be an integer, got 'five'"));
  EXPECT_THAT(error_of(std::string(kBase) + "validation_fraction: 1\n"),
              AllOf(HasSubstr("exp.yaml:12:22"), HasSubstr("must be > 0 and < 1, got 1")));
  EXPECT_THAT(error_of(std::string(kBase) + "folds: 5\nvalidation_fraction: 0.2\n"),
              AllOf(HasSubstr("exp.yaml:13:"), HasSubstr("not both")));
  // Misspelt, it is pointed at the right key, not at the dataset's test_fraction.
  EXPECT_THAT(error_of(std::string(kBase) + "validation_fractions: 0.2\n"),
              HasSubstr("did you mean 'validation_fraction'?"));
}

TEST(Experiment, AnEmptySweepIsAnError) {
  EXPECT_THAT(error_of(with_sigma("[]")),
              AllOf(HasSubstr("exp.yaml:8:12"), HasSubstr("kernels[0].sigma is an empty list")));
  EXPECT_THAT(error_of("experiment: t\ndataset: {plugin: cubic}\nkernels: {plugin: g}\n"
                       "solvers: []\n"),
              AllOf(HasSubstr("exp.yaml:4:10"), HasSubstr("solvers is empty")));
}

TEST(Experiment, GeneratorsGiveTheirValues) {
  EXPECT_EQ(values_of(param(parse(with_sigma("{linspace: [0, 1, 5]}")).kernels[0], "sigma")),
            (std::vector<std::string>{"0", "0.25", "0.5", "0.75", "1"}));
  EXPECT_EQ(values_of(param(parse(with_sigma("{logspace: [-1, 1, 3]}")).kernels[0], "sigma")),
            (std::vector<std::string>{"0.1", "1", "10"}));
  // range excludes stop, as Python's does, even when rounding lands just below it
  EXPECT_EQ(values_of(param(parse(with_sigma("{range: [0, 1, 0.25]}")).kernels[0], "sigma")),
            (std::vector<std::string>{"0", "0.25", "0.5", "0.75"}));
  EXPECT_EQ(
      values_of(param(parse(with_sigma("{range: [0, 0.3, 0.1]}")).kernels[0], "sigma")).size(), 3U);
  EXPECT_EQ(values_of(param(parse(with_sigma("{range: [5, 2, -1]}")).kernels[0], "sigma")),
            (std::vector<std::string>{"5", "4", "3"}));
  // one value is a sweep of one
  EXPECT_EQ(values_of(param(parse(with_sigma("{linspace: [2, 3, 1]}")).kernels[0], "sigma")),
            (std::vector<std::string>{"2"}));
}

TEST(Experiment, AGeneratorWithFewerThanOneValueIsAnError) {
  EXPECT_THAT(error_of(with_sigma("{linspace: [0, 1, 0]}")),
              AllOf(HasSubstr("exp.yaml:8:"), HasSubstr("must be ≥ 1, got 0")));
  EXPECT_THAT(error_of(with_sigma("{logspace: [0, 1, -2]}")), HasSubstr("must be ≥ 1"));
  EXPECT_THAT(error_of(with_sigma("{range: [1, 1, 0.5]}")), HasSubstr("is empty"));
  EXPECT_THAT(error_of(with_sigma("{range: [0, 1, 0]}")), HasSubstr("never reaches"));
  EXPECT_THAT(error_of(with_sigma("{range: [0, 1, -1]}")), HasSubstr("never reaches"));
  EXPECT_THAT(error_of(with_sigma("{linspace: [0, 1]}")), HasSubstr("takes three numbers"));
  EXPECT_THAT(error_of(with_sigma("{linspce: [0, 1, 2]}")), HasSubstr("did you mean 'linspace'"));
}

TEST(Experiment, ZipGroupsParametersThatMoveTogether) {
  const Experiment e = parse(R"(experiment: t
dataset:
  plugin: cubic
  n: [100, 200, 400]
  d: [1, 2, 4]
  zip: [n, d]
kernels: {plugin: gaussian}
solvers: {plugin: kernel_ridge}
)");
  ASSERT_EQ(e.dataset.zips.size(), 1U);
  EXPECT_EQ(e.dataset.zips[0].names, (std::vector<std::string>{"n", "d"}));
  EXPECT_EQ(e.dataset.params.size(), 2U);  // zip is not a parameter
}

TEST(Experiment, ZipErrorsNameTheProblem) {
  const std::string head = "experiment: t\ndataset:\n  plugin: cubic\n  n: [100, 200]\n";
  const std::string tail = "kernels: {plugin: gaussian}\nsolvers: {plugin: kernel_ridge}\n";
  EXPECT_THAT(
      error_of(head + "  d: [1, 2, 3]\n  zip: [n, d]\n" + tail),
      AllOf(HasSubstr("exp.yaml:6:"), HasSubstr("dataset.n has 2 values but dataset.d has 3")));
  EXPECT_THAT(error_of(head + "  zip: [n, noise]\n" + tail),
              HasSubstr("names 'noise', which is not a parameter written in dataset"));
  EXPECT_THAT(error_of(head + "  d: 2\n  zip: [n, d]\n" + tail),
              HasSubstr("dataset.d is a single value"));
  EXPECT_THAT(error_of(head + "  zip: [n]\n" + tail), HasSubstr("at least two parameters"));
  EXPECT_THAT(error_of(head + "  d: [1, 2]\n  zip: [[n, d], [n, d]]\n" + tail),
              HasSubstr("more than one group"));
}

TEST(Experiment, NamesThatWouldWriteOutsideTheOutputFolderAreRejected) {
  for (const char* name : {"../escape", "a/b", "..", ".", "/abs"}) {
    std::string text = kBase;
    text.replace(0, text.find('\n'), std::string("experiment: '") + name + "'");
    EXPECT_THAT(error_of(text), AllOf(HasSubstr("exp.yaml:1:13"), HasSubstr("plain folder name")))
        << name;
  }
}

TEST(Experiment, MissingPartsAreNamed) {
  EXPECT_THAT(error_of("seed: 1\n"), HasSubstr("has no name"));
  EXPECT_THAT(error_of("experiment: t\nkernels: {plugin: g}\nsolvers: {plugin: s}\n"),
              HasSubstr("no 'dataset:'"));
  EXPECT_THAT(
      error_of("experiment: t\ndataset: {n: 3}\nkernels: {plugin: g}\nsolvers: {plugin: s}\n"),
      HasSubstr("no 'plugin' key"));
  EXPECT_THAT(error_of(std::string(kBase) + "repeats: 0\n"), HasSubstr("repeats must be ≥ 1"));
}

}  // namespace
}  // namespace kexp::core
