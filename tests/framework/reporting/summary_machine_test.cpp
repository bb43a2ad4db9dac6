// summary.md's table against the machine's limits: each cell's Gram entries per second
// against the bound and its flops per second against DGEMM's, and no table without
// limits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reporting/summary.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

CsvTable one_dual_cell() {
  CsvTable t;
  t.columns = {"cell",  "repeat",   "status", "dataset",     "kernel",       "solver",
               "form",  "n_train",  "d",      "fit_seconds", "gram_seconds", "predict_seconds",
               "flops", "test_rmse"};
  // n = 1000: 10⁶ entries in 10 ms is 1e8 entries/s; 2e9 flops in 0.01 + 0.01 + 0 s is
  // 1e11 flop/s.
  t.rows.push_back({"c1", "0", "ok", "friedman1", "gaussian", "kernel_ridge", "dual", "1000", "10",
                    "0.01", "0.01", "0", "2e9", "0.5"});
  return t;
}

TEST(SummaryMachine, RatesAsFractionsOfTheLimits) {
  SummaryInputs in{"demo", {}, {}, {}, {}, {}, 1, {}};
  MachineLimits m;
  m.cpu = "Some CPU";
  m.cpus = 2;
  m.blas_core = "SkylakeX";
  m.exp_function = "_ZGVeN8v_exp";
  m.one = MachineRates{1, 1e11, 1e9, 8e9};
  m.all = MachineRates{2, 2e11, 2e9, 1.6e10};
  in.machine = m;
  in.threads = 2;
  const std::string md = summary_markdown(one_dual_cell(), in);
  EXPECT_THAT(md, HasSubstr("## Against this machine's limits"));
  EXPECT_THAT(md, HasSubstr("at 2 threads: DGEMM 200 GFLOP/s, exp 2 G values/s (_ZGVeN8v_exp), "
                            "memory writes 16 GB/s"));
  // bound at 2 threads, d = 10: 20 / 2e11 + 1 / 2e9 + 8 / 1.6e10 = 1.1 ns → 9.09e8/s;
  // 1e8 / 9.09e8 = 11 %. 1e11 / 2e11 = 50 %.
  EXPECT_THAT(md, HasSubstr("| c1 | kernel_ridge | dual | 1000 | 10 | 0.1 | 11 % | 100 | 50 % |"));

  in.threads = 1;  // against one thread's limits: 1e8 / (1 / 2.2 ns) = 22 %, 100 %
  EXPECT_THAT(summary_markdown(one_dual_cell(), in), HasSubstr("| 0.1 | 22 % | 100 | 100 % |"));
}

TEST(SummaryMachine, NoTableWithoutLimits) {
  const std::string md =
      summary_markdown(one_dual_cell(), SummaryInputs{"demo", {}, {}, {}, {}, {}, 1, {}});
  EXPECT_THAT(md, Not(HasSubstr("machine's limits")));
}

}  // namespace
}  // namespace kexp::core
