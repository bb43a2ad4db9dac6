// The gnuplot scripts of the plots, checked without gnuplot: KEXP_GNUPLOT names `true`,
// which passes the probe and draws nothing, so every script is written and none drawn.
#include "reporting/plots.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

std::string read(const fs::path& file) {
  std::stringstream s;
  s << std::ifstream(file).rdbuf();
  return s.str();
}

/// One dataset variant (n = 100, 80 for training), a kernel swept over its degree with
/// D = 10, 100, 1000: primal time 1e-5·D, dual time 1e-3, equal at D = 100.
CsvTable degree_sweep() {
  CsvTable t;
  t.columns = {"cell",        "repeat",    "status",        "dataset",          "kernel",
               "solver",      "form",      "n_train",       "feature_dim",      "test_rmse",
               "fit_seconds", "dataset.n", "kernel.degree", "solver.iterations"};
  const char* const dims[] = {"10", "100", "1000"};
  const char* const primal_times[] = {"0.0001", "0.001", "0.01"};
  for (int i = 0; i < 3; ++i) {
    const std::string degree = std::to_string(i + 1);
    t.rows.push_back({"p" + degree, "0", "ok", "cubic", "poly", "primal_gd", "primal", "80",
                      dims[i], "0.1", primal_times[i], "100", degree, "10"});
    t.rows.push_back({"d" + degree, "0", "ok", "cubic", "poly", "dual_gd", "dual", "80", "", "0.1",
                      "0.001", "100", degree, "10"});
  }
  return t;
}

TEST(Plots, CostAgainstDimensionWhenNIsNotSwept) {
  test::TempDir dir;
  ::setenv("KEXP_GNUPLOT", "true", 1);
  const CsvTable t = degree_sweep();
  const auto cells = summarize_cells(t);
  const PlotResult r = write_plots(cells, swept_columns(t, cells), dir.path());
  ::unsetenv("KEXP_GNUPLOT");
  EXPECT_TRUE(r.skipped.empty()) << r.skipped;
  const fs::path script = dir.path() / "plots" / "cost_vs_D_cubic_n_100.gp";
  ASSERT_TRUE(fs::exists(script));
  const std::string gp = read(script);
  EXPECT_THAT(gp, HasSubstr("set logscale x"));
  EXPECT_THAT(gp, HasSubstr("'D = n = 80'"));
  EXPECT_THAT(gp, HasSubstr("'crossover D ≈ 100'"));
  EXPECT_THAT(gp, HasSubstr("10 0.0001\n100 0.001\n1000 0.01\n"));  // primal line
  EXPECT_THAT(gp, HasSubstr("10 0.001\n100 0.001\n1000 0.001\n"));  // dual line, D of its kernel
  EXPECT_THAT(gp, HasSubstr("'dual dual_gd(iterations=10)'"));
  // n is not swept: no plot against n
  for (const auto& entry : fs::directory_iterator(dir.path() / "plots")) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr("cost_vs_n")));
  }
}

TEST(Plots, ARebuildReplacesTheReportsPlotsAndKeepsAnyOther) {
  test::TempDir dir;
  const fs::path own = dir.write("plots/kernel-error.svg", "<svg/>");
  const fs::path own_script = dir.write("plots/kernel-error.gp", "plot x");
  const fs::path stale = dir.write("plots/cost_vs_n_gone.svg", "<svg/>");
  ::setenv("KEXP_GNUPLOT", "true", 1);
  const CsvTable t = degree_sweep();
  const auto cells = summarize_cells(t);
  (void)write_plots(cells, swept_columns(t, cells), dir.path());
  ::unsetenv("KEXP_GNUPLOT");
  EXPECT_TRUE(fs::exists(own));
  EXPECT_TRUE(fs::exists(own_script));
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(dir.path() / "plots" / "cost_vs_D_cubic_n_100.gp"));
}

TEST(Plots, NoCostAgainstDimensionWhenNIsSwept) {
  test::TempDir dir;
  ::setenv("KEXP_GNUPLOT", "true", 1);
  CsvTable t = degree_sweep();
  t.rows[0][11] = "200";  // a second n
  const auto cells = summarize_cells(t);
  (void)write_plots(cells, swept_columns(t, cells), dir.path());
  ::unsetenv("KEXP_GNUPLOT");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.path() / "plots", ec)) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr("cost_vs_D")));
  }
}

}  // namespace
}  // namespace kexp::core
