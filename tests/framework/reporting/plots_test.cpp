// The gnuplot scripts of the plots, checked without gnuplot: KEXP_GNUPLOT names `true`,
// which passes the probe and draws nothing, so every script is written and none drawn.
// The last test draws them with gnuplot and rasterises each SVG with rsvg-convert.
#include "reporting/plots.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "reporting/gnuplot.hpp"
#include "reporting/plot_cost.hpp"
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
/// D = 10, 100, 1000: primal time 1e-3·D, dual time 0.1, equal at D = 100; `scale`
/// multiplies every time.
CsvTable degree_sweep(double scale = 1) {
  CsvTable t;
  t.columns = {"cell",        "repeat",    "status",        "dataset",          "kernel",
               "solver",      "form",      "n_train",       "feature_dim",      "test_rmse",
               "fit_seconds", "dataset.n", "kernel.degree", "solver.iterations"};
  const char* const dims[] = {"10", "100", "1000"};
  const double primal_times[] = {0.01, 0.1, 1};
  for (int i = 0; i < 3; ++i) {
    const std::string degree = std::to_string(i + 1);
    t.rows.push_back({"p" + degree, "0", "ok", "cubic", "poly", "primal_gd", "primal", "80",
                      dims[i], "0.1", fmt::format("{}", primal_times[i] * scale), "100", degree,
                      "10"});
    t.rows.push_back({"d" + degree, "0", "ok", "cubic", "poly", "dual_gd", "dual", "80", "", "0.1",
                      fmt::format("{}", 0.1 * scale), "100", degree, "10"});
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
  const fs::path script = dir.path() / "plots" / "cost_vs_D_cubic.gp";
  ASSERT_TRUE(fs::exists(script));
  const std::string gp = read(script);
  EXPECT_THAT(gp, HasSubstr("set logscale x"));
  EXPECT_THAT(gp, HasSubstr("'D = n = 80'"));
  EXPECT_THAT(gp, HasSubstr("'crossover: D ≈ 100'"));
  // x, the time, and its range (one measurement: the time itself)
  EXPECT_THAT(gp, HasSubstr("10 0.01 0.01 0.01\n100 0.1 0.1 0.1\n1000 1 1 1\n"));  // primal line
  EXPECT_THAT(gp, HasSubstr("10 0.1 0.1 0.1\n100 0.1 0.1 0.1\n"));  // dual, D of its kernel
  // The pair in one colour, the dual dashed; the solver's parameters in the caption.
  EXPECT_THAT(gp, HasSubstr("dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual) · poly'"));
  EXPECT_THAT(gp, HasSubstr("dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal) · poly'"));
  EXPECT_THAT(gp, HasSubstr("'dual_gd: iterations = 10.'"));
  EXPECT_THAT(gp, HasSubstr("n = 80 training points"));
  // n is not swept: no plot against n
  for (const auto& entry : fs::directory_iterator(dir.path() / "plots")) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr("cost_vs_n")));
  }
}

TEST(Plots, ACrossoverTheSummaryCallsNotResolvedIsNotMarkedAndTheCaptionSaysWhy) {
  // The same sweep a hundred times faster: the times either side of the crossing are
  // below the 1 ms noise floor, so the plot marks no crossover, as the summary states
  // none (one rule, analysis.hpp).
  test::TempDir dir;
  ::setenv("KEXP_GNUPLOT", "true", 1);
  const CsvTable t = degree_sweep(0.01);
  const auto cells = summarize_cells(t);
  (void)write_plots(cells, swept_columns(t, cells), dir.path());
  ::unsetenv("KEXP_GNUPLOT");
  const std::string gp = read(dir.path() / "plots" / "cost_vs_D_cubic.gp");
  EXPECT_THAT(gp, Not(HasSubstr("'crossover")));
  EXPECT_THAT(gp, HasSubstr("Crossover primal_gd / dual_gd (poly): not resolved: times below 1 "
                            "ms at D = 10 or 100."));
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
  EXPECT_TRUE(fs::exists(dir.path() / "plots" / "cost_vs_D_cubic.gp"));
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

/// The numbers of the first data row of a script whose first field is `x`.
std::vector<double> data_row(const std::string& gp, const std::string& x) {
  std::istringstream lines(gp);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string first;
    if (!(fields >> first) || first != x) continue;
    std::vector<double> row{std::stod(first)};
    for (double v = 0; fields >> v;) row.push_back(v);
    return row;
  }
  return {};
}

/// A σ × λ sweep of one kernel and solver, two repeats each, and a random-feature kernel
/// swept over its features with two seeds: error = σ·λ-dependent, second repeat 0.02 more.
CsvTable sigma_lambda_sweep() {
  CsvTable t;
  t.columns = {"cell",         "repeat",     "status",      "dataset",      "kernel",
               "solver",       "form",       "n_train",     "test_rmse",    "fit_seconds",
               "kernel.sigma", "kernel.map", "kernel.seed", "solver.lambda"};
  const char* const sigmas[] = {"0.1", "0.31622776601683794", "1", "3.1622776601683795"};
  const char* const lambdas[] = {"0.001", "0.1"};
  int id = 0;
  for (const char* sigma : sigmas) {
    for (const char* lambda : lambdas) {
      const double e = 0.1 + std::abs(std::log10(std::stod(sigma))) + std::stod(lambda);
      for (int r = 0; r < 2; ++r) {
        t.rows.push_back({"c" + std::to_string(id), std::to_string(r), "ok", "sine", "gaussian",
                          "kernel_ridge", "dual", "80", std::to_string(e + 0.02 * r), "0.01", sigma,
                          "none", "0", lambda});
      }
      ++id;
    }
  }
  // Random features: σ = 1, λ = 0.001, features would be the x; here the seed alone varies.
  for (const char* seed : {"1", "2"}) {
    t.rows.push_back({"r" + std::string(seed), "0", "ok", "sine", "gaussian", "kernel_ridge",
                      "dual", "80", seed[0] == '1' ? "0.3" : "0.5", "0.01", "1", "rff", seed,
                      "0.001"});
  }
  return t;
}

