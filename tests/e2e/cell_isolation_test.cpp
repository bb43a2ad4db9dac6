// Through the kexp program: a kernel that crashes, aborts or exits while its Gram matrix
// is computed fails the cells of its group, each row naming how the process ended and the
// plugins; every other cell runs, the manifest is finished and kexp exits 1. With
// --no-isolation the same run ends with the plugin, as a debugger wants it.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string forms() {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / "forms").string());
}

using Row = ResultRow;

nlohmann::json manifest(const fs::path& folder) {
  std::ifstream in(folder / "manifest.json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

/// The crashing kernel with `crash: <crashes>`, beside a Gaussian; two λ of kernel ridge
/// and the flaky solver: three cells per kernel variant.
std::string sweep(const std::string& crashes) {
  return fmt::format(R"(experiment: crashes
seed: 3
dataset:
  plugin: cubic
  n: 50
  d: 2
kernels:
  - plugin: gaussian
    sigma: 1
  - plugin: fixture_crashing_kernel
    crash: {}
solvers:
  - plugin: kernel_ridge
    lambda: [0.001, 0.1]
  - plugin: fixture_flaky
)",
                     crashes);
}

struct Crash {
  const char* how;
  const char* ended;  ///< as the row says it
};

const Crash kCrashes[] = {
    {"segfault", "was killed by SIGSEGV (signal 11)"},
    {"abort", "was killed by SIGABRT (signal 6)"},
    {"exit0", "exited with code 0"},
    {"exit3", "exited with code 3"},
};

/// A sanitizer build runs groups in kexp's own process (util/child_process.hpp).
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_WITHOUT_ISOLATION() \
  GTEST_SKIP() << "groups are not isolated in an AddressSanitizer build"
#else
#define SKIP_WITHOUT_ISOLATION() static_cast<void>(0)
#endif

TEST(CellIsolation, ACrashingKernelFailsItsGroupAndEveryOtherCellRuns) {
  SKIP_WITHOUT_ISOLATION();
  for (const Crash& c : kCrashes) {
    SCOPED_TRACE(c.how);
    const TempDir dir;
    dir.write("x.yaml", sweep(fmt::format("[{}, none]", c.how)));
    const auto r = run_kexp("run x.yaml --out out --threads 2 " + forms(), dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto rows = result_rows(dir.path() / "out");
    ASSERT_EQ(rows.size(), 9U) << r.err;  // 3 kernel variants × 3 solvers
    int failed = 0;
    for (const Row& row : rows) {
      const bool crashes =
          row.at("kernel") == "fixture_crashing_kernel" && row.at("kernel.crash") == c.how;
      if (!crashes) {
        EXPECT_EQ(row.at("status"), "ok") << row.at("kernel") << " " << row.at("error");
        continue;
      }
      ++failed;
      EXPECT_EQ(row.at("status"), "failed");
      // Under UndefinedBehaviorSanitizer the null write is caught before it faults, and
      // the process exits with code 1 instead: still a failed cell naming the plugin.
      EXPECT_THAT(
          row.at("error"),
          AllOf(::testing::AnyOf(HasSubstr(c.ended), HasSubstr("exited with code 1 while it ran")),
                HasSubstr("kernel 'fixture_crashing_kernel'"),
                HasSubstr("solver '" + row.at("solver"))));
    }
    EXPECT_EQ(failed, 3);
    const auto m = manifest(dir.path() / "out");
    EXPECT_EQ(m["runs"]["ok"], 6) << m.dump();
    EXPECT_EQ(m["runs"]["failed"], 3) << m.dump();
    EXPECT_FALSE(m["finished"].is_null()) << m.dump();
    EXPECT_TRUE(fs::exists(dir.path() / "out" / "summary.md"));
  }
}

TEST(CellIsolation, WithoutIsolationTheCrashEndsTheRunAsBefore) {
  const TempDir dir;
  dir.write("x.yaml", sweep("[exit3, none]"));
  const auto r = run_kexp("run x.yaml --out out --no-isolation " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.err;  // the plugin's own exit code: nothing supervised it
  EXPECT_LT(result_rows(dir.path() / "out").size(), 9U);
}

TEST(CellIsolation, IsolatedAndInProcessRunsGiveTheSameResults) {
  // Every figure that does not measure time or memory is the same, bit for bit.
  SKIP_WITHOUT_ISOLATION();
  const TempDir dir;
  dir.write("x.yaml", sweep("none"));  // 6 cells, all ok
  const auto a = run_kexp("run x.yaml --out isolated " + forms(), dir.path());
  const auto b = run_kexp("run x.yaml --out in-process --no-isolation " + forms(), dir.path());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto x = result_rows(dir.path() / "isolated");
  const auto y = result_rows(dir.path() / "in-process");
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (const char* column : {"cell", "status", "test_rmse", "train_rmse", "kernel"}) {
      EXPECT_EQ(x[i].at(column), y[i].at(column)) << column << " of row " << i;
    }
  }
}

}  // namespace
}  // namespace kexp::test
