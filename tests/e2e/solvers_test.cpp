// The solvers through the kexp program: a config with the gaussian kernel and every dual
// solver on the cubic dataset, a λ sweep long enough for kernel_ridge to share one
// band reduction, and the columns each solver adds to results.csv.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "reporting/result_folder.hpp"
#include "support/plugins.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

constexpr const char* kConfig = R"(experiment: solvers-e2e
seed: 3
dataset:
  plugin: cubic
  n: 250
  d: 2
  noise: 0.05
  test_fraction: 0.2
kernels:
  - plugin: gaussian
    sigma: 0.7
solvers:
  - plugin: kernel_ridge
    lambda: {logspace: [-4, 0, 25]}
  - plugin: gp_regression
    noise: 0.01
  - plugin: dual_gd
    iterations: 300
  - plugin: nadaraya_watson
output:
  predictions: true
)";

TEST(SolversEndToEnd, RunsEverySolverAndSharesTheDecompositionOfTheLambdaSweep) {
  TempDir dir;
  dir.write("solvers.yaml", kConfig);
  const CommandResult r = run_kexp("run solvers.yaml --out out", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const core::CsvTable table = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(table.rows.size(), 28U);
  const auto col = [&](const std::string& name) {
    const auto i = table.column(name);
    EXPECT_TRUE(i.has_value()) << name;
    return i.value_or(0);
  };
  const std::size_t status = col("status"), solver = col("solver"), lambda = col("solver.lambda"),
                    shared = col("decomposition_shared"), band = col("band_reduction"),
                    lml = col("log_marginal_likelihood"), alpha = col("alpha"),
                    rmse = col("test_rmse"), iterations = col("iterations");
  double ridge_rmse_at_gp_noise = std::nan("");
  int ridge = 0, reused = 0;
  for (const auto& row : table.rows) {
    EXPECT_EQ(row[status], "ok");
    const double test_rmse = std::stod(row[rmse]);
    EXPECT_LT(test_rmse, 0.5) << row[solver];
    if (row[solver] == "kernel_ridge") {
      ++ridge;
      EXPECT_EQ(row[band], "1");
      reused += row[shared] == "1" ? 1 : 0;
      if (std::abs(std::stod(row[lambda]) - 0.01) < 1e-12) ridge_rmse_at_gp_noise = test_rmse;
    } else if (row[solver] == "gp_regression") {
      EXPECT_TRUE(std::isfinite(std::stod(row[lml])));
    } else if (row[solver] == "dual_gd") {
      EXPECT_GT(std::stod(row[alpha]), 0.0);
      EXPECT_EQ(row[iterations], "300");
    }
  }
  EXPECT_EQ(ridge, 25);
  EXPECT_EQ(reused, 24);  // the first cell reduces K, the others reuse the reduction
  // GP mean = kernel ridge with λ = noise; 0.01 is on the sweep (10^(−4 + 4·12/24)).
  ASSERT_TRUE(std::isfinite(ridge_rmse_at_gp_noise));
  for (const auto& row : table.rows) {
    if (row[solver] == "gp_regression") {
      EXPECT_NEAR(std::stod(row[rmse]), ridge_rmse_at_gp_noise, 1e-9);
    }
  }
}

/// Runs `config` with its line SOLVERS replaced by `solvers`, writing to `out`; expects
/// exit 0.
void run_with_solvers(std::string config, const std::string& solvers,
                      const std::filesystem::path& out) {
  config.replace(config.find("SOLVERS"), 7, solvers);
  TempDir dir;
  dir.write("experiment.yaml", config);
  const auto r = run_kexp("run experiment.yaml --quiet --out '" + out.string() + "'", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// The runner releases K before building K(X, X*) for the last dual cell of a group,
// except for a solver that reads K again when predicting (gp_regression's variance):
// the GP's predictions must not depend on whether its cell is the last of its group.
TEST(SolversEndToEnd, GpVarianceDoesNotDependOnTheCellsPlaceInItsGroup) {
  const std::string config = R"(experiment: gp-order
seed: 5
dataset: {plugin: cubic, n: 120, d: 2, noise: 0.1}
kernels:
  - {plugin: gaussian, sigma: 0.7}
solvers:
SOLVERS
output: {predictions: true}
)";
  TempDir out;
  run_with_solvers(config, "  - {plugin: gp_regression, noise: 0.01}", out.path() / "last");
  run_with_solvers(
      config, "  - {plugin: gp_regression, noise: 0.01}\n  - {plugin: kernel_ridge, lambda: 0.01}",
      out.path() / "first");
  const auto gp_file = [](const std::filesystem::path& folder) {
    for (const auto& e : std::filesystem::directory_iterator(folder / "predictions")) {
      const core::CsvTable t = core::read_csv(e.path());
      if (t.column("var_f")) return t;
    }
    return core::CsvTable{};
  };
  const core::CsvTable last = gp_file(out.path() / "last"), first = gp_file(out.path() / "first");
  ASSERT_TRUE(last.column("var_f").has_value());
  ASSERT_EQ(last.rows.size(), first.rows.size());
  ASSERT_GT(last.rows.size(), 0U);
  const std::size_t f = *last.column("var_f"), y = *last.column("var_y");
  for (std::size_t i = 0; i < last.rows.size(); ++i) {
    const double var_f = std::stod(last.rows[i][f]);
    EXPECT_EQ(last.rows[i], first.rows[i]) << "row " << i;
    EXPECT_GE(var_f, -1e-12);
    EXPECT_NEAR(std::stod(last.rows[i][y]), var_f + 0.01, 1e-12);
  }
}

// A cell that is the only user of K gets only its lower triangle computed (kernel_ridge
// declares flags::lower_triangle); sharing K with another solver, it gets all of K. The
// predictions must not depend on which.
TEST(SolversEndToEnd, KernelRidgePredictsTheSameFromTheLowerTriangleOfK) {
  const std::string config = R"(experiment: lower-triangle
seed: 9
dataset: {plugin: friedman1, n: 700, d: 5, noise: 0.2}
kernels:
  - {plugin: gaussian, sigma: 1.3}
solvers:
SOLVERS
output: {predictions: true}
)";
  const auto predictions = [&](const std::string& solvers) {
    TempDir dir;
    run_with_solvers(config, solvers, dir.path() / "out");
    const core::ResultFolder folder(dir.path() / "out");
    const core::CsvTable results = folder.read_results();
    const std::size_t solver = results.column("solver").value();
    const std::size_t cell = results.column("cell").value();
    std::vector<double> y;
    for (const auto& row : results.rows) {
      if (row[solver] != "kernel_ridge") continue;
      const core::CsvTable t = core::read_csv(folder.prediction_file(row[cell], "0"));
      for (const auto& p : t.rows) y.push_back(std::stod(p[t.column("y_pred").value()]));
    }
    return y;
  };
  const std::vector<double> alone = predictions("  - {plugin: kernel_ridge, lambda: 0.01}");
  const std::vector<double> shared =
      predictions("  - {plugin: kernel_ridge, lambda: 0.01}\n  - {plugin: nadaraya_watson}");
  ASSERT_EQ(alone.size(), shared.size());
  ASSERT_GT(alone.size(), 100U);
  for (std::size_t i = 0; i < alone.size(); ++i) {
    EXPECT_NEAR(alone[i], shared[i], 1e-10 * std::max(1.0, std::abs(shared[i]))) << i;
  }
}

}  // namespace
}  // namespace kexp::test