PlotResult plot(const CsvTable& t, const fs::path& dir, const std::set<std::string>& log_scale = {},
                const char* gnuplot = "true") {
  ::setenv("KEXP_GNUPLOT", gnuplot, 1);
  const auto cells = summarize_cells(t);
  PlotResult r = write_plots(cells, swept_columns(t, cells), dir, log_scale);
  ::unsetenv("KEXP_GNUPLOT");
  return r;
}

/// The exact-kernel rows of sigma_lambda_sweep() again as kernel `kernel`, cell ids
/// prefixed with `prefix`, every error `added` higher.
std::vector<std::vector<std::string>> as_kernel(const std::string& kernel,
                                                const std::string& prefix, double added) {
  std::vector<std::vector<std::string>> rows;
  for (std::vector<std::string> row : sigma_lambda_sweep().rows) {
    if (row[11] != "none") continue;
    row[0] = prefix + row[0];
    row[4] = kernel;
    row[8] = std::to_string(std::stod(row[8]) + added);
    rows.push_back(std::move(row));
  }
  return rows;
}

/// The plots of `t` in both selections, each into its own folder.
struct BothSelections {
  test::TempDir all, findings;
  PlotResult every, some;
};
void draw_both(const CsvTable& t, BothSelections& out) {
  ::setenv("KEXP_GNUPLOT", "true", 1);
  const auto cells = summarize_cells(t);
  const auto swept = swept_columns(t, cells);
  out.every = write_plots(cells, swept, out.all.path(), {}, PlotSelection::all);
  out.some = write_plots(cells, swept, out.findings.path(), {}, PlotSelection::findings);
  ::unsetenv("KEXP_GNUPLOT");
}

