// The data's memory through the kexp program: a dry run never generates a dataset that
// states its shape, the data's memory counts in the budget of the run (refused before
// anything is loaded) and of each cell, and running out of memory while the data is
// generated or in a cell is a message naming the dataset, n and d, never an internal
// error. The out-of-memory cases cap the address space (ulimit -v), so that a test fails
// with a clear message rather than taking the machine's memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "support/test_paths.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

/// The address space the capped runs get: the program and its libraries fit, a data set
/// of 10⁸ samples (8.8 GB) or a Gram matrix of 32000 points (8.2 GB) does not.
const std::string kCap = "ulimit -v 3000000 &&";

class DataBudget : public ::testing::Test {
 protected:
  void SetUp() override {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the cap allows";
#endif
  }

  TempDir dir;

  void write(const std::string& n) const {
    dir.write("exp.yaml",
              "experiment: data-budget\nseed: 1\ndataset:\n  plugin: friedman1\n"
              "  n: " +
                  n +
                  "\nkernels:\n  - plugin: gaussian\n    sigma: 1\n"
                  "solvers:\n  - plugin: kernel_ridge\n    lambda: 0.1\n");
  }

  CommandResult kexp(const std::string& args) const {
    return run_kexp(
        "run exp.yaml --out out --plugin-path '" + std::string(KEXP_TEST_PLUGIN_DIR) + "' " + args,
        dir.path(), kCap);
  }
};

TEST_F(DataBudget, ADryRunWhoseDataPassesTheBudgetIsRefusedBeforeLoading) {
  write("1e8");
  const CommandResult r = kexp("--dry-run --max-memory 1G");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:4:3: the data of this run needs about 17.6 GB"));
  EXPECT_THAT(r.err, HasSubstr("n = 100000000, d = 10: X and y, 8·n·(d + 1) = 8.8 GB"));
  EXPECT_THAT(r.err, HasSubstr("memory budget of 1 GB (--max-memory)"));
  EXPECT_THAT(r.err, Not(HasSubstr("internal error")));
  // the run itself is refused alike, and writes nothing
  const CommandResult run = kexp("--max-memory 1G");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_THAT(run.err, HasSubstr("the data of this run needs about 17.6 GB"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST_F(DataBudget, ADryRunListsItsCellsWithoutGeneratingTheData) {
  // 8.8 GB of data, were it generated, in an address space of 3 GB
  write("1e8");
  const CommandResult r = kexp("--dry-run --max-memory 1000G");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 8·10⁷ training and 2·10⁷ test points: K and K(X, X*), 8·(n² + nm + m) = 6.4e16 bytes
  EXPECT_THAT(r.out, ContainsRegex(R"(6\.4e\+07 GB +[0-9.e+]+ [a-z]+  friedman1\(n=100000000\))"));
  EXPECT_THAT(r.out, HasSubstr("OVER BUDGET"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST_F(DataBudget, RunningOutOfMemoryWhileGeneratingNamesTheDatasetNAndD) {
  write("1e8");
  const CommandResult r = kexp("--max-memory 1000G");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("dataset friedman1(n=100000000)"));
  EXPECT_THAT(r.err, HasSubstr("ran out of memory while generating or reading its data "
                               "(n = 100000000, d = 10: X and y take 8.8 GB)"));
  EXPECT_THAT(r.err, Not(HasSubstr("internal error")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST_F(DataBudget, RunningOutOfMemoryInACellFailsThatCellNamingItsData) {
  write("40000");  // K of 32000 training points: 8.2 GB
  const CommandResult r = kexp("--quiet --max-memory 1000G");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("out of memory (std::bad_alloc) (dataset friedman1(n=40000"));
  EXPECT_THAT(r.err, Not(HasSubstr("internal error")));
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 1U);
  EXPECT_EQ(t.rows[0][column(t, "status")], "failed");
  const std::string error = t.rows[0][column(t, "error")];
  EXPECT_THAT(error, HasSubstr("out of memory"));
  EXPECT_THAT(error, HasSubstr("dataset friedman1(n=40000"));
  EXPECT_THAT(error, HasSubstr("n = 32000, m = 8000, d = 10"));
}

TEST_F(DataBudget, TheOtherDatasetsDataCountsInACellsEstimate) {
  // n = 1000 alone: 800 training and 200 test points, K factored in place and the cross
  // block, 8·(800² + 800·200 + 200) = 6 401 600 bytes, and the points, 8·10·1000 = 80 000
  write("1000");
  const CommandResult alone = kexp("--dry-run --max-memory 100G");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_THAT(alone.out, ContainsRegex(R"(6\.48 MB +[0-9.e+]+ [a-z]+  friedman1\(n=1000\))"));
  // beside it, the data of n = 10⁶, held through the run: 8·10⁶·(10 + 1) = 88 MB
  write("[1000, 1000000]");
  const CommandResult r = kexp("--dry-run --max-memory 100G");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex(R"(94\.5 MB +[0-9.e+]+ [a-z]+  friedman1\(n=1000\))"));
}

}  // namespace
}  // namespace kexp::test
