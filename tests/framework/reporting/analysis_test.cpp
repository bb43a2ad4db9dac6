// What the summary computes: statistics, power-law fits, crossovers, pairs.
#include "reporting/analysis.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reporting/summary.hpp"
#include "reporting/summary_tables.hpp"
#include "sweep/pairing.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

TEST(Analysis, MeanAndSampleStandardDeviation) {
  const MeanStd s = mean_std({1.0, 2.0, 3.0, 4.0, std::nan("")});
  EXPECT_EQ(s.count, 4U);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.std, std::sqrt(5.0 / 3.0), 1e-15);
  EXPECT_EQ(mean_std({7.0}).std, 0.0);
  EXPECT_TRUE(std::isnan(mean_std({}).mean));
  EXPECT_EQ(s.nonfinite, 1U);
}

TEST(Analysis, ANonFiniteValueIsWrittenAsSuchNotAsMissing) {
  EXPECT_EQ(summary::with_std(mean_std({})), "—");
  EXPECT_EQ(summary::with_std(mean_std({std::nan("")})), "NaN");
  EXPECT_EQ(summary::with_std(mean_std({1.0, std::nan("")})), "1 (1 not finite)");
  EXPECT_EQ(summary::with_std(mean_std({1.0, 3.0})), "2 ± 1.414");
}

TEST(Analysis, PowerLawFitRecoversAnExactExponent) {
  const std::vector<double> n = {100, 200, 400, 800};
  std::vector<double> cubic, noisy;
  for (double x : n) cubic.push_back(2e-9 * x * x * x);
  const auto fit = fit_power_law(n, cubic);
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->exponent, 3.0, 1e-12);
  EXPECT_NEAR(fit->intercept, std::log(2e-9), 1e-9);
  EXPECT_NEAR(fit->r2, 1.0, 1e-12);
  EXPECT_EQ(fit->points, 4U);
  // y = n² · (1, 2, 1, 2): slope by hand from the centred logs is 2 + (log 2 · 0.3·log 2
  // ·…) — checked against the normal equations instead:
  const std::vector<double> wobble = {1e4, 2 * 4e4, 16e4, 2 * 64e4};
  const auto w = fit_power_law(n, wobble);
  ASSERT_TRUE(w.has_value());
  // lx = log n = L + k·log 2 (k = 0..3), ly = 2·lx + {0, log2, 0, log2}:
  // slope = 2 + cov(k, {0,1,0,1}) / var(k) = 2 + 0.25 / 1.25 = 2.2
  EXPECT_NEAR(w->exponent, 2.2, 1e-12);
  EXPECT_LT(w->r2, 1.0);
  EXPECT_FALSE(fit_power_law({100, 100}, {1, 2}).has_value());
  EXPECT_FALSE(fit_power_law({100}, {1}).has_value());
}

TEST(Analysis, CrossoverInterpolatesInLogLog) {
  // a = n, b = 1e4 / n cross at n = 100
  const std::vector<double> n = {10, 1000};
  const auto x = crossover(n, {10, 1000}, {1000, 10});
  ASSERT_TRUE(x.has_value());
  EXPECT_NEAR(*x, 100.0, 1e-9);
  EXPECT_FALSE(crossover(n, {1, 2}, {3, 4}).has_value());
}