TEST(Plots, ErrorAgainstEachSweptParameterWithBarsOverRepeatsAndALogAxisForALogSweep) {
  test::TempDir dir;
  const PlotResult r = plot(sigma_lambda_sweep(), dir.path());
  EXPECT_TRUE(r.skipped.empty()) << r.skipped;
  const std::string gp = read(dir.path() / "plots" / "test_rmse_vs_kernel.sigma.gp");
  // σ = 0.1, 0.316, 1, 3.16: spaced geometrically, so a log axis with a tick at each value
  EXPECT_THAT(gp, HasSubstr("set logscale x"));
  EXPECT_THAT(gp, HasSubstr("set xtics ('0.1' 0.1, '0.316' 0.31622776601683794, '1' 1, '3.16'"));
  // σ = 1 at its best λ (0.001): runs 0.101 and 0.121, mean 0.111, sample std 0.01414
  const std::vector<double> at_1 = data_row(gp, "1");
  ASSERT_EQ(at_1.size(), 4U);
  EXPECT_NEAR(at_1[1], 0.111, 1e-12);
  EXPECT_NEAR(at_1[2], 0.111 - 0.02 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(at_1[3], 0.111 + 0.02 / std::sqrt(2.0), 1e-12);
  EXPECT_THAT(gp,
              HasSubstr("'Each point: the cell with the lowest test_rmse over solver.lambda.'"));
  EXPECT_THAT(gp, HasSubstr("mean over up to 2 runs (the repeats); bars"));
  EXPECT_THAT(gp, HasSubstr("title 'gaussian map=none · kernel_ridge (dual)'"));
  // The seed is not a parameter to plot against; the random-feature cells do not sweep σ.
  EXPECT_FALSE(fs::exists(dir.path() / "plots" / "test_rmse_vs_kernel.seed.gp"));
  EXPECT_THAT(gp, Not(HasSubstr("map=rff")));
}

TEST(Plots, CellsThatDifferOnlyInTheirSeedArePooledAsRepeats) {
  CsvTable t;
  t.columns = {"cell",        "repeat",       "status",     "dataset",
               "kernel",      "solver",       "form",       "n_train",
               "test_rmse",   "fit_seconds",  "kernel.map", "kernel.features",
               "kernel.seed", "solver.lambda"};
  const char* const errors[2][2] = {{"0.4", "0.6"}, {"0.2", "0.2"}};  // [features][seed]
  for (int f = 0; f < 2; ++f) {
    for (int seed = 0; seed < 2; ++seed) {
      t.rows.push_back({fmt::format("c{}{}", f, seed), "0", "ok", "sine", "gaussian",
                        "primal_ridge", "primal", "80", errors[f][seed], "0.01", "rff",
                        f == 0 ? "16" : "64", std::to_string(seed + 1), "0.01"});
    }
  }
  test::TempDir dir;
  (void)plot(t, dir.path());
  EXPECT_FALSE(fs::exists(dir.path() / "plots" / "test_rmse_vs_kernel.seed.gp"));
  const std::string gp = read(dir.path() / "plots" / "test_rmse_vs_kernel.features.gp");
  const std::vector<double> at_16 = data_row(gp, "16");
  ASSERT_EQ(at_16.size(), 4U);
  EXPECT_NEAR(at_16[1], 0.5, 1e-12);  // both seeds, not the better one
  EXPECT_NEAR(at_16[3] - at_16[1], std::sqrt(0.02), 1e-12);
  EXPECT_THAT(gp, HasSubstr("the seeds of random maps"));
  EXPECT_THAT(gp, Not(HasSubstr("Each point: the cell")));
}

TEST(Plots, AValidatedRunChoosesEachPointOnValidationAndDrawsItWithBarsOverFolds) {
  CsvTable t = sigma_lambda_sweep();
  t.columns.push_back("validation_rmse");
  t.columns.push_back("validation_rmse_std");
  // Validation prefers λ = 0.1 everywhere, though λ = 0.001 has the lower test error.
  for (auto& row : t.rows) {
    row.push_back(row[13] == "0.1" ? "0.2" : "0.4");
    row.push_back("0.05");
  }
  test::TempDir dir;
  (void)plot(t, dir.path());
  const std::string gp = read(dir.path() / "plots" / "test_rmse_vs_kernel.sigma.gp");
  // σ = 1 with λ = 0.1: test errors 0.2 and 0.22, so 0.21 (λ = 0.001 would give 0.111)
  const std::vector<double> at_1 = data_row(gp, "1");
  ASSERT_EQ(at_1.size(), 4U);
  EXPECT_NEAR(at_1[1], 0.21, 1e-12);
  EXPECT_THAT(gp, HasSubstr("the cell with the lowest validation_rmse over solver.lambda"));
  // The validation line: 0.2 ± 0.05 over the folds, dashed
  EXPECT_THAT(gp, HasSubstr("\n1 0.2 0.15000000000000002 0.25\n"));
  // The validation line has no entry in the key: the axis says what dashed is.
  EXPECT_THAT(gp, HasSubstr("dashtype 2 lc rgb '#0072B2' notitle"));
  EXPECT_THAT(gp, HasSubstr("bars ± one standard deviation over the folds"));
  EXPECT_TRUE(fs::exists(dir.path() / "plots" /
                         "validation_rmse_heat_gaussian_map_none_kernel_ridge_dual_kernel.sigma_"
                         "solver.lambda.gp"));
}

TEST(Plots, TwoParametersSweptTogetherGetAHeatMapAndALinePerValueOfTheOther) {
  test::TempDir dir;
  (void)plot(sigma_lambda_sweep(), dir.path());
  const fs::path heat = dir.path() / "plots" /
                        "test_rmse_heat_gaussian_map_none_kernel_ridge_dual_kernel.sigma_"
                        "solver.lambda.gp";
  ASSERT_TRUE(fs::exists(heat));
  const std::string gp = read(heat);
  EXPECT_THAT(gp, HasSubstr("with image pixels"));
  EXPECT_THAT(gp, HasSubstr("set xtics ('0.1' 0, '0.316' 1, '1' 2, '3.16' 3)"));
  EXPECT_THAT(gp, HasSubstr("set ytics ('0.001' 0, '0.1' 1)"));
  // (σ = 1, λ = 0.1) is column 2, row 1: mean of 0.2 and 0.22
  EXPECT_THAT(gp, HasSubstr("\n2 1 0.21"));
  const fs::path lines = dir.path() / "plots" /
                         "test_rmse_vs_kernel.sigma_by_solver.lambda_gaussian_map_none_"
                         "kernel_ridge_dual.gp";
  ASSERT_TRUE(fs::exists(lines));
  const std::string by = read(lines);
  // The reader's symbols: λ in the key, σ on the axis.
  EXPECT_THAT(by, HasSubstr("title 'λ = 0.001'"));
  EXPECT_THAT(by, HasSubstr("title 'λ = 0.1'"));
  EXPECT_THAT(by, HasSubstr("set xlabel 'σ (kernel.sigma)'"));
  EXPECT_THAT(by, HasSubstr("set ylabel 'test RMSE'"));
}

TEST(Plots, TheDefaultDrawsThePlotsTheFindingsRestOnAndSaysHowToDrawTheRest) {
  // σ × λ for two kernels of one solver: the gaussian holds its best cell, the laplacian
  // (every error 1 higher) none.
  CsvTable t = sigma_lambda_sweep();
  for (auto& row : as_kernel("laplacian", "l", 1)) t.rows.push_back(std::move(row));
  BothSelections drawn;
  draw_both(t, drawn);
  const fs::path plots = drawn.findings.path() / "plots";
  const std::string heat =
      "test_rmse_heat_{}_map_none_kernel_ridge_dual_kernel.sigma_solver.lambda.gp";
  EXPECT_TRUE(fs::exists(plots / fmt::format(heat, "gaussian")));
  EXPECT_FALSE(fs::exists(plots / fmt::format(heat, "laplacian")));
  EXPECT_TRUE(fs::exists(drawn.all.path() / "plots" / fmt::format(heat, "laplacian")));
  EXPECT_TRUE(fs::exists(plots / "test_rmse_vs_kernel.sigma.gp"));
  EXPECT_FALSE(fs::exists(plots / "test_rmse_vs_kernel.sigma_by_solver.lambda_gaussian_map_none_"
                                  "kernel_ridge_dual.gp"));
  // Every plot is drawn on request, and the default says how many it left out and how.
  const std::size_t written = static_cast<std::size_t>(
      std::distance(fs::directory_iterator(drawn.all.path() / "plots"), fs::directory_iterator()));
  const std::size_t left_out =
      written - static_cast<std::size_t>(
                    std::distance(fs::directory_iterator(plots), fs::directory_iterator()));
  EXPECT_EQ(left_out, 3U);  // the laplacian's heat map and both kernels' line plots
  EXPECT_TRUE(drawn.every.not_drawn.empty());
  ASSERT_EQ(drawn.some.not_drawn.size(), 1U);
  EXPECT_THAT(drawn.some.not_drawn[0],
              HasSubstr("3 more (the error with a line per value of a second "
                        "parameter: 2; heat maps of groups that hold no "
                        "solver's best cell: 1)"));
  EXPECT_THAT(drawn.some.not_drawn[0], HasSubstr("kexp report --plots all"));
}

TEST(Plots, TheCapOnHeatMapsNeverLeavesOutTheOneOfTheBestCell) {
  // 14 kernels, each over σ × λ; the last holds the solver's best cell.
  CsvTable t;
  t.columns = sigma_lambda_sweep().columns;
  for (int k = 0; k < 14; ++k) {
    for (auto& row :
         as_kernel(fmt::format("kernel{}", k), fmt::format("k{}", k), k == 13 ? 0 : 1 + k)) {
      t.rows.push_back(std::move(row));
    }
  }
  BothSelections drawn;
  draw_both(t, drawn);
  const std::string best =
      "test_rmse_heat_kernel13_kernel_ridge_dual_kernel.sigma_solver.lambda.gp";
  EXPECT_TRUE(fs::exists(drawn.all.path() / "plots" / best));
  EXPECT_TRUE(fs::exists(drawn.findings.path() / "plots" / best));
  const auto says_cap = [](const PlotResult& r) {
    return std::any_of(r.not_drawn.begin(), r.not_drawn.end(), [](const std::string& note) {
      return note.find("2 more, one per kernel, solver and dataset variant") != std::string::npos;
    });
  };
  EXPECT_TRUE(says_cap(drawn.every));
  // Without the details, the cap left out nothing the report would draw.
  EXPECT_FALSE(says_cap(drawn.some));
}

TEST(Plots, ACostPlotOfManyDualVariantsDrawsALinePerMethod) {
  // kernel_ridge over 7 values of λ in 2 precisions at 2 values of n: 14 variants, more
  // than a cost plot draws a line each for
  CsvTable t;
  t.columns = {"cell",      "repeat",        "status",          "dataset",   "kernel",
               "solver",    "form",          "n_train",         "test_rmse", "fit_seconds",
               "dataset.n", "solver.lambda", "solver.precision"};
  int id = 0;
  for (const char* n : {"100", "400"}) {
    for (int l = 0; l < 7; ++l) {
      for (const char* precision : {"double", "mixed"}) {
        const double time =
            (std::stod(n) / 100) * (precision == std::string("mixed") ? 0.5 : 1) * (1 + 0.1 * l);
        t.rows.push_back({"c" + std::to_string(id++), "0", "ok", "friedman1", "gaussian",
                          "kernel_ridge", "dual", std::to_string(std::stoi(n) * 4 / 5), "1.0",
                          fmt::format("{}", time), n, fmt::format("1e-{}", l + 1), precision});
      }
    }
  }
  const test::TempDir dir;
  const PlotResult r = plot(t, dir.path());
  const fs::path script = dir.path() / "plots" / "cost_vs_n_gaussian.gp";
  ASSERT_TRUE(fs::exists(script));
  const std::string gp = read(script);
  EXPECT_THAT(gp, HasSubstr("kernel_ridge (dual) precision = double"));
  EXPECT_THAT(gp, HasSubstr("kernel_ridge (dual) precision = mixed"));
  EXPECT_THAT(gp, Not(HasSubstr("λ =")));
  EXPECT_THAT(gp, HasSubstr("14 solver variants: a line per solver and choice of method"));
  // 12 variants or fewer keep a line each
  t.rows.erase(
      std::remove_if(t.rows.begin(), t.rows.end(),
                     [](const auto& row) { return row[11] == "1e-7" || row[11] == "1e-6"; }),
      t.rows.end());
  const test::TempDir fewer;
  (void)plot(t, fewer.path());
  EXPECT_THAT(read(fewer.path() / "plots" / "cost_vs_n_gaussian.gp"),
              HasSubstr("λ = 1e-5, precision = mixed"));
}

TEST(Plots, AParameterThatChangesNoFlopCountIsOneLineWithItsSpread) {
  // primal_ridge and kernel_ridge over 4 values of λ at 3 sizes: their flop counts do not
  // depend on λ (the same factorization at any λ), so each solver is one line, its points
  // the mean over λ with bars over all of them; the pair still crosses. A gradient descent
  // whose flops grow with its iterations keeps a line per value. Defaults are left out of
  // the caption (precision = double), and what varies is named in symbols.
  CsvTable t;
  t.columns = {
      "cell",      "repeat",        "status",           "dataset",          "kernel", "solver",
      "form",      "n_train",       "feature_dim",      "test_rmse",        "flops",  "fit_seconds",
      "dataset.n", "solver.lambda", "solver.precision", "solver.iterations"};
  int id = 0;
  for (const double n : {10.0, 100.0, 1000.0}) {
    for (int l = 0; l < 4; ++l) {
      const std::string lambda = fmt::format("1e-{}", 2 * l + 1);
      const double jitter = 1 + 0.05 * l;
      t.rows.push_back({fmt::format("p{}", id++), "0", "ok", "cubic", "poly", "primal_ridge",
                        "primal", fmt::format("{}", n), "200", "0.5", fmt::format("{}", 1e6 * n),
                        fmt::format("{}", 1e-2 * n * jitter), fmt::format("{}", n), lambda,
                        "double", ""});
      t.rows.push_back({fmt::format("d{}", id++), "0", "ok", "cubic", "poly", "kernel_ridge",
                        "dual", fmt::format("{}", n), "", "0.5", fmt::format("{}", n * n * n),
                        fmt::format("{}", 1e-4 * n * n * jitter), fmt::format("{}", n), lambda,
                        "double", ""});
    }
    for (const int iterations : {10, 100}) {
      t.rows.push_back({fmt::format("g{}", id++), "0", "ok", "cubic", "poly", "dual_gd", "dual",
                        fmt::format("{}", n), "", "0.5", fmt::format("{}", iterations * n * n),
                        fmt::format("{}", 1e-7 * iterations * n * n), fmt::format("{}", n), "", "",
                        fmt::format("{}", iterations)});
    }
  }
  const auto cells = summarize_cells(t);
  const auto folded = plot::cost_free_parameters(cells);
  ASSERT_EQ(folded.size(), 2U);
  EXPECT_EQ(folded.at("primal_ridge (primal)"), std::set<std::string>{"lambda"});
  EXPECT_EQ(folded.at("kernel_ridge (dual)"), std::set<std::string>{"lambda"});
  EXPECT_EQ(folded.count("dual_gd (dual)"), 0U);
  ParamDefaults defaults;
  defaults.add("solver", "kernel_ridge", "precision", "double");
  defaults.add("solver", "primal_ridge", "precision", "double");
  const test::TempDir dir;
  (void)write_plots(cells, swept_columns(t, cells), dir.path(), {}, PlotSelection::all, defaults);
  const std::string gp = read(dir.path() / "plots" / "cost_vs_n_poly.gp");
  EXPECT_THAT(gp, HasSubstr("title 'primal_ridge (primal)'"));
  EXPECT_THAT(gp, HasSubstr("title 'kernel_ridge (dual)'"));
  EXPECT_THAT(gp, HasSubstr("title 'dual_gd (dual) iterations = 10'"));
  EXPECT_THAT(gp, HasSubstr("title 'dual_gd (dual) iterations = 100'"));
  EXPECT_EQ(std::count(gp.begin(), gp.end(), '$') / 2, 4);  // 4 lines, each defined and drawn
  EXPECT_THAT(gp, HasSubstr("'kernel_ridge and primal_ridge: λ changes no flop count"));
  EXPECT_THAT(gp, HasSubstr("4 values ({1e-7, 1e-5,"));
  EXPECT_THAT(gp, Not(HasSubstr("precision")));
  // n = 100: the primal's mean over λ (1 × 1.075), bars from the fastest to the slowest λ
  EXPECT_THAT(gp, HasSubstr("100 1.075 1 1.15\n"));
  EXPECT_THAT(gp, HasSubstr("'crossover: n ≈"));
}

TEST(Plots, CrossoverLabelsNeverCoverOneAnother) {
  plot::Plot p;
  p.name = "marks";
  p.logx = true;
  p.lines.push_back({"a", {{10, 1, 1, 1}, {1000, 1, 1, 1}}, 0, false});
  p.marks.push_back({100, "a: n ≈ 100", 1.0});
  p.marks.push_back({110, "b: n ≈ 110", 1.0});
  p.marks.push_back({120, "n = D = 120", std::nullopt});
  p.marks.push_back({900, "far right", std::nullopt});
  const std::string gp = plot::script(p);
  // Three close labels in three rows; the one far away in the first row again.
  EXPECT_THAT(gp, HasSubstr("'a: n ≈ 100' at 100, graph 0.960"));
  EXPECT_THAT(gp, HasSubstr("'b: n ≈ 110' at 110, graph 0.895"));
  EXPECT_THAT(gp, HasSubstr("'n = D = 120' at 120, graph 0.830"));
  EXPECT_THAT(gp, HasSubstr("'far right' at 900, graph 0.960 right"));
  // each crossover's point, with a dot and no text
  EXPECT_THAT(gp, HasSubstr("'' at 100, 1 point"));
}

TEST(Plots, APairOfValuesGetsALogAxisWhenTheSchemaAsksForOne) {
  CsvTable t = sigma_lambda_sweep();
  // λ = 0.001, 0.1 spans 100: geometric; make it 0.5 and 2 (a factor of 4)
  for (auto& row : t.rows) row[13] = row[13] == "0.001" ? "0.5" : "2";
  test::TempDir plain, declared;
  (void)plot(t, plain.path());
  (void)plot(t, declared.path(), {"solver.lambda"});
  EXPECT_THAT(read(plain.path() / "plots" / "test_rmse_vs_solver.lambda.gp"),
              Not(HasSubstr("set logscale x")));
  EXPECT_THAT(read(declared.path() / "plots" / "test_rmse_vs_solver.lambda.gp"),
              HasSubstr("set logscale x"));
}

TEST(Plots, GeometricValues) {
  EXPECT_TRUE(geometric_values({0.001, 0.01, 0.1, 1}));
  EXPECT_TRUE(geometric_values({3, 0.3, 1}));       // ratios 3.33 and 3
  EXPECT_TRUE(geometric_values({1, 100}));          // a factor of 50 or more
  EXPECT_FALSE(geometric_values({1, 2, 3, 4}));     // evenly spaced
  EXPECT_FALSE(geometric_values({0, 1, 10, 100}));  // not all positive
  EXPECT_FALSE(geometric_values({1, 4}));           // two values, a small factor
}

/// A sweep over n of a primal-dual pair: primal 1e-4·n (D = 200, its measurements from
/// half to twice that), dual 1e-6·n²; equal at n = 100.
CsvTable n_sweep() {
  CsvTable t;
  t.columns = {"cell",
               "repeat",
               "status",
               "dataset",
               "kernel",
               "solver",
               "form",
               "n_train",
               "feature_dim",
               "test_rmse",
               "fit_seconds",
               "fit_seconds_min",
               "fit_seconds_max",
               "dataset.n",
               "solver.lambda"};
  for (const int n : {10, 100, 1000}) {
    const std::string ns = std::to_string(n);
    const double tp = 1e-4 * n, td = 1e-6 * n * n;
    t.rows.push_back({"p" + ns, "0", "ok", "cubic", "poly", "primal_ridge", "primal", ns, "200",
                      "0.1", fmt::format("{}", tp), fmt::format("{}", tp / 2),
                      fmt::format("{}", tp * 2), ns, "0.001"});
    t.rows.push_back({"d" + ns, "0", "ok", "cubic", "poly", "kernel_ridge", "dual", ns, "", "0.1",
                      fmt::format("{}", td), fmt::format("{}", td), fmt::format("{}", td), ns,
                      "0.001"});
  }
  return t;
}

TEST(Plots, CostAgainstNMarksNEqualsDAndNamesThePairAtItsCrossover) {
  const CsvTable t = n_sweep();
  test::TempDir dir;
  (void)plot(t, dir.path());
  const std::string gp = read(dir.path() / "plots" / "cost_vs_n_poly.gp");
  // The one pair's crossover with the range its spread implies, beside the lines at
  // their crossing (n = 100, time 0.01).
  EXPECT_THAT(gp, HasSubstr("'crossover: n ≈ 100 (50 … 200)' at 100"));
  EXPECT_THAT(gp, HasSubstr(", 0.0100000"));
  EXPECT_THAT(gp, HasSubstr("'n = D = 200'"));
  EXPECT_THAT(gp, HasSubstr("title 'primal_ridge (primal)'"));
  EXPECT_THAT(gp, HasSubstr("100 0.01 0.005 0.02\n"));  // the primal's range as its bar
  EXPECT_THAT(gp, HasSubstr("'kernel_ridge: λ = 0.001.'"));
  EXPECT_THAT(gp, HasSubstr("xlabel 'n (training points)'"));
  // A tick at each n drawn, as a log axis over a short range would otherwise lack them.
  EXPECT_THAT(gp, HasSubstr("set xtics ('10' 10, '100' 100, '1000' 1000)"));
}

TEST(Plots, LinesDrawnOverOneAnotherAreNamedInTheCaptionAndLongCaptionsAreWrapped) {
  test::TempDir dir;
  (void)plot(n_sweep(), dir.path());
  // Both forms of the exact map have the same test errors: the primal line is hidden.
  const std::string gp = read(dir.path() / "plots" / "test_rmse_vs_dataset.n.gp");
  EXPECT_THAT(gp, HasSubstr("'Drawn over one another, with the same errors: primal_ridge "
                            "(primal) and kernel_ridge (dual).'"));
  plot::Plot p;
  p.name = "long";
  p.caption = {std::string(100, 'a') + " " + std::string(50, 'b')};
  const std::string wrapped = plot::script(p);
  EXPECT_THAT(wrapped, HasSubstr("set label 100 '" + std::string(100, 'a') + "' at"));
  EXPECT_THAT(wrapped, HasSubstr("set label 101 '" + std::string(50, 'b') + "' at"));
}

TEST(Plots, CostPlotsOfOneFormAloneAreDetailsBesideAPrimalDualPair) {
  CsvTable t = n_sweep();
  for (const int n : {10, 100, 1000}) {
    const std::string ns = std::to_string(n);
    const std::string time = fmt::format("{}", 1e-6 * n * n);
    t.rows.push_back({"g" + ns, "0", "ok", "cubic", "gauss", "kernel_ridge", "dual", ns, "", "0.1",
                      time, time, time, ns, "0.001"});
  }
  ::setenv("KEXP_GNUPLOT", "true", 1);
  const auto cells = summarize_cells(t);
  const auto swept = swept_columns(t, cells);
  test::TempDir dir, only_dual;
  (void)write_plots(cells, swept, dir.path(), {}, PlotSelection::findings);
  EXPECT_TRUE(fs::exists(dir.path() / "plots" / "cost_vs_n_poly.gp"));
  EXPECT_FALSE(fs::exists(dir.path() / "plots" / "cost_vs_n_gauss.gp"));
  // Without any pair, the growth of each form alone is what the findings rest on.
  CsvTable duals = t;
  duals.rows.erase(std::remove_if(duals.rows.begin(), duals.rows.end(),
                                  [](const auto& row) { return row[6] == "primal"; }),
                   duals.rows.end());
  const auto dual_cells = summarize_cells(duals);
  (void)write_plots(dual_cells, swept_columns(duals, dual_cells), only_dual.path(), {},
                    PlotSelection::findings);
  ::unsetenv("KEXP_GNUPLOT");
  EXPECT_TRUE(fs::exists(only_dual.path() / "plots" / "cost_vs_n_poly.gp"));
  EXPECT_TRUE(fs::exists(only_dual.path() / "plots" / "cost_vs_n_gauss.gp"));
}

TEST(Plots, ACrossoverIsFoundOnTheSizesBothSolversRan) {
  CsvTable t;
  t.columns = {"cell",        "repeat",    "status",       "dataset",     "kernel",
               "solver",      "form",      "n_train",      "feature_dim", "test_rmse",
               "fit_seconds", "dataset.n", "solver.lambda"};
  // primal 1e-4·n, dual 1e-6·n² (equal at n = 100); the dual was refused at n = 1000
  for (const int n : {10, 100, 1000, 3000}) {
    const std::string ns = std::to_string(n);
    t.rows.push_back({"p" + ns, "0", "ok", "cubic", "poly", "primal_ridge", "primal", ns, "20",
                      "0.1", fmt::format("{}", 1e-4 * n), ns, "0.01"});
    if (n != 1000) {
      t.rows.push_back({"d" + ns, "0", "ok", "cubic", "poly", "kernel_ridge", "dual", ns, "", "0.1",
                        fmt::format("{}", 1e-6 * n * n), ns, "0.01"});
    }
  }
  test::TempDir dir;
  (void)plot(t, dir.path());
  EXPECT_THAT(read(dir.path() / "plots" / "cost_vs_n_poly.gp"), HasSubstr("'crossover: n ≈ 100'"));
}

TEST(Plots, LinesOfTwoKindsOfMapAreNotPairedAcrossKinds) {
  CsvTable t;
  t.columns = {"cell",         "repeat",          "status",      "dataset",
               "kernel",       "solver",          "form",        "n_train",
               "feature_dim",  "test_rmse",       "fit_seconds", "kernel.map",
               "kernel.order", "kernel.features", "dataset.n",   "solver.lambda"};
  // Taylor: primal 1e-3·D crosses the dual's 0.1 at D = 100; random features: the dual
  // takes 1, crossed at D = 1000. Pairing across kinds would add crossings at 1000
  // and 100.
  int id = 0;
  for (const char* map : {"taylor", "rff"}) {
    const double dual = std::string(map) == "rff" ? 1 : 0.1;
    for (const int D : {10, 100, 10000}) {
      const std::string Ds = std::to_string(D), order = std::to_string(D), f = std::to_string(D);
      const bool taylor = std::string(map) == "taylor";
      t.rows.push_back({"p" + std::to_string(id), "0", "ok", "sine", "gaussian", "primal_ridge",
                        "primal", "80", Ds, "0.1", fmt::format("{}", 1e-3 * D), map,
                        taylor ? order : "4", taylor ? "1000" : f, "100", "0.01"});
      t.rows.push_back({"d" + std::to_string(id++), "0", "ok", "sine", "gaussian", "kernel_ridge",
                        "dual", "80", "", "0.1", fmt::format("{}", dual), map, taylor ? order : "4",
                        taylor ? "1000" : f, "100", "0.01"});
    }
  }
  test::TempDir dir;
  (void)plot(t, dir.path());
  const std::string gp = read(dir.path() / "plots" / "cost_vs_D_sine.gp");
  EXPECT_THAT(gp,
              HasSubstr("'crossover primal_ridge / kernel_ridge (gaussian map=taylor): D ≈ 100'"));
  EXPECT_THAT(gp,
              HasSubstr("'crossover primal_ridge / kernel_ridge (gaussian map=rff): D ≈ 1000'"));
  std::size_t crossings = 0;
  for (std::size_t at = gp.find("'crossover"); at != std::string::npos;
       at = gp.find("'crossover", at + 1)) {
    ++crossings;
  }
  EXPECT_EQ(crossings, 2U);
  // n = 80 lies within the D drawn (10 to 10000): marked
  EXPECT_THAT(gp, HasSubstr("'D = n = 80'"));
}

TEST(Plots, OnALogAxisABarBelowATenthOfItsPointIsCutThereAndTheCaptionSaysSo) {
  CsvTable t = sigma_lambda_sweep();
  // σ = 0.1: runs of 0.01 and 3.99 (λ = 0.001) and 0.01 and 2.99 (λ = 0.1, mean 1.5,
  // std 2.11): the errors now span more than a factor of 10 and the bar would go below 0
  for (auto& row : t.rows) {
    if (row[0] == "c0") row[8] = row[1] == "0" ? "0.01" : "3.99";
    if (row[0] == "c1") row[8] = row[1] == "0" ? "0.01" : "2.99";  // the better λ at σ = 0.1
  }
  test::TempDir dir;
  (void)plot(t, dir.path());
  const std::string gp = read(dir.path() / "plots" / "test_rmse_vs_kernel.sigma.gp");
  ASSERT_THAT(gp, HasSubstr("set logscale y"));
  const std::vector<double> at = data_row(gp, "0.1");
  ASSERT_EQ(at.size(), 4U);
  EXPECT_NEAR(at[2], at[1] / 10, 1e-12);
  EXPECT_THAT(gp, HasSubstr("a bar reaching below a tenth of its point ends there"));
}

TEST(Plots, EachDatasetVariantGetsItsOwnLinesAndHeatMaps) {
  CsvTable t = sigma_lambda_sweep();
  // The same cells on a second dataset variant (n = 400 beside 100), errors doubled.
  t.columns.push_back("dataset.n");
  const std::size_t rows = t.rows.size();
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<std::string> again = t.rows[i];
    t.rows[i].push_back("100");
    again[0] += "b";
    again[8] = fmt::format("{}", 2 * std::stod(again[8]));
    again.push_back("400");
    t.rows.push_back(again);
  }
  test::TempDir dir;
  (void)plot(t, dir.path());
  const fs::path plots = dir.path() / "plots";
  EXPECT_TRUE(fs::exists(plots / "test_rmse_heat_gaussian_map_none_kernel_ridge_dual_n_100_"
                                 "kernel.sigma_solver.lambda.gp"));
  EXPECT_TRUE(fs::exists(plots / "test_rmse_heat_gaussian_map_none_kernel_ridge_dual_n_400_"
                                 "kernel.sigma_solver.lambda.gp"));
  const std::string gp = read(plots / "test_rmse_vs_kernel.sigma.gp");
  // The lines are named by what they differ in, in symbols; what they share is in the title.
  EXPECT_THAT(gp, HasSubstr("title 'n = 100'"));
  EXPECT_THAT(gp, HasSubstr("title 'n = 400'"));
  EXPECT_THAT(
      gp, HasSubstr("set title 'test RMSE against σ: gaussian map=none · kernel_ridge (dual)'"));
  EXPECT_THAT(gp, Not(HasSubstr("over dataset.n")));
}

