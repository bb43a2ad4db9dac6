// Kernels that learn from the training data, through the kexp program: the Fisher and
// mixture kernels run in both forms with validation folds, their fit is its own timed
// phase in results.csv, the primal and dual forms predict alike, the run is the same
// again, and a fit that cannot be made fails its cells with the reason, not the run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: fitted
seed: 4
folds: 3
dataset:
  plugin: friedman1
  n: 150
  d: 5
  noise: 0.5
  standardize: true
kernels:
  - sum:                # the Fisher scores average to zero: a constant gives the mean
      - plugin: fisher
        components: [1, 2]
      - plugin: constant
        c: 1
  - plugin: mixture
    components: 3
    normalize: true
solvers:
  - plugin: kernel_ridge
    lambda: 0.1
  - plugin: primal_ridge
    lambda: 0.1
)";

TEST(FittedKernels, RunInBothFormsWithTheFitTimedAndPredictAlike) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 6U);  // 3 kernel variants × 2 solvers
  const std::size_t status = column(t, "status"), fit = column(t, "kernel_fit_seconds"),
                    measured = column(t, "kernel_fit_measurements"),
                    validation = column(t, "validation_rmse"),
                    diff = column(t, "prediction_max_diff"), form = column(t, "form"),
                    rmse = column(t, "test_rmse"), kernel = column(t, "kernel");
  std::size_t paired = 0;
  for (const auto& row : t.rows) {
    EXPECT_EQ(row[status], "ok");
    EXPECT_GT(std::stod(row[fit]), 0.0);
    EXPECT_GE(std::stoi(row[measured]), 1);
    EXPECT_FALSE(row[validation].empty());
    // y has a standard deviation of about 5; the Gaussian kernel reaches 1.1 here
    if (row[kernel] == "sum(fisher,constant)") {
      EXPECT_LT(std::stod(row[rmse]), 2.0);
    }
    if (row[form] == "primal" && !row[diff].empty()) {
      EXPECT_LE(std::stod(row[diff]), 1e-6);
      ++paired;
    }
  }
  EXPECT_EQ(paired, 3U) << "each primal cell is paired with its dual counterpart";

  // the same file, again: the same fits and the same predictions
  const CommandResult again = run_kexp("run exp.yaml --out again --quiet", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const core::CsvTable u = core::read_csv(dir.path() / "again" / "results.csv");
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    EXPECT_EQ(u.rows[i][rmse], t.rows[i][rmse]) << "row " << i;
    EXPECT_EQ(u.rows[i][validation], t.rows[i][validation]) << "row " << i;
  }
}

TEST(FittedKernels, AFitThatCannotBeMadeFailsItsCellsWithTheReason) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: too-many
dataset:
  plugin: friedman1
  n: 20
  d: 5
kernels:
  - plugin: mixture
    components: [2, 40]
  - plugin: linear
solvers:
  - plugin: kernel_ridge
    lambda: 0.1
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kernel 'mixture' failed while fitting the kernel to the "
                               "training points: a mixture of 40 components needs at least "
                               "as many training samples, and got 16; lower `components`"));
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 3U);
  const std::size_t status = column(t, "status");
  EXPECT_EQ(t.rows[0][status], "ok");
  EXPECT_EQ(t.rows[1][status], "failed");
  EXPECT_EQ(t.rows[2][status], "ok") << "the run goes on past the failed fit";
}

TEST(FittedKernels, NystromRunsInBothFormsAndWithASolverThatReachesTheKernel) {
  // 120 training points, 80 in each split's fit part: m = 121 cannot be drawn.
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: nystrom
seed: 3
folds: 3
dataset:
  plugin: cubic
  n: 150
  d: 2
  noise: 0.1
kernels:
  - nystrom: {plugin: gaussian, sigma: 1}
    m: [20, 80, 121]
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
  - plugin: primal_ridge
    lambda: 0.01
  - plugin: cg_ridge
    lambda: 0.01
    tolerance: 1e-12
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the m = 121 cells
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 9U);
  const std::size_t status = column(t, "status"), m = column(t, "kernel.m"),
                    solver = column(t, "solver"), diff = column(t, "prediction_max_diff"),
                    validation = column(t, "validation_rmse"), error = column(t, "error");
  double ridge_validation = 0, cg_validation = 0, diff_20 = 0, diff_80 = 0;
  for (const auto& row : t.rows) {
    if (row[m] == "121") {
      EXPECT_EQ(row[status], "failed");
      EXPECT_THAT(row[error], HasSubstr("needs at least 121 training points"));
      continue;
    }
    ASSERT_EQ(row[status], "ok") << row[error];
    if (row[solver] == "primal_ridge") (row[m] == "20" ? diff_20 : diff_80) = std::stod(row[diff]);
    if (row[m] == "20" && row[solver] == "kernel_ridge")
      ridge_validation = std::stod(row[validation]);
    if (row[m] == "20" && row[solver] == "cg_ridge") cg_validation = std::stod(row[validation]);
  }
  EXPECT_GT(diff_20, 1e-3) << "20 centres approximate the kernel";
  EXPECT_LT(diff_80, diff_20) << "more centres, closer to the exact dual";
  ASSERT_GT(ridge_validation, 0.0);
  EXPECT_NEAR(cg_validation, ridge_validation, 1e-6 * ridge_validation)
      << "cg_ridge on each split's points with the split's kernel validates as kernel ridge";
}

TEST(FittedKernels, CheckKernelFitsTheKernelOnItsPoints) {
  const CommandResult r = run_kexp("check-kernel fisher --set components=2 --points 80 --dim 3");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("fitted on the points below first"));
  EXPECT_THAT(r.out, HasSubstr("feature map     exact, D = 13"));
  EXPECT_THAT(r.out, HasSubstr("verdict: valid"));
}

}  // namespace
}  // namespace kexp::test