TEST(Pairing, CounterpartsShareAParameterAndAgreeOnAllShared) {
  const SolverSide primal{"primal", {{"lambda", "0.001"}, {"method", "qr"}}};
  EXPECT_TRUE(counterparts(primal, {"dual", {{"lambda", "0.001"}}}));
  EXPECT_FALSE(counterparts(primal, {"dual", {{"lambda", "0.1"}}}));
  EXPECT_FALSE(counterparts(primal, {"primal", {{"lambda", "0.001"}}}));
  EXPECT_FALSE(counterparts(primal, {"dual", {{"step", "0.1"}, {"iterations", "10"}}}));
  EXPECT_TRUE(counterparts({"dual", {{"step", "0.1"}, {"iterations", "10"}}},
                           {"primal", {{"step", "0.1"}, {"iterations", "10"}}}));
  // how a solver runs must agree but is not a shared parameter of the model
  const SolverSide mixed{"primal", {{"lambda", "0.1"}, {"precision", "mixed"}}};
  EXPECT_FALSE(counterparts(mixed, {"dual", {{"noise", "0.001"}, {"precision", "mixed"}}}));
  EXPECT_TRUE(counterparts(mixed, {"dual", {{"lambda", "0.1"}, {"precision", "mixed"}}}));
  EXPECT_FALSE(counterparts(mixed, {"dual", {{"lambda", "0.1"}, {"precision", "single"}}}));
  // a tolerance, too, must agree but pairs nothing by itself (linear_svc and dual_gd)
  const SolverSide svm{"primal", {{"c", "1"}, {"bias", "regularized"}, {"tolerance", "1e-6"}}};
  EXPECT_FALSE(counterparts({"primal", {{"tolerance", "1e-6"}}},
                            {"dual", {{"tolerance", "1e-6"}, {"alpha", "0"}}}));
  EXPECT_TRUE(
      counterparts(svm, {"dual", {{"c", "1"}, {"bias", "regularized"}, {"tolerance", "1e-6"}}}));
  EXPECT_FALSE(
      counterparts(svm, {"dual", {{"c", "1"}, {"bias", "regularized"}, {"tolerance", "1e-3"}}}));
  EXPECT_FALSE(counterparts(svm, {"dual", {{"c", "1"}, {"bias", "free"}, {"tolerance", "1e-6"}}}));
  EXPECT_TRUE(counterparts(mixed, {"dual", {{"lambda", "0.1"}, {"device", "cpu"}}}));
}

CsvTable two_form_table() {
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
               "gram_seconds",
               "feature_seconds",
               "predict_seconds",
               "matrix_bytes",
               "paired_with",
               "prediction_max_diff",
               "error",
               "dataset.n",
               "solver.lambda"};
  for (int n : {100, 200, 400}) {
    for (int r = 0; r < 2; ++r) {
      const std::string p = "p" + std::to_string(n), d = "d" + std::to_string(n);
      const double dn = n;
      t.rows.push_back({p,
                        std::to_string(r),
                        "ok",
                        "cubic",
                        "lin",
                        "primal_ridge",
                        "primal",
                        std::to_string(n),
                        "3",
                        r ? "0.2" : "0.4",
                        "0.001",
                        "",
                        "0.001",
                        "0.0",
                        "1000",
                        "",
                        "",
                        "",
                        std::to_string(n),
                        "0.1"});
      t.rows.push_back({d,
                        std::to_string(r),
                        "ok",
                        "cubic",
                        "lin",
                        "kernel_ridge",
                        "dual",
                        std::to_string(n),
                        "",
                        r ? "0.2" : "0.4",
                        fmt::format("{}", 1e-9 * dn * dn * dn),
                        "0.0",
                        "",
                        "0.0",
                        fmt::format("{}", 8 * dn * dn),
                        p,
                        r ? "1e-12" : "3e-12",
                        "",
                        std::to_string(n),
                        "0.1"});
    }
  }
  t.rows.push_back({"f",    "0",   "failed", "cubic", "lin", "kernel_ridge",
                    "dual", "100", "",       "",      "",    "",
                    "",     "",    "",       "",      "",    "K + λI is not | positive",
                    "100",  "5"});
  return t;
}