TEST(Plots, APlotOfMoreLinesThanReadIsLeftOutAndTheReportSaysSo) {
  // Nine dataset variants (d = 1 … 9), each with σ swept: nine lines against σ.
  CsvTable t;
  t.columns = {"cell", "repeat",  "status",    "dataset",     "kernel",       "solver",
               "form", "n_train", "test_rmse", "fit_seconds", "kernel.sigma", "dataset.d"};
  for (int d = 1; d <= 9; ++d) {
    for (const char* sigma : {"0.5", "2"}) {
      t.rows.push_back({fmt::format("c{}{}", d, sigma), "0", "ok", "cubic", "gaussian",
                        "kernel_ridge", "dual", "80", fmt::format("{}", 0.1 * d), "0.01", sigma,
                        std::to_string(d)});
    }
  }
  test::TempDir dir;
  const PlotResult r = plot(t, dir.path());
  EXPECT_FALSE(fs::exists(dir.path() / "plots" / "test_rmse_vs_kernel.sigma.gp"));
  ASSERT_EQ(r.not_drawn.size(), 1U);
  EXPECT_THAT(r.not_drawn.front(), HasSubstr("test_rmse against kernel.sigma is not drawn: its 9 "
                                             "lines"));
  // Against d, one line: drawn.
  EXPECT_TRUE(fs::exists(dir.path() / "plots" / "test_rmse_vs_dataset.d.gp"));
}

