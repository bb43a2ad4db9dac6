// Hyperparameters learned by the log marginal likelihood, through the kexp program:
// gp_regression with optimize: true writes what it learned as learned.* columns, with a
// sum of kernels and with validation folds; the same file gives the same values again; a
// kernel without gradients fails its cells with the remedy, and the run goes on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: learned
seed: 2
folds: 2
dataset:
  plugin: friedman1
  n: 120
  d: 5
  noise: 0.5
  standardize: true
kernels:
  - sum:                # θ₀·exp(−‖x − z‖²/2σ²) + θ₂ + θ₃·xᵀz
      - {plugin: gaussian, sigma: 1.0, scale: 1.0}
      - {plugin: constant, c: 0.5}
      - {plugin: linear, scale: 0.1}
  - plugin: mixture      # no gradients: optimize refuses it
    components: 2
solvers:
  - plugin: gp_regression
    noise: 0.1
    optimize: [false, true]
    bounds: "noise=1e-4:10"
output: {predictions: true}
)";

TEST(LearnedHyperparameters, WrittenAsColumnsAndTheSameAgain) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // the mixture's learning cell
  EXPECT_THAT(r.err, HasSubstr("Set optimize: false and sweep the parameters instead"));
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 4U);
  const std::size_t status = column(t, "status"), kernel = column(t, "kernel"),
                    optimize = column(t, "solver.optimize"),
                    sigma = column(t, "learned.kernel.sum[0].sigma"),
                    slope = column(t, "learned.kernel.sum[2].scale"),
                    noise = column(t, "learned.solver.noise"),
                    lml = column(t, "log_marginal_likelihood"), rmse = column(t, "test_rmse"),
                    gram = column(t, "gram_seconds");
  EXPECT_FALSE(t.column("learned.kernel.components").has_value()) << "an integer is not learned";
  double lml_written = 0, lml_learned = 0, rmse_written = 0, rmse_learned = 0;
  for (const auto& row : t.rows) {
    const bool learns = row[optimize] == "true";
    if (row[kernel] == "mixture") {
      EXPECT_EQ(row[status], learns ? "failed" : "ok");
      continue;
    }
    ASSERT_EQ(row[status], "ok");
    // the learning cell makes K at the values it tries: none is built at the written ones
    EXPECT_EQ(row[gram].empty(), learns);
    EXPECT_EQ(row[sigma].empty(), !learns);
    EXPECT_EQ(row[noise].empty(), !learns);
    if (learns) {
      EXPECT_GT(std::stod(row[sigma]), 0.0);
      EXPECT_GT(std::stod(row[slope]), 0.0);
      EXPECT_GE(std::stod(row[noise]), 1e-4);
      EXPECT_LE(std::stod(row[noise]), 10.0);
    }
    (learns ? lml_learned : lml_written) = std::stod(row[lml]);
    (learns ? rmse_learned : rmse_written) = std::stod(row[rmse]);
  }
  EXPECT_GT(lml_learned, lml_written) << "learning raises the likelihood of the training data";
  // every run that ended ok predicted with variances, the learning one too
  int files = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir.path() / "out" / "predictions")) {
    std::string header;
    std::ifstream in(file.path());
    std::getline(in, header);
    EXPECT_EQ(header, "index,y_true,y_pred,var_f,var_y") << file.path();
    ++files;
  }
  EXPECT_EQ(files, 3);
  // friedman1's noise has a standard deviation of 0.5 (before standardizing y, whose
  // spread is about 5): the learned GP must come close to that floor.
  EXPECT_LT(rmse_learned, 0.5 * rmse_written + 0.5) << rmse_written;

  const CommandResult again = run_kexp("run exp.yaml --out again --quiet", dir.path());
  const core::CsvTable u = core::read_csv(dir.path() / "again" / "results.csv");
  ASSERT_EQ(u.rows.size(), t.rows.size()) << again.err;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    EXPECT_EQ(u.rows[i][sigma], t.rows[i][sigma]) << "row " << i;
    EXPECT_EQ(u.rows[i][rmse], t.rows[i][rmse]) << "row " << i;
  }
}

TEST(LearnedHyperparameters, WithoutOptimizeTheColumnsAreNotThere) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: fixed
dataset: {plugin: friedman1, n: 40, d: 5}
kernels: [{plugin: gaussian, sigma: 2.0}]
solvers: [{plugin: gp_regression, noise: 0.1}]
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  EXPECT_FALSE(t.column("learned.kernel.sigma").has_value());
}

TEST(LearnedHyperparameters, TheBudgetCountsWhatLearningHolds) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: budget
dataset: {plugin: friedman1, n: 500, d: 5}
kernels: [{plugin: gaussian, sigma: 2.0}]
solvers: [{plugin: gp_regression, noise: 0.1, optimize: [false, true]}]
)");
  // n = 400, m = 100, d = 5. The fixed GP is the only cell to read K, and factors it in
  // place; the learning GP reads no K, but holds C and one slice of ∂K/∂ log σ, then the
  // learned K(X, X*) and L⁻¹K(X, X*).
  const double n = 400, m = 100, inputs = 8 * 5 * (n + m);
  const double fixed = 8 * (n * n + n * m + m) + inputs;
  const double learning = 8 * (2 * n * n + 2 * n * m + m) + inputs;
  ASSERT_LT(fixed, learning);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet --max-memory " +
                                       std::to_string(static_cast<long>((fixed + learning) / 2)),
                                   dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("to learn 2 hyperparameters, C = K + noise·I, 1 slice of ∂K"));
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 2U);
  EXPECT_EQ(t.rows[0][column(t, "status")], "ok");
  EXPECT_EQ(t.rows[1][column(t, "status")], "refused");
  // with room for the learning cell alone, not for K beside it: both run
  const CommandResult both = run_kexp("run exp.yaml --out both --quiet --max-memory " +
                                          std::to_string(static_cast<long>(learning) + 1),
                                      dir.path());
  EXPECT_EQ(both.exit_code, 0) << both.err;
}

TEST(LearnedHyperparameters, DescribeSaysWhichSolversLearnAndWhichReachTheKernel) {
  const CommandResult gp = run_kexp("describe gp_regression");
  ASSERT_EQ(gp.exit_code, 0) << gp.err;
  EXPECT_THAT(gp.out, HasSubstr("may learn the kernel's hyperparameters (optimize)"));
  const CommandResult falkon = run_kexp("describe falkon");
  ASSERT_EQ(falkon.exit_code, 0) << falkon.err;
  EXPECT_THAT(falkon.out, HasSubstr("reaches the kernel: never holds K"));
  EXPECT_THAT(falkon.out, ::testing::Not(HasSubstr("may learn")));
}

}  // namespace
}  // namespace kexp::test
