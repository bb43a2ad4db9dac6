// The progress line: its ETA weighs runs by their estimated cost, not by their count, so
// that a sweep from small to large n is not announced as nearly done after its small
// cells; durations and the rate read as a person writes them.
#include "run/progress.hpp"

#include <gtest/gtest.h>

namespace kexp::core {
namespace {

TEST(ProgressLine, TheEtaIsTheTimePerUnitOfCostTimesTheCostLeft) {
  // Two runs at n = 1000 done in 10 s, two at n = 4000 left: by count the line would say
  // 10 s; each large run costs about 17 times a small one (n³/3 and the overhead).
  const double small = run_cost(Form::Dual, 1000, 250, 10, 0, 0, 0);
  const double large = run_cost(Form::Dual, 4000, 1000, 10, 0, 0, 0);
  EXPECT_DOUBLE_EQ(small, kRunOverheadFlops + 1e7 + 2.5e6 + 1e9 / 3.0);
  ProgressState s;
  s.finished = 2;
  s.total = 4;
  s.cost_done = 2 * small;
  s.cost_total = 2 * small + 2 * large;
  s.elapsed = 10;
  s.running = "friedman1 n=4000 | gaussian | kernel_ridge";
  const double eta = 10.0 / (2 * small) * (2 * large);
  EXPECT_EQ(progress_line(s), "2/4 runs, 0 failed, 12 runs/min, 10s elapsed, ETA " +
                                  duration_text(eta) +
                                  "; running friedman1 n=4000 | gaussian | kernel_ridge");
  EXPECT_EQ(duration_text(eta), "2m47s");  // 10 s × 16.74 ≈ 167 s
  s.elapsed = 0.5;                         // fast: the rate per second
  EXPECT_NE(progress_line(s).find(", 4.0 runs/s,"), std::string::npos) << progress_line(s);
}

TEST(ProgressLine, SaysWhatItCannotKnowYet) {
  ProgressState s;
  s.total = 3;
  s.cost_total = 1e9;
  EXPECT_EQ(progress_line(s), "0/3 runs, 0 failed, 0s elapsed, ETA unknown");
  s.finished = 3;
  s.failed = 1;
  s.cost_done = 1e9;
  s.elapsed = 90;
  EXPECT_EQ(progress_line(s), "3/3 runs, 1 failed, 2 runs/min, 1m30s elapsed");
}

TEST(ProgressLine, DurationsAndCosts) {
  EXPECT_EQ(duration_text(0.4), "0s");
  EXPECT_EQ(duration_text(59.6), "1m00s");
  EXPECT_EQ(duration_text(3725), "1h02m");
  // Primal: Φ and Φ(X*), ΦΦᵀ and its factorization; each validation split adds its own.
  EXPECT_DOUBLE_EQ(run_cost(Form::Primal, 100, 20, 2, 10, 0, 0),
                   kRunOverheadFlops + 10.0 * 120 * 2 + 100.0 * 100 + 1000.0 / 3.0);
  EXPECT_DOUBLE_EQ(
      run_cost(Form::Dual, 10, 0, 1, 0, 2, 6) - run_cost(Form::Dual, 10, 0, 1, 0, 0, 0),
      2 * 216.0 / 3.0);
}

}  // namespace
}  // namespace kexp::core
