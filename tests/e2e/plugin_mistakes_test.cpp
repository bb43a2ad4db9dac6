// Through the kexp program: the mistakes a plugin author makes are each named, with the
// plugin and the fix: a descriptor with a bad schema (refused when opened, listed as
// invalid by `kexp plugins`), a kernel that declares an exact map and gives none, a metric
// reported but not declared, a kernel that is not PSD given to a solver that needs
// one, a kernel that learns in compute_fit() without declaring flags::fitted, an exact
// map that misses a term of its kernel (refused before any cell), and a solver whose memory
// far exceeds what it declares.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

std::string folder(const std::string& name) {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / name).string());
}

std::string experiment(const std::string& kernel, const std::string& solver) {
  return fmt::format(R"(experiment: mistakes
dataset: {{plugin: cubic, n: 40, d: 2}}
kernels:
  - {}
solvers:
  - {}
)",
                     kernel, solver);
}

TEST(PluginMistakes, EveryProblemOfASchemaIsListed) {
  const CommandResult list = run_kexp("plugins " + folder("bad_schema"));
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_THAT(list.out,
              AllOf(HasSubstr("invalid"), HasSubstr("libkexp_fixture_bad_schema.so"),
                    HasSubstr("(kernel 'bad_schema_kernel') has an invalid descriptor"),
                    HasSubstr("parameter 'sigma' is declared twice"),
                    HasSubstr("parameter 'scale' has a name the experiment file reserves"),
                    HasSubstr("parameter 'plugin' has a name the experiment file reserves"),
                    HasSubstr("parameter 'a.b' has a character that keys use"),
                    HasSubstr("the default of parameter 'rate' is not a value it accepts"),
                    HasSubstr("the default of parameter 'mode' is not a value it accepts"),
                    HasSubstr("kernel   gaussian")));
  // the shipped plugins have none of these problems
  const CommandResult shipped = run_kexp("plugins");
  EXPECT_THAT(shipped.out, Not(HasSubstr("invalid")));
}

