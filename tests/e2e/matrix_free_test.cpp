// Solvers that reach the kernel, through the kexp program: where the memory budget
// refuses exact kernel ridge (it would hold K), cg_ridge and falkon run, are budgeted at
// what they say they hold, predict as kernel ridge does where both run, and take part in
// model selection on each split's points.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(MatrixFree, RunWhereKernelRidgeIsRefusedAndAgreeWhereBothRun) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: matrix-free
seed: 2
dataset:
  plugin: friedman1
  n: [500, 4000]
  d: 5
  noise: 0.5
  standardize: true
kernels:
  - plugin: gaussian
    sigma: 2
solvers:
  - plugin: kernel_ridge
    lambda: 0.4
  - plugin: cg_ridge
    lambda: 0.4
    tolerance: 1e-10
  - plugin: falkon
    lambda: 0.001
    m: 400
)");
  // K of 3200 training points is 82 MB and kernel ridge is budgeted at twice that
  const CommandResult dry =
      run_kexp("run exp.yaml --out out --dry-run --max-memory 60MB", dir.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("1 cells are over the memory budget"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet --max-memory 60MB", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the refused cell
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 6U);
  const std::size_t status = column(t, "status"), solver = column(t, "solver"),
                    n = column(t, "n_train"), rmse = column(t, "test_rmse"),
                    gram = column(t, "gram_seconds"), error = column(t, "error");
  double kernel_ridge_500 = 0, cg_500 = 0, falkon_500 = 0;
  for (const auto& row : t.rows) {
    const bool large = row[n] == "3200";
    if (row[solver] == "kernel_ridge" && large) {
      EXPECT_EQ(row[status], "refused");
      EXPECT_THAT(row[error], HasSubstr("memory budget"));
      continue;
    }
    EXPECT_EQ(row[status], "ok") << row[solver] << " n " << row[n] << ": " << row[error];
    if (row[solver] != "kernel_ridge") {
      EXPECT_TRUE(row[gram].empty()) << "no K was built";
    }
    if (!large && row[solver] == "kernel_ridge") kernel_ridge_500 = std::stod(row[rmse]);
    if (!large && row[solver] == "cg_ridge") cg_500 = std::stod(row[rmse]);
    if (!large && row[solver] == "falkon") falkon_500 = std::stod(row[rmse]);
  }
  ASSERT_GT(kernel_ridge_500, 0.0);
  ASSERT_GT(cg_500, 0.0);
  ASSERT_GT(falkon_500, 0.0);
  EXPECT_NEAR(cg_500, kernel_ridge_500, 1e-6 * kernel_ridge_500);
  // 400 training points, m = 400: every point a centre, and λ·n = 0.4
  EXPECT_NEAR(falkon_500, kernel_ridge_500, 1e-6 * kernel_ridge_500);
}

TEST(MatrixFree, ValidateOnEachSplitsPoints) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: matrix-free-folds
seed: 2
folds: 3
dataset:
  plugin: cubic
  n: 150
  d: 2
  noise: 0.1
kernels:
  - plugin: gaussian
    sigma: 1
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
  - plugin: cg_ridge
    lambda: 0.01
    tolerance: 1e-12
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 2U);
  const std::size_t validation = column(t, "validation_rmse");
  EXPECT_NEAR(std::stod(t.rows[1][validation]), std::stod(t.rows[0][validation]),
              1e-6 * std::stod(t.rows[0][validation]))
      << "cg_ridge validates on the same splits as kernel ridge, from the points";
}

}  // namespace
}  // namespace kexp::test
