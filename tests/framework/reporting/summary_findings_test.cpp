// The findings at the top of summary.md say when their figures do not bear them: a
// growth whose log-log fit is poor, a crossover whose range is wide or that the flop
// counts do not put there.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reporting/summary.hpp"
#include "util/csv.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// A primal and a dual series over n = 100 … 1600 (training points): the primal's times
/// `primal[i]` measured within ±`spread`, the dual's 1e-6·n² exactly, with the flop
/// counts given.
CsvTable pair_sweep(const std::vector<double>& primal, double spread,
                    const std::vector<double>& primal_flops = {},
                    const std::vector<double>& dual_flops = {}) {
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
               "flops",
               "dataset.n",
               "solver.lambda"};
  const std::vector<int> ns = {100, 200, 400, 800, 1600};
  for (std::size_t i = 0; i < ns.size(); ++i) {
    const std::string n = std::to_string(ns[i]);
    const double tp = primal[i], td = 1e-6 * ns[i] * ns[i];
    const auto flops = [&](const std::vector<double>& f) {
      return f.empty() ? std::string() : fmt::format("{}", f[i]);
    };
    t.rows.push_back({"p" + n, "0", "ok", "cubic", "poly", "primal_ridge", "primal", n, "500",
                      "0.1", fmt::format("{}", tp), fmt::format("{}", tp * (1 - spread)),
                      fmt::format("{}", tp * (1 + spread)), flops(primal_flops), n, "0.01"});
    t.rows.push_back({"d" + n, "0", "ok", "cubic", "poly", "kernel_ridge", "dual", n, "", "0.1",
                      fmt::format("{}", td), fmt::format("{}", td), fmt::format("{}", td),
                      flops(dual_flops), n, "0.01"});
  }
  return t;
}

std::string summary_of(const CsvTable& t) {
  SummaryInputs in;
  in.experiment = "t";
  return summary_markdown(t, in);
}

TEST(Findings, ASteadyCrossoverThatTheFlopsPredictIsStatedPlainly) {
  // primal 1e-3·n crosses the dual's 1e-6·n² at n = 1000; the flop counts cross there too.
  const auto md =
      summary_of(pair_sweep({0.1, 0.2, 0.4, 0.8, 1.6}, 0.05, {1e5, 2e5, 4e5, 8e5, 1.6e6},
                            {1e4, 4e4, 1.6e5, 6.4e5, 2.56e6}));
  EXPECT_THAT(md, HasSubstr("dual cheaper below n ≈ 1000"));
  EXPECT_THAT(md, Not(HasSubstr("**a wide range**")));
  EXPECT_THAT(md, Not(HasSubstr("**a poor fit**")));
  EXPECT_THAT(md, Not(HasSubstr("flop counts do not cross here")));
}

TEST(Findings, AWideRangeIsMarkedWithItsFactor) {
  // ±40 % on the primal's times: its crossing with the dual's n² moves by (1.4/0.6)
  // from end to end, 2.3×.
  const auto md = summary_of(pair_sweep({0.1, 0.2, 0.4, 0.8, 1.6}, 0.4));
  EXPECT_THAT(md, HasSubstr("— **a wide range** (2.3× from end to end)"));
  EXPECT_THAT(md, HasSubstr("rerun on a quiet machine"));
}

TEST(Findings, ACrossoverTheFlopCountsDoNotMakeIsMarked) {
  // The flop counts say the primal is dearer at every n; the times cross anyway.
  const auto md = summary_of(
      pair_sweep({0.1, 0.2, 0.4, 0.8, 1.6}, 0.05, {1e9, 1e9, 1e9, 1e9, 1e9}, {1, 2, 3, 4, 5}));
  EXPECT_THAT(md, HasSubstr("the flop counts do not cross in this range — **the flop counts do "
                            "not cross here**"));
}

TEST(Findings, AGrowthWhoseFitIsPoorIsMarked) {
  // Times that jump about: no power of n describes them.
  const auto md = summary_of(pair_sweep({0.5, 0.1, 0.9, 0.2, 0.6}, 0.05));
  EXPECT_THAT(md, HasSubstr("primal_ridge (primal), poly: time ∝ n^"));
  EXPECT_THAT(md, HasSubstr("— **a poor fit** (R² below 0.9)"));
  // The dual's exact n² is not.
  const auto dual = md.find("kernel_ridge (dual), poly: time ∝ n^2.00 (R² 1.000)");
  ASSERT_NE(dual, std::string::npos);
  EXPECT_EQ(md.substr(dual, md.find('\n', dual) - dual).find("poor fit"), std::string::npos);
}