TEST(PluginMistakes, APluginWithABadSchemaIsRefusedWhenARunNamesIt) {
  TempDir dir;
  dir.write("exp.yaml", experiment("plugin: bad_schema_kernel", "plugin: kernel_ridge"));
  const CommandResult r = run_kexp("run exp.yaml --out out " + folder("bad_schema"), dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("has an invalid descriptor"),
                           HasSubstr("fix the plugin's descriptor and rebuild it")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(PluginMistakes, AnExactMapFlagWithoutAMapIsRefused) {
  TempDir dir;
  dir.write("exp.yaml", experiment("plugin: mapless_kernel", "plugin: primal_ridge"));
  const CommandResult r = run_kexp("run exp.yaml --out out " + folder("bad_schema"), dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("kernel plugin 'mapless_kernel'"));
  EXPECT_THAT(r.err, HasSubstr("declares flags::exact_map but its feature_map() returns none"));
  const CommandResult check =
      run_kexp("check-kernel mapless_kernel " + folder("bad_schema"), dir.path());
  EXPECT_EQ(check.exit_code, 2) << check.out;
  EXPECT_THAT(check.err, HasSubstr("declares flags::exact_map"));
}

TEST(PluginMistakes, AKernelThatOverridesComputeFitWithoutTheFittedFlagIsRefused) {
  TempDir dir;
  dir.write("exp.yaml", experiment("plugin: unflagged_fit_kernel", "plugin: kernel_ridge"));
  const CommandResult r = run_kexp("run exp.yaml --out out " + folder("bad_schema"), dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("kernel plugin 'unflagged_fit_kernel'"),
                           HasSubstr("overrides compute_fit() but does not declare flags::fitted"),
                           HasSubstr("add flags::fitted")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  const CommandResult check =
      run_kexp("check-kernel unflagged_fit_kernel " + folder("bad_schema"), dir.path());
  EXPECT_EQ(check.exit_code, 2) << check.out;
  EXPECT_THAT(check.err, HasSubstr("overrides compute_fit()"));
  // the same folder with a kernel that does not override it runs
  dir.write("ok.yaml", experiment("plugin: linear", "plugin: kernel_ridge"));
  const CommandResult ok = run_kexp("run ok.yaml --out ok " + folder("bad_schema"), dir.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(PluginMistakes, AnExactMapThatMissesATermIsRefusedBeforeAnyCell) {
  // k = xᵀz + 1 with φ(x) = x: ⟨φ(x), φ(z)⟩ differs from k on every pair, and the kernel is
  // refused before anything runs; with c = 0 the map is exact and the run goes on.
  TempDir dir;
  const std::string text = R"(experiment: short-map
seed: 2
dataset: {plugin: cubic, n: 50, d: 2}
kernels:
  - plugin: fixture_short_map_kernel
    c: C
  - plugin: linear
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
  - plugin: primal_ridge
    lambda: 0.01
)";
  const auto with_c = [&](const std::string& c) {
    std::string t = text;
    t.replace(t.find("c: C"), 4, "c: " + c);
    return t;
  };
  dir.write("exp.yaml", with_c("[1, 0]"));
  const CommandResult r = run_kexp("run exp.yaml --out out " + folder("forms"), dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("kernels[0]: kernel fixture_short_map_kernel()"),
                           HasSubstr("its exact feature map and its compute() disagree"),
                           HasSubstr("before any cell runs")));
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "results.csv"));
  // a dry run refuses it too
  EXPECT_EQ(run_kexp("run exp.yaml --dry-run " + folder("forms"), dir.path()).exit_code, 2);
  dir.write("exact.yaml", with_c("0"));
  const CommandResult exact = run_kexp("run exact.yaml --out exact " + folder("forms"), dir.path());
  EXPECT_EQ(exact.exit_code, 0) << exact.err;
}

TEST(PluginMistakes, ACellWhoseMemoryFarExceedsItsEstimateIsWarnedAboutInItsRowAndTheSummary) {
  // fixture_hungry claims 1 kB and writes 100 MB; with 2 MB it stays within the slack.
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: hungry
seed: 2
dataset: {plugin: cubic, n: 60, d: 2}
kernels:
  - plugin: gaussian
solvers:
  - plugin: fixture_hungry
    megabytes: [100, 2]
)");
  const CommandResult r =
      run_kexp("run exp.yaml --out out --max-memory 20MB " + folder("forms"), dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string warning = "its resident memory grew by";
  EXPECT_THAT(r.err, HasSubstr(warning));
  std::ifstream csv(dir.path() / "out" / "results.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_THAT(header, HasSubstr(",memory_notes,"));
  int warned = 0, rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    if (line.find(warning) != std::string::npos) {
      ++warned;
      // the estimate: the 1 kB claimed and the targets' bytes; megabytes is the last column
      EXPECT_THAT(line, AllOf(HasSubstr("more than twice the 0.00"), EndsWith(",100")));
    }
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(warned, 1);
  std::ifstream summary(dir.path() / "out" / "summary.md");
  std::stringstream s;
  s << summary.rdbuf();
  EXPECT_THAT(s.str(), HasSubstr(warning));
}

TEST(PluginMistakes,
     AMemoryClaimFarBelowTheGrowthAndFlopsBelowTheKernelsAreReplacedByWhatWasMeasured) {
  // fixture_hungry claims 1 kB and 0 flops, builds K (60 × 60) through the kernel and writes
  // 100 MB besides.
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: hungry
seed: 2
dataset: {plugin: cubic, n: 60, d: 2, test_fraction: 0.25}
kernels:
  - plugin: gaussian
solvers:
  - plugin: fixture_hungry
    megabytes: 100
)");
  const CommandResult r =
      run_kexp("run exp.yaml --out out --max-memory 20MB " + folder("forms"), dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 1U);
  const auto& row = rows.front();
  EXPECT_GE(std::stod(row.at("matrix_bytes")), 90e6) << row.at("memory_notes");
  EXPECT_THAT(row.at("memory_notes"), HasSubstr("matrix_bytes gives the growth measured"));
  // K(X, X) of 45 training points in d = 2 at the Gaussian's count, at least: 45² entries
  EXPECT_GE(std::stod(row.at("flops")), 45.0 * 45.0 * 2.0);
  EXPECT_THAT(row.at("flops_notes"), AllOf(HasSubstr("solver 'fixture_hungry' reported 0 flops"),
                                           HasSubstr("counted by the SDK's Gram calls")));
  EXPECT_THAT(r.err, HasSubstr("reported 0 flops"));
}

TEST(PluginMistakes, AnUndeclaredMetricIsSaidOnce) {
  TempDir dir;
  dir.write("exp.yaml", experiment("plugin: linear",
                                   "{plugin: fixture_flaky, undeclared: true, "
                                   "sleep: [0, 0.001]}"));
  const CommandResult r = run_kexp("run exp.yaml --out out " + folder("forms"), dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string warning = "solver 'fixture_flaky' reported the metric 'surprise'";
  EXPECT_THAT(r.err, HasSubstr(warning));
  EXPECT_EQ(r.err.find(warning), r.err.rfind(warning)) << "said twice: " << r.err;
}

TEST(PluginMistakes, AKernelThatIsNotPsdMeetingASolverThatNeedsOneIsWarnedAbout) {
  TempDir dir;
  dir.write("exp.yaml",
            experiment("{plugin: sigmoid, a: 1, b: -1}", "{plugin: kernel_ridge, lambda: 1}"));
  const CommandResult dry = run_kexp("run exp.yaml --dry-run", dir.path());
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.err, AllOf(HasSubstr("kexp: warning: the kernel sigmoid("),
                             HasSubstr("is not positive semidefinite"),
                             HasSubstr("solver 'kernel_ridge' needs a PSD kernel")));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_THAT(r.err, HasSubstr("is not positive semidefinite"));
  std::ifstream summary(dir.path() / "out" / "summary.md");
  std::stringstream text;
  text << summary.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("Warning: the kernel sigmoid("));
  // a valid kernel: no warning
  dir.write("ok.yaml", experiment("plugin: gaussian", "plugin: kernel_ridge"));
  EXPECT_THAT(run_kexp("run ok.yaml --dry-run", dir.path()).err, Not(HasSubstr("warning")));
}

}  // namespace
}  // namespace kexp::test
