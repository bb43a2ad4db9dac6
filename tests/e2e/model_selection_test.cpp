// Model selection through the kexp program: `folds:` and `validation_fraction:` give
// every row its validation error, the summary's best cell per solver is the one with
// the lowest validation error, the run is the same again from its config.yaml, and a run
// without validation says that its best cells were picked on the test set.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kConfig = R"(experiment: selection
seed: 5
folds: 4
dataset:
  plugin: cubic
  n: 150
  d: 2
  noise: 0.1
kernels:
  - plugin: gaussian
    sigma: [0.2, 1, 5]
solvers:
  - plugin: kernel_ridge
    lambda: {logspace: [-4, 0, 3]}
)";

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ModelSelection, KFoldPicksTheBestCellOnValidationErrorAndReproduces) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 9U);
  const std::size_t cell = column(t, "cell"), status = column(t, "status"),
                    validation = column(t, "validation_rmse"),
                    spread = column(t, "validation_rmse_std"),
                    seconds = column(t, "validation_seconds");
  std::string best;
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& row : t.rows) {
    ASSERT_EQ(row[status], "ok");
    const double v = std::stod(row[validation]);
    EXPECT_TRUE(std::isfinite(v) && v > 0);
    EXPECT_GT(std::stod(row[spread]), 0.0);  // four folds differ
    EXPECT_GT(std::stod(row[seconds]), 0.0);
    if (v < lowest) {
      lowest = v;
      best = row[cell];
    }
  }
  const std::string summary = read_text(dir.path() / "out" / "summary.md");
  EXPECT_THAT(summary, HasSubstr("Chosen by validation_rmse"));
  EXPECT_THAT(summary, HasSubstr("on 4-fold cross-validation of the training part"));
  EXPECT_THAT(summary, Not(HasSubstr("picked on the test set")));
  const auto table = summary.find("## Best cell per solver");
  ASSERT_NE(table, std::string::npos);
  EXPECT_THAT(summary.substr(table, summary.find("\n## ", table + 1) - table),
              HasSubstr("| kernel_ridge | " + best + " |"));

  // config.yaml asks for the same folds, and they give the same errors.
  EXPECT_THAT(read_text(dir.path() / "out" / "config.yaml"), HasSubstr("folds: 4"));
  const CommandResult again = run_kexp("run out/config.yaml --out again --quiet", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const core::CsvTable u = core::read_csv(dir.path() / "again" / "results.csv");
  ASSERT_EQ(u.rows.size(), t.rows.size());
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    EXPECT_EQ(u.rows[i][column(u, "cell")], t.rows[i][cell]);
    EXPECT_EQ(u.rows[i][column(u, "validation_rmse")], t.rows[i][validation]);
  }
}

TEST(ModelSelection, AHeldOutFractionAndClassification) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: selection-split
seed: 2
validation_fraction: 0.25
dataset: {plugin: circles, n: 160}
kernels: [{plugin: gaussian, sigma: [0.3, 3]}]
solvers: [{plugin: kernel_ridge_classifier, lambda: 0.01}]
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 2U);
  for (const auto& row : t.rows) {
    const double a = std::stod(row[column(t, "validation_accuracy")]);
    EXPECT_GE(a, 0.0);
    EXPECT_LE(a, 1.0);
    EXPECT_EQ(row[column(t, "validation_accuracy_std")], "");  // one split
  }
  const std::string summary = read_text(dir.path() / "out" / "summary.md");
  EXPECT_THAT(summary, HasSubstr("Chosen by validation_accuracy (higher is better)"));
  EXPECT_THAT(summary, HasSubstr("a held-out part (validation_fraction: 0.25)"));
}

TEST(ModelSelection, WithoutValidationTheSummarySaysTheTestSetChose) {
  TempDir dir;
  std::string text = kConfig;
  text.erase(text.find("folds: 4\n"), 9);
  dir.write("exp.yaml", text);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  EXPECT_FALSE(t.column("validation_rmse").has_value());
  EXPECT_THAT(read_text(dir.path() / "out" / "summary.md"),
              AllOf(HasSubstr("picked on the test set"), HasSubstr("Add `folds: 5`")));
}

TEST(ModelSelection, AValidationKeyInTheDatasetBlockIsMovedToTheTop) {
  TempDir dir;
  std::string text = kConfig;
  text.erase(text.find("folds: 4\n"), 9);
  text.insert(text.find("  noise: 0.1\n"), "  validation_fraction: 0.2\n");
  dir.write("exp.yaml", text);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("exp.yaml:7:"), HasSubstr("is a key of the experiment"),
                           Not(HasSubstr("did you mean 'test_fraction'"))));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

TEST(ModelSelection, TooManyFoldsForTheDataIsAnErrorBeforeAnythingIsWritten) {
  TempDir dir;
  std::string text = kConfig;
  text.replace(text.find("folds: 4"), 8, "folds: 500");
  dir.write("exp.yaml", text);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("exp.yaml:3:8"),
                           HasSubstr("folds: 500 needs at least 500 training samples")));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

}  // namespace
}  // namespace kexp::test