TEST(Findings, EachPrecisionSaysWhatItCostInAccuracy) {
  CsvTable t;
  t.columns = {"cell",
               "repeat",
               "status",
               "dataset",
               "kernel",
               "solver",
               "form",
               "n_train",
               "test_rmse",
               "error",
               "precision_max_diff",
               "precision_fallback",
               "solver.lambda",
               "solver.precision"};
  const auto row = [&](const char* cell, const char* status, const char* diff, const char* fallback,
                       const char* lambda, const char* precision) {
    t.rows.push_back({cell, "0", status, "sine", "gaussian", "kernel_ridge", "dual", "80",
                      status == std::string("ok") ? "0.1" : "",
                      status == std::string("ok") ? "" : "not positive definite", diff, fallback,
                      lambda, precision});
  };
  row("d1", "ok", "", "0", "0.1", "double");
  row("m1", "ok", "3e-12", "0", "0.1", "mixed");
  row("s1", "ok", "2e-4", "0", "0.1", "single");
  row("d2", "ok", "", "0", "1e-10", "double");
  row("m2", "ok", "5e-6", "1", "1e-10", "mixed");
  row("s2", "failed", "", "", "1e-10", "single");
  EXPECT_THAT(summary_of(t),
              HasSubstr("Each precision against float64 (its test predictions against those of "
                        "the float64 cell of the same parameters): mixed: max |Δŷ| ≤ 5e-06 over "
                        "2 cells, 1 of them solved in float64 instead; single: max |Δŷ| ≤ "
                        "0.0002 over 1 cell, 1 failed."));
  // With a second solver in mixed precision, each solver's cells are told apart.
  t.rows.push_back({"f1", "0", "ok", "sine", "gaussian", "falkon", "dual", "80", "0.1", "", "0.03",
                    "", "1e-7", "mixed"});
  EXPECT_THAT(summary_of(t), HasSubstr("falkon mixed: max |Δŷ| ≤ 0.03 over 1 cell; "
                                       "kernel_ridge mixed: max |Δŷ| ≤ 5e-06 over 2 cells, 1 of "
                                       "them solved in float64 instead; kernel_ridge single:"));
  // Without a precision swept, nothing is said.
  EXPECT_THAT(summary_of(pair_sweep({0.01, 0.02, 0.04, 0.08, 0.16}, 0)),
              Not(HasSubstr("Each precision")));
}

TEST(Findings, TheSameCellOnTheGpuAndOnTheCpuIsComparedByItsTime) {
  // kernel ridge at two λ on each device, and falkon on the CPU alone: two comparisons,
  // each with its λ, none for falkon
  CsvTable t;
  t.columns = {"cell",          "repeat",        "status",          "dataset",   "kernel",
               "solver",        "form",          "n_train",         "test_rmse", "total_seconds",
               "solver.lambda", "solver.device", "transfer_seconds"};
  const auto row = [&](const char* cell, const char* solver, const char* seconds,
                       const char* lambda, const char* device, const char* copies) {
    t.rows.push_back({cell, "0", "ok", "friedman1", "gaussian", solver, "dual", "40000", "1.0",
                      seconds, lambda, device, copies});
  };
  row("a", "kernel_ridge", "12.5", "0.1", "cpu", "0");
  row("b", "kernel_ridge", "0.5", "0.1", "cuda", "0.125");
  row("c", "kernel_ridge", "12", "1e-3", "cpu", "0");
  row("d", "kernel_ridge", "0.6", "1e-3", "cuda", "0.25");
  row("e", "falkon", "3", "0.1", "cpu", "0");
  const auto md = summary_of(t);
  EXPECT_THAT(md, HasSubstr("The same cell on the GPU and on the CPU"));
  // the copies between host and GPU, the transfer phase, are named inside the GPU's time
  EXPECT_THAT(md, HasSubstr("kernel_ridge, gaussian (solver.lambda=0.1): GPU 0.5 s (copies "
                            "0.125 s of it) against CPU 12.5 s, 25× faster on the GPU"));
  EXPECT_THAT(md, HasSubstr("(solver.lambda=1e-3): GPU 0.6 s (copies 0.25 s of it) against CPU 12 "
                            "s, 20× faster"));
  EXPECT_THAT(md, Not(HasSubstr("falkon, gaussian")));
  // and the cells table has a column of their own for them
  EXPECT_THAT(md, HasSubstr("| copies (s) |"));
  EXPECT_THAT(md, HasSubstr("copies: the copies between host and GPU, timed apart"));
  // a folder without GPU cells has no such paragraph and no such column
  const auto cpu_only = summary_of(pair_sweep({0.1, 0.2, 0.4, 0.8, 1.6}, 0.05));
  EXPECT_THAT(cpu_only, Not(HasSubstr("on the GPU and on the CPU")));
  EXPECT_THAT(cpu_only, Not(HasSubstr("copies (s)")));
}

}  // namespace
}  // namespace kexp::core