TEST(Summary, TablesOfCellsPairsGrowthAndFailures) {
  const CsvTable t = two_form_table();
  const auto cells = summarize_cells(t);
  ASSERT_EQ(cells.size(), 7U);
  EXPECT_EQ(cells[0].ok, 2U);
  EXPECT_NEAR(cells[0].stat("test_rmse").mean, 0.3, 1e-15);
  EXPECT_NEAR(cells[0].stat("test_rmse").std, std::sqrt(0.02), 1e-15);
  const auto pairs = find_pairs(cells, {});
  ASSERT_EQ(pairs.size(), 3U);
  EXPECT_EQ(pairs[0].primal->cell, "p100");
  EXPECT_EQ(pairs[0].dual->cell, "d100");
  EXPECT_DOUBLE_EQ(pairs[0].prediction_max_diff, 3e-12);

  const std::string md =
      summary_markdown(t, SummaryInputs{"demo", {"a note"}, {}, {}, {}, {}, 1, {}});
  EXPECT_THAT(md, HasSubstr("# demo"));
  EXPECT_THAT(md, HasSubstr("7 cells, 13 runs: 12 ok, 1 not ok."));
  EXPECT_THAT(md, HasSubstr("a note"));
  // The columns the same in every row (kernel, train_rmse) are stated once above the table.
  EXPECT_THAT(md, HasSubstr("The same in every row: kernel = lin, train_rmse = —."));
  EXPECT_THAT(md,
              HasSubstr("| p100 | primal_ridge | primal | 100 | 0.1 | 100 | 3 | 0.3 ± 0.1414 |"));
  // primal-dual: n 100, D 3, time ratio 0.002 / 0.001, memory ratio 1000 / 80000
  // (kernel, solver parameters, D and max |Δŷ| are the same in every pair: stated once)
  EXPECT_THAT(md, HasSubstr("The same in every row: kernel = lin, solver parameters = "
                            "lambda=0.1, D = 3, max |Δŷ| = 3e-12."));
  EXPECT_THAT(md, HasSubstr("| primal_ridge p100 | kernel_ridge d100 | 100 | 100 | 0.03 | 2 | "
                            "0.0125 |"));
  // crossover: primal time 0.002 against dual 1e-9 n³, which cross between n = 100 and
  // 200 at 100 · 2^(1/3) ≈ 126 in log-log, D = 3
  EXPECT_THAT(md, HasSubstr("## Crossover in n"));
  EXPECT_THAT(md,
              HasSubstr("| primal_ridge | kernel_ridge | lin | 3 | 100 … 400 | dual | 126 | 42 |"));
  // The findings lead: the crossover, the growth, the agreement and the best cells, with
  // the warning that the test set chose them.
  const auto findings = md.find("## Findings");
  ASSERT_NE(findings, std::string::npos);
  EXPECT_LT(findings, md.find("## Cells"));
  EXPECT_THAT(md, HasSubstr("- primal_ridge / kernel_ridge, lin, D = 3: dual cheaper below n ≈ "
                            "126 = 42 D, primal above"));
  // in symbols, not in the table's keys
  EXPECT_THAT(md, HasSubstr("- kernel_ridge (dual), lin (λ = 0.1): time ∝ n^3.00"));
  EXPECT_THAT(md, HasSubstr("lin: max |Δŷ| ≤ 3e-12 over 3 pairs"));
  EXPECT_THAT(md, HasSubstr("Best cell per solver, **picked on the test set**"));
  // growth: the dual fit time is 1e-9 n³, its bytes 8 n²
  EXPECT_THAT(
      md,
      HasSubstr(
          "| lin | kernel_ridge | dual | solver.lambda=0.1 | fit_seconds | 3.00 | 1.000 | 3 |"));
  EXPECT_THAT(
      md,
      HasSubstr(
          "| lin | kernel_ridge | dual | solver.lambda=0.1 | matrix_bytes | 2.00 | 1.000 | 3 |"));
  EXPECT_THAT(md, HasSubstr("| primal_ridge | p100 | lin | dataset.n=100 in all | 0.3 ± 0.1414 |"));
  // The dataset's n is named as the total; n_train beside it.
  EXPECT_THAT(md,
              HasSubstr("| cell | solver | form | dataset.n (total) | solver.lambda | n_train |"));
  EXPECT_THAT(md, HasSubstr("| f | 0 | kernel_ridge | failed: K + λI is not \\| positive |"));
}

/// The pairs as every two cells would give them: the rule of sweep/pairing.hpp applied to
/// each primal cell and each dual cell, in that order.
std::vector<std::pair<std::string, std::string>> every_pair(const std::vector<CellSummary>& cells) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const CellSummary& p : cells) {
    if (p.form != "primal") continue;
    for (const CellSummary& d : cells) {
      if (d.form == "dual" && p.dataset == d.dataset && p.kernel == d.kernel &&
          p.params_of("dataset") == d.params_of("dataset") &&
          p.params_of("kernel") == d.params_of("kernel") &&
          counterparts(solver_side(p), solver_side(d))) {
        out.emplace_back(p.cell, d.cell);
      }
    }
  }
  return out;
}

