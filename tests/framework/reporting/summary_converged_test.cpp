// summary.md marks the cells whose iterative solver did not converge, in the cells table
// and in a note naming them, and says nothing when every cell converged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reporting/summary.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

CsvTable cg_cells(const std::string& second_converged) {
  CsvTable t;
  t.columns = {"cell", "repeat",  "status",    "dataset",   "kernel",       "solver",
               "form", "n_train", "test_rmse", "converged", "kernel.sigma", "solver.lambda"};
  t.rows.push_back({"a1", "0", "ok", "friedman1", "gaussian", "cg_ridge", "dual", "100", "0.5",
                    "true", "1", "0.1"});
  t.rows.push_back({"b2", "0", "ok", "friedman1", "gaussian", "cg_ridge", "dual", "100", "0.7",
                    second_converged, "1", "1e-08"});
  t.rows.push_back({"b2", "1", "ok", "friedman1", "gaussian", "cg_ridge", "dual", "100", "0.7",
                    "true", "1", "1e-08"});
  return t;
}

TEST(SummaryConverged, CellsThatDidNotConvergeAreMarkedAndNamed) {
  const std::string md =
      summary_markdown(cg_cells("false"), SummaryInputs{"cg", {}, {}, {}, {}, {}, 1, {}});
  EXPECT_THAT(md, HasSubstr("| b2 | 1e-08 | 0.7 ± 0 | 2/2, 1 not converged |"));
  EXPECT_THAT(md, HasSubstr("| a1 | 0.1 | 0.5 | 1/1 |"));
  EXPECT_THAT(md, HasSubstr("**Not converged:** in 1 cell the solver stopped before its "
                            "tolerance"));
  EXPECT_THAT(md, HasSubstr("b2 (gaussian cg_ridge, solver.lambda=1e-08: 1 of 2 runs)"));
}

TEST(SummaryConverged, NothingWhenEveryCellConverged) {
  const std::string md =
      summary_markdown(cg_cells("true"), SummaryInputs{"cg", {}, {}, {}, {}, {}, 1, {}});
  EXPECT_THAT(md, Not(HasSubstr("not converged")));
  EXPECT_THAT(md, Not(HasSubstr("Not converged")));
}

}  // namespace
}  // namespace kexp::core
