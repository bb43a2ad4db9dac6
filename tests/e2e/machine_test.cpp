// `kexp machine` measures the machine's limits once and keeps them; a run records them in
// its manifest and its summary states each cell's rates against them, and `kexp report`
// rebuilds that table from the manifest. Before they are measured, a run says how.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kConfig = R"(experiment: machine
seed: 3
dataset: {plugin: friedman1, n: 300, d: 5}
kernels:
  - {plugin: gaussian, sigma: 1.0}
solvers:
  - {plugin: kernel_ridge, lambda: 0.01}
)";

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Machine, MeasuredOnceRecordedByEveryRunAndStatedInTheSummary) {
  const TempDir dir;
  std::ofstream(dir.path() / "m.yaml") << kConfig;
  const std::string env = "KEXP_MACHINE_FILE='" + (dir.path() / "limits.json").string() + "'";

  // Not measured yet: the run says how, records null, and its summary has no such table.
  const auto before = run_kexp("run m.yaml --quiet --out before", dir.path(), env);
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_THAT(before.err, HasSubstr("`kexp machine` measures them once"));
  const auto manifest_before = nlohmann::json::parse(read(dir.path() / "before/manifest.json"));
  EXPECT_TRUE(manifest_before["environment"]["machine"].is_null());
  EXPECT_THAT(read(dir.path() / "before/summary.md"), Not(HasSubstr("machine's limits")));

  const auto measured = run_kexp("machine", dir.path(), env);
  ASSERT_EQ(measured.exit_code, 0) << measured.err;
  EXPECT_THAT(measured.out, HasSubstr("DGEMM, n = 2048"));
  EXPECT_THAT(measured.out, HasSubstr("measured 20"));
  const auto kept = nlohmann::json::parse(read(dir.path() / "limits.json"));
  ASSERT_EQ(kept["machines"].size(), 1U);
  const nlohmann::json limits = kept["machines"][0];
  EXPECT_GT(limits["all_threads"]["dgemm_flops_per_second"].get<double>(), 0);

  // Kept: asked again, it prints what it kept and measures nothing.
  const auto again = run_kexp("machine --json", dir.path(), env);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["measured"], limits["measured"]);

  const auto after = run_kexp("run m.yaml --quiet --out after", dir.path(), env);
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_THAT(after.err, Not(HasSubstr("kexp machine")));
  const auto manifest = nlohmann::json::parse(read(dir.path() / "after/manifest.json"));
  EXPECT_EQ(manifest["environment"]["machine"]["measured"], limits["measured"]);
  const std::string summary = read(dir.path() / "after/summary.md");
  EXPECT_THAT(summary, HasSubstr("## Against this machine's limits"));
  EXPECT_THAT(summary, HasSubstr("| cell | solver | form | n | d | Gram G entries/s | of bound |"));

  // The report rebuilds the same summary from the folder alone.
  std::filesystem::remove(dir.path() / "limits.json");
  const auto report = run_kexp("report after", dir.path(), env);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(read(dir.path() / "after/summary.md"), summary);
}

}  // namespace
}  // namespace kexp::test