TEST(FindPairs, ByKeyGivesThePairsOfEveryTwoCellsAndLooksOnlyAtCounterparts) {
  // Two kernels, two dataset sizes, a λ sweep in three solvers (one primal), gradient
  // descent in both forms, precision and device where some solvers have them, and a
  // solver whose parameters a primal one does not share.
  std::vector<CellSummary> cells;
  const auto add = [&](const std::string& kernel, const std::string& solver,
                       const std::string& form, std::map<std::string, std::string> params) {
    CellSummary c;
    c.cell = fmt::format("c{}", cells.size());
    c.dataset = "cubic";
    c.kernel = kernel;
    c.solver = solver;
    c.form = form;
    c.params = std::move(params);
    cells.push_back(std::move(c));
  };
  for (const std::string kernel : {"polynomial", "gaussian"}) {
    for (const std::string n : {"100", "200"}) {
      for (const std::string lambda : {"0.001", "0.1", "1"}) {
        for (const std::string precision : {"double", "mixed"}) {
          add(kernel, "primal_ridge", "primal",
              {{"dataset.n", n},
               {"kernel.degree", "2"},
               {"solver.lambda", lambda},
               {"solver.precision", precision},
               {"solver.device", "cpu"}});
          add(kernel, "kernel_ridge", "dual",
              {{"dataset.n", n},
               {"kernel.degree", "2"},
               {"solver.lambda", lambda},
               {"solver.precision", precision},
               {"solver.device", "cpu"}});
          add(kernel, "cg_ridge", "dual",
              {{"dataset.n", n},
               {"kernel.degree", "2"},
               {"solver.lambda", lambda},
               {"solver.tolerance", "1e-8"},
               {"solver.precision", precision}});
        }
        // shares only how it runs with the primal solver: never a counterpart
        add(kernel, "gp_regression", "dual",
            {{"dataset.n", n},
             {"kernel.degree", "2"},
             {"solver.noise", lambda},
             {"solver.precision", "double"}});
      }
      for (const std::string step : {"0.1", "0.2"}) {
        add(kernel, "primal_gd", "primal",
            {{"dataset.n", n},
             {"kernel.degree", "2"},
             {"solver.step", step},
             {"solver.iterations", "10"}});
        add(kernel, "dual_gd", "dual",
            {{"dataset.n", n},
             {"kernel.degree", "2"},
             {"solver.step", step},
             {"solver.iterations", "10"}});
      }
    }
  }
  std::size_t compared = 0;
  const std::vector<FormPair> pairs = find_pairs(cells, {}, &compared);
  std::vector<std::pair<std::string, std::string>> found;
  for (const FormPair& p : pairs) found.emplace_back(p.primal->cell, p.dual->cell);
  const auto expected = every_pair(cells);
  EXPECT_EQ(found, expected);
  // each ridge primal cell: kernel_ridge and cg_ridge of its λ and precision; each gradient
  // descent: dual_gd of its step
  EXPECT_EQ(expected.size(), 2U * 2U * (3U * 2U * 2U + 2U));
  // Only the counterparts are looked at, not every dual cell of the same kernel variant.
  EXPECT_EQ(compared, expected.size());
}

TEST(FindPairs, ALargeSweepComparesEachPrimalCellWithItsCounterpartsOnly) {
  // 5000 values of λ in both forms: every two cells would be 25 million comparisons.
  std::vector<CellSummary> cells;
  for (const std::string form : {"primal", "dual"}) {
    for (int i = 0; i < 5000; ++i) {
      CellSummary c;
      c.cell = fmt::format("{}{}", form, i);
      c.dataset = "cubic";
      c.kernel = "polynomial";
      c.solver = form == "primal" ? "primal_ridge" : "kernel_ridge";
      c.form = form;
      c.params = {{"solver.lambda", fmt::format("{}", 1e-6 * (i + 1))}};
      cells.push_back(std::move(c));
    }
  }
  std::size_t compared = 0;
  const std::vector<FormPair> pairs = find_pairs(cells, {}, &compared);
  ASSERT_EQ(pairs.size(), 5000U);
  EXPECT_EQ(compared, 5000U);
  EXPECT_EQ(pairs[1234].primal->cell, "primal1234");
  EXPECT_EQ(pairs[1234].dual->cell, "dual1234");
}