/// The size of `svg` rasterised to PNG by rsvg-convert; −1 when it fails.
long raster_size(const fs::path& svg) {
  const fs::path png = fs::path(svg).replace_extension(".png");
  const std::string command =
      "rsvg-convert '" + svg.string() + "' -o '" + png.string() + "' 2>/dev/null";
  if (std::system(command.c_str()) != 0 || !fs::exists(png)) return -1;
  return static_cast<long>(fs::file_size(png));
}

TEST(Plots, EveryPlotDrawsToANonEmptyImage) {
  ASSERT_EQ(std::system("command -v gnuplot > /dev/null && command -v rsvg-convert > /dev/null"), 0)
      << "this test draws with gnuplot and rsvg-convert: install gnuplot-nox and librsvg2-bin "
         "(scripts/setup.sh)";
  test::TempDir dir;
  // A white page of the same size, rasterised the same way: what an empty plot weighs.
  const fs::path blank =
      dir.write("blank.svg",
                "<svg xmlns='http://www.w3.org/2000/svg' width='860' height='560'>"
                "<rect width='860' height='560' fill='white'/></svg>");
  const long empty = raster_size(blank);
  ASSERT_GT(empty, 0);
  std::size_t drawn = 0;
  for (const CsvTable& t : {degree_sweep(), sigma_lambda_sweep(), n_sweep()}) {
    test::TempDir folder;
    const PlotResult r = plot(t, folder.path(), {}, "gnuplot");
    EXPECT_TRUE(r.failed.empty()) << r.failed.front();
    for (const std::string& file : r.files) {
      const long size = raster_size(folder.path() / file);
      EXPECT_GT(size, 5 * empty) << file << " rasterises to " << size << " bytes";
      ++drawn;
    }
  }
  EXPECT_GE(drawn, 7U);  // cost against D and n, error against a parameter, heat map, lines
}

