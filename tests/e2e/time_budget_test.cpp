// Through the kexp program: cells whose solver would run for days (10¹² iterations of
// dual_gd or cg_ridge, 10⁹ restarts of gp_regression) are refused before they run, with
// their flops and the rate, in the dry run and in the run, and the run ends at once; a
// cell within the limit runs; --max-cell-time sets the limit and 0 turns it off.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kEndless = R"(experiment: endless
seed: 1
dataset:
  plugin: friedman1
  n: 200
kernels:
  - plugin: gaussian
    sigma: 1
solvers:
  - plugin: dual_gd
    iterations: 1000000000000
    tolerance: 0
  - plugin: cg_ridge
    iterations: 1000000000000
    tolerance: 1e-300
  - plugin: gp_regression
    optimize: true
    restarts: 1000000000
  - plugin: kernel_ridge
)";

TEST(TimeBudget, TheDryRunShowsEachCellsLeastTimeAndWhichWouldBeRefused) {
  const TempDir dir;
  dir.write("x.yaml", kEndless);
  const auto r = run_kexp("run x.yaml --dry-run", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              AllOf(HasSubstr("time limit 1 day per cell (--max-cell-time)"), HasSubstr("DGEMM's"),
                    HasSubstr("3 cells are over the time limit and would be refused")));
  int over = 0;
  std::istringstream out(r.out);
  for (std::string line; std::getline(out, line);) {
    if (line.find("OVER TIME LIMIT") == std::string::npos) continue;
    ++over;
    EXPECT_THAT(line, ::testing::AnyOf(HasSubstr(" day"), HasSubstr(" year"))) << line;
    EXPECT_EQ(line.find("kernel_ridge"), std::string::npos) << line;
  }
  EXPECT_EQ(over, 3) << r.out;
}

TEST(TimeBudget, ARunRefusesThemWithTheFiguresAndRunsTheRest) {
  const TempDir dir;
  dir.write("x.yaml", kEndless);
  const auto r = run_kexp("run x.yaml --out out", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 4U) << r.err;
  for (const auto& row : rows) {
    SCOPED_TRACE(row.at("solver"));
    if (row.at("solver") == "kernel_ridge") {
      EXPECT_EQ(row.at("status"), "ok") << row.at("error");
      continue;
    }
    EXPECT_EQ(row.at("status"), "refused");
    EXPECT_THAT(
        row.at("error"),
        AllOf(HasSubstr("refused before it started: it takes at least"), HasSubstr("flops: "),
              HasSubstr(row.at("solver") + "'s fit"), HasSubstr("GFLOP/s"),
              HasSubstr("more than the time limit of 1 day"), HasSubstr("--max-cell-time")));
  }
}

TEST(TimeBudget, TheLimitIsTheOptionsAndZeroTurnsItOff) {
  const TempDir dir;
  dir.write("x.yaml", kEndless);
  const auto off = run_kexp("run x.yaml --dry-run --max-cell-time 0", dir.path());
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("no time limit (--max-cell-time 0)"));
  EXPECT_EQ(off.out.find("OVER TIME LIMIT"), std::string::npos) << off.out;
  // A limit no cell meets refuses even kernel ridge on 160 points.
  const auto tight = run_kexp("run x.yaml --out out --max-cell-time 0.000001s", dir.path());
  EXPECT_EQ(tight.exit_code, 1) << tight.err;
  for (const auto& row : result_rows(dir.path() / "out")) {
    EXPECT_EQ(row.at("status"), "refused") << row.at("solver");
  }
  const auto bad = run_kexp("run x.yaml --dry-run --max-cell-time 3weeks", dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--max-cell-time '3weeks' must be a duration such as 90s"));
}

}  // namespace
}  // namespace kexp::test