/// A cell of `kernel` and `solver` with these parameter columns.
CellSummary cell_of(const std::string& kernel, const std::string& solver,
                    std::map<std::string, std::string> params) {
  CellSummary c;
  c.dataset = "cubic";
  c.kernel = kernel;
  c.solver = solver;
  c.form = "dual";
  c.params = std::move(params);
  return c;
}

TEST(ShownParameters, OnlyThoseThatVaryOverThePluginAndApplyToTheCell) {
  // σ swept with and without random features, features swept only with them; λ swept for
  // kernel ridge, the gradient solver's step never swept; a linear kernel beside.
  std::vector<CellSummary> cells;
  for (const char* sigma : {"0.5", "1"}) {
    cells.push_back(cell_of("gaussian", "kernel_ridge",
                            {{"kernel.sigma", sigma},
                             {"kernel.map", "none"},
                             {"kernel.features", "1000"},
                             {"solver.lambda", "0.1"}}));
    for (const char* features : {"100", "1000"}) {
      cells.push_back(cell_of("gaussian", "kernel_ridge",
                              {{"kernel.sigma", sigma},
                               {"kernel.map", "rff"},
                               {"kernel.features", features},
                               {"solver.lambda", "0.1"}}));
    }
  }
  cells.push_back(cell_of("gaussian", "kernel_ridge",
                          {{"kernel.sigma", "1"},
                           {"kernel.map", "none"},
                           {"kernel.features", "1000"},
                           {"solver.lambda", "0.01"}}));
  cells.push_back(cell_of("linear", "dual_gd", {{"solver.alpha", "0"}}));
  mark_shown_parameters(cells);
  // features is 1000 only for want of a map; λ varies alone at σ = 1, not at σ = 0.5
  const std::set<std::string> without_map{"kernel.sigma", "kernel.map"};
  EXPECT_EQ(cells[0].shown, without_map);
  const std::set<std::string> without_map_at_1{"kernel.sigma", "kernel.map", "solver.lambda"};
  EXPECT_EQ(cells[3].shown, without_map_at_1);
  // λ is 0.1 in every random-feature cell
  const std::set<std::string> with_map{"kernel.sigma", "kernel.map", "kernel.features"};
  EXPECT_EQ(cells[1].shown, with_map);
  EXPECT_TRUE(cells.back().shown.empty());  // dual_gd's step is never swept

  // σ and λ zipped: neither varies alone, so both name the cells.
  std::vector<CellSummary> zipped{
      cell_of("gaussian", "kernel_ridge", {{"kernel.sigma", "0.5"}, {"solver.lambda", "0.1"}}),
      cell_of("gaussian", "kernel_ridge", {{"kernel.sigma", "1"}, {"solver.lambda", "0.01"}})};
  mark_shown_parameters(zipped);
  const std::set<std::string> both{"kernel.sigma", "solver.lambda"};
  EXPECT_EQ(zipped[0].shown, both);
  EXPECT_EQ(zipped[1].shown, both);
}

TEST(ShownValue, RoundsLongNumbersToFourSignificantDigitsAndLeavesTheRest) {
  EXPECT_EQ(shown_value("0.31622776601683794"), "0.3162");
  EXPECT_EQ(shown_value("3.1622776601683795e-05"), "3.162e-05");
  EXPECT_EQ(shown_value("1778.2794100389228"), "1778");
  for (const char* kept : {"1e-3", "0.5", "0.0001", "1000", "12.5", "-0.25", "rff", "", "nan",
                           "inf", "2500", "123456", "10000"}) {
    EXPECT_EQ(shown_value(kept), kept);
  }
}

}  // namespace
}  // namespace kexp::core