TEST(Plots, AKeyOfLongEntriesIsDrawn) {
  ASSERT_EQ(std::system("command -v gnuplot > /dev/null"), 0)
      << "this test draws with gnuplot: install gnuplot-nox (scripts/setup.sh)";
  // Entries as long as a string kernel's with its dataset variant: at 15 points gnuplot
  // would leave the whole key out.
  for (const std::size_t length : {20, 45, 90, 110}) {
    test::TempDir dir;
    plot::Plot p;
    p.name = "keyed";
    for (int i = 0; i < 4; ++i) {
      plot::Line l;
      l.title = std::to_string(i) + std::string(length - 1, 'k');
      l.colour = static_cast<std::size_t>(i);
      l.points = {{1, 1.0 + i, 1.0 + i, 1.0 + i}, {2, 2.0 + i, 2.0 + i, 2.0 + i}};
      p.lines.push_back(l);
    }
    dir.write("keyed.gp", plot::script(p));
    ASSERT_TRUE(plot::draw("gnuplot", dir.path(), "keyed"));
    const std::string svg = read(dir.path() / "keyed.svg");
    for (const plot::Line& l : p.lines) {
      EXPECT_THAT(svg, HasSubstr(">" + l.title + "<")) << "length " << length;
    }
  }
}

}  // namespace
}  // namespace kexp::core
