// The kexp program on sweeps: result folders, failures, resume, memory budget, shards,
// merge, report, reproducibility, and bad input (exit 2, nothing written).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "reporting/manifest.hpp"
#include "reporting/result_folder.hpp"
#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string forms() {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / "forms").string());
}

std::string read(const fs::path& file) {
  std::stringstream s;
  s << std::ifstream(file).rdbuf();
  return s.str();
}

/// Primal and dual ridge on the linear kernel, and a Gaussian, over n and λ.
const char* const kPrimalDual = R"(experiment: pd
seed: 11
repeats: 2
dataset:
  plugin: cubic
  n: [60, 120, 240]
  d: 2
kernels:
  - plugin: linear
  - plugin: gaussian
    sigma: 1
solvers:
  - plugin: primal_ridge
    lambda: [0.001, 0.1]
  - plugin: kernel_ridge
    lambda: [0.001, 0.1]
)";

/// Half of the cells fail on demand.
const char* const kFlaky = R"(experiment: flaky
seed: 5
repeats: 2
dataset:
  plugin: cubic
  n: 40
kernels:
  - plugin: gaussian
    sigma: [0.5, 1]
solvers:
  - plugin: fixture_flaky
    fail: [false, true]
  - plugin: kernel_ridge
)";

/// The rows of results.csv as (cell, repeat) → status.
std::map<core::RunKey, std::string> statuses(const fs::path& folder) {
  const core::CsvTable t = core::ResultFolder(folder).read_results();
  std::map<core::RunKey, std::string> out;
  const auto status = t.column("status");
  for (const auto& row : t.rows) {
    EXPECT_TRUE(out.emplace(core::run_key(t, row), row[*status]).second) << "duplicate row";
  }
  return out;
}

/// results.csv without the columns that measure time or memory of this very run.
std::string without_timing(const fs::path& file) {
  core::CsvTable t = core::read_csv(file);
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    const std::string& c = t.columns[i];
    // every time, its range and count and its notes, and the memory vary from run to run
    if (c.find("seconds") == std::string::npos && c.find("measurements") == std::string::npos &&
        c != "timing_notes" && c != "peak_rss_bytes") {
      keep.push_back(i);
    }
  }
  std::string out;
  for (const auto& row : t.rows) {
    for (std::size_t i : keep) out += row[i] + ",";
    out += "\n";
  }
  return out;
}

TEST(Sweep, WritesTheResultFolderWithSummaryManifestAndPlots) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  const auto r = run_kexp("run pd.yaml --out out " + forms(), dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path out = dir.path() / "out";
  for (const char* f :
       {"config.yaml", "manifest.json", "results.csv", "results.jsonl", "summary.md"}) {
    EXPECT_TRUE(fs::exists(out / f)) << f;
  }
  // 3 n × (linear × 4 solvers + gaussian × 2 dual solvers) × 2 repeats
  EXPECT_EQ(statuses(out).size(), 36U);
  EXPECT_THAT(r.err, HasSubstr("kernels[1] (gaussian): cells whose kernel has no feature map"));

  const std::string summary = read(out / "summary.md");
  EXPECT_THAT(summary, HasSubstr("## Primal against dual"));
  EXPECT_THAT(summary, HasSubstr("| primal_ridge "));
  EXPECT_THAT(summary, HasSubstr("## Growth with n"));
  EXPECT_THAT(summary, HasSubstr("## Best cell per solver"));
  EXPECT_THAT(summary, HasSubstr("![plots/"));
  // Primal and dual ridge on an exact map agree: every pair's max |Δŷ| is tiny.
  const core::CsvTable t = core::ResultFolder(out).read_results();
  const auto diff = t.column("prediction_max_diff");
  int pairs = 0;
  for (const auto& row : t.rows) {
    if (row[*diff].empty()) continue;
    ++pairs;
    EXPECT_LT(std::stod(row[*diff]), 1e-8);
  }
  EXPECT_EQ(pairs, 12);  // 3 n × 2 λ × 2 repeats

  const auto m = nlohmann::json::parse(read(out / "manifest.json"));
  EXPECT_EQ(m["experiment"], "pd");
  EXPECT_TRUE(m.contains("git_commit"));
  EXPECT_TRUE(m["git_dirty"].is_boolean());
  EXPECT_FALSE(m["compiler"].get<std::string>().empty());
  EXPECT_EQ(m["environment"]["blas"]["library"], "OpenBLAS");
  EXPECT_TRUE(m["environment"].contains("cpu"));
  EXPECT_EQ(m["seeds"]["root"], 11);
  EXPECT_THAT(m["command_line"].get<std::string>(), HasSubstr("run pd.yaml --out out"));
  EXPECT_FALSE(m["finished"].is_null());
  EXPECT_EQ(m["runs"]["ok"], 36);
  ASSERT_EQ(m["plugins"].size(), 5U);
  for (const auto& p : m["plugins"]) {
    EXPECT_EQ(p["sha256"], core::sha256_file(p["path"].get<std::string>())) << p["name"];
  }
  EXPECT_TRUE(fs::exists(out / "plots"));
  std::size_t svgs = 0;
  for (const auto& e : fs::directory_iterator(out / "plots"))
    svgs += e.path().extension() == ".svg";
  // The findings' plots: cost against n of the linear kernel's primal-dual pair, error
  // against n; the Gaussian kernel's cost (the dual form alone) is a detail.
  EXPECT_EQ(svgs, 2U);
  EXPECT_TRUE(fs::exists(out / "plots" / "cost_vs_n_linear.svg"));
  EXPECT_THAT(summary, HasSubstr("1 more (the cost of one form alone"));
}

TEST(Sweep, TheSameConfigTwiceGivesTheSameResultsApartFromTiming) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  ASSERT_EQ(run_kexp("run pd.yaml --out a " + forms(), dir.path()).exit_code, 0);
  ASSERT_EQ(run_kexp("run pd.yaml --out b " + forms(), dir.path()).exit_code, 0);
  const std::string a = without_timing(dir.path() / "a" / "results.csv");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, without_timing(dir.path() / "b" / "results.csv"));
}

TEST(Sweep, TheResolvedConfigRunsTheSameCells) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  ASSERT_EQ(run_kexp("run pd.yaml --out a " + forms(), dir.path()).exit_code, 0);
  // No --plugin-path: the resolved config names the folders the plugins came from.
  const auto r = run_kexp("run a/config.yaml --out b", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(without_timing(dir.path() / "a" / "results.csv"),
            without_timing(dir.path() / "b" / "results.csv"));
}

TEST(Sweep, AFailingCellIsRecordedAndTheSweepGoesOn) {
  const TempDir dir;
  dir.write("flaky.yaml", kFlaky);
  const auto r = run_kexp("run flaky.yaml --out out " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("failed: solver 'fixture_flaky' failed while fitting: "
                               "fixture_flaky was asked to fail"));
  const auto s = statuses(dir.path() / "out");
  ASSERT_EQ(s.size(), 12U);  // 2 σ × 3 solvers × 2 repeats
  int failed = 0;
  for (const auto& [key, status] : s) failed += status == "failed";
  EXPECT_EQ(failed, 4);
  const std::string csv = read(dir.path() / "out" / "results.csv");
  EXPECT_THAT(csv, HasSubstr("fixture_flaky was asked to fail"));
  EXPECT_THAT(read(dir.path() / "out" / "summary.md"),
              AllOf(HasSubstr("## Failures"), HasSubstr("fixture_flaky was asked to fail")));
}

TEST(Sweep, AHundredThousandBadValuesAreCountedAndAValueSweptTwiceIsRefused) {
  // Gathering errors was quadratic: 10⁵ bad values took minutes, 10⁶ never ended.
  const TempDir dir;
  dir.write("bad.yaml", R"(experiment: bad
dataset: {plugin: friedman1, n: 100, d: 5}
kernels:
  - {plugin: gaussian, sigma: {linspace: [-2, -1, 100000]}}
solvers:
  - {plugin: kernel_ridge}
)");
  const auto bad = run_kexp("run bad.yaml --dry-run", dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, AllOf(HasSubstr("100000 errors in the experiment"),
                             HasSubstr("bad.yaml:4:42: kernels[0].sigma must be > 0, got -2"),
                             HasSubstr("… and 99980 more")));
  // Three rows with one cell id, and a resume that kept one of them, before.
  dir.write("dup.yaml", R"(experiment: dup
dataset: {plugin: friedman1, n: 100, d: 5}
kernels:
  - {plugin: gaussian, sigma: [1, 2,
                               1.0]}
solvers:
  - {plugin: kernel_ridge}
)");
  const auto dup = run_kexp("run dup.yaml --out out", dir.path());
  EXPECT_EQ(dup.exit_code, 2);
  EXPECT_THAT(dup.err, HasSubstr("dup.yaml:5:32: kernels[0].sigma: the value 1 ('1.0') is swept "
                                 "twice, as value 1 and value 3 on line 4"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(Sweep, FailFastStopsAtTheFirstFailure) {
  const TempDir dir;
  dir.write("flaky.yaml", kFlaky);
  const auto r = run_kexp("run flaky.yaml --out out --fail-fast " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 1);
  const auto s = statuses(dir.path() / "out");
  EXPECT_EQ(s.size(), 2U);  // the ok cell, then the failing one
  EXPECT_THAT(read(dir.path() / "out" / "summary.md"), HasSubstr("--fail-fast"));
  const auto m = nlohmann::json::parse(read(dir.path() / "out" / "manifest.json"));
  EXPECT_EQ(m["runs"]["not_started"], 10);
}

TEST(Sweep, ResumeSkipsFinishedRunsAndRerunsTheRest) {
  const TempDir dir;
  dir.write("flaky.yaml", kFlaky);
  ASSERT_EQ(run_kexp("run flaky.yaml --out out --fail-fast " + forms(), dir.path()).exit_code, 1);
  // Simulate a kill mid-write: a partial last line.
  std::ofstream(dir.path() / "out" / "results.csv", std::ios::app) << "abc,0,o";
  const auto r = run_kexp("run flaky.yaml --resume out " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 1);  // the cells told to fail fail again
  EXPECT_THAT(r.out, HasSubstr("1 kept from before"));
  const auto s = statuses(dir.path() / "out");
  EXPECT_EQ(s.size(), 12U);
  // Resume again with the failing cells now not failing: only they run.
  const auto again = run_kexp(
      "run flaky.yaml --resume out --set solvers[0].fail=false,true " + forms(), dir.path());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.out, HasSubstr("4 runs: 0 ok, 4 failed, 8 kept from before"));
}

TEST(Sweep, ResumeRefusesAFolderOfADifferentConfigNamingTheDifference) {
  const TempDir dir;
  dir.write("flaky.yaml", kFlaky);
  ASSERT_EQ(run_kexp("run flaky.yaml --out out " + forms(), dir.path()).exit_code, 1);
  const std::string before = read(dir.path() / "out" / "results.csv");
  const auto r =
      run_kexp("run flaky.yaml --resume out --set kernels[0].sigma=0.5,2 " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("holds a different experiment: kernels[0].sigma is [0.5, 1] there "
                               "and [0.5, 2] here"));
  EXPECT_EQ(read(dir.path() / "out" / "results.csv"), before);
}

TEST(Sweep, ACellOverTheMemoryBudgetIsRefusedWithItsEstimate) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  const auto dry = run_kexp("run pd.yaml --dry-run --max-memory 40kB " + forms(), dir.path());
  EXPECT_EQ(dry.exit_code, 0);
  EXPECT_THAT(dry.out, AllOf(HasSubstr("18 cells × 2 repeats: 36 runs to do"),
                             HasSubstr("OVER BUDGET"), HasSubstr("would be refused")));
  EXPECT_FALSE(fs::exists(dir.path() / "results"));
  const auto r = run_kexp("run pd.yaml --out out --max-memory 40kB " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("refused before it started: it needs about"),
                           HasSubstr("the n × n Gram matrix"), HasSubstr("budget of 40 kB")));
  const auto s = statuses(dir.path() / "out");
  std::set<std::string> seen;
  for (const auto& [key, status] : s) seen.insert(status);
  EXPECT_EQ(seen, (std::set<std::string>{"ok", "refused"}));  // the small primal cells run
}

/// A λ sweep of exact kernel ridge: the first cell must leave K intact, the last may
/// factor it in place. Fits are measured up to three times.
const char* const kInPlace = R"(experiment: in-place
seed: 3
dataset: {plugin: cubic, n: 400, d: 2}
kernels: [{plugin: gaussian}]
solvers: [{plugin: kernel_ridge, lambda: [0.001, 0.1]}]
timing: {min_seconds: 30, max_measurements: 3}
)";

TEST(Sweep, TheLastCellToReadKIsBudgetedWithoutACopyAndMeasuredOnceWithoutRoom) {
  const TempDir dir;
  dir.write("k.yaml", kInPlace);
  const auto all = run_kexp("run k.yaml --out all --quiet", dir.path());
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const core::CsvTable t = core::read_csv(dir.path() / "all" / "results.csv");
  ASSERT_EQ(t.rows.size(), 2U);
  const double n = std::stod(t.rows[1][column(t, "n_train")]);
  const double m = std::stod(t.rows[1][column(t, "n_test")]);
  EXPECT_EQ(t.rows[1][column(t, "fit_measurements")], "3");
  // by hand: K, the cross block, k(x*, x*) and the points; the first cell a copy of K more
  const double in_place = 8 * (n * n + n * m + m) + 8 * 2 * (n + m);
  // room for K once, not twice: the first cell is refused, the last runs and its fit,
  // which overwrites K, is measured once rather than on a second K
  const double budget = in_place + 4 * n * n;
  const auto tight = run_kexp(
      fmt::format("run k.yaml --out tight --quiet --max-memory {:.0f}", budget), dir.path());
  EXPECT_EQ(tight.exit_code, 1);
  EXPECT_THAT(tight.err, HasSubstr("the n × n Gram matrix and a working copy"));
  // the dry run says the same: the first cell over the budget, the last within it
  const auto dry = run_kexp(
      fmt::format("run k.yaml --out dry --dry-run --max-memory {:.0f}", budget), dir.path());
  EXPECT_THAT(dry.out, HasSubstr("1 cells are over the memory budget"));
  const core::CsvTable u = core::read_csv(dir.path() / "tight" / "results.csv");
  ASSERT_EQ(u.rows.size(), 2U);
  EXPECT_EQ(u.rows[0][column(u, "status")], "refused");
  EXPECT_EQ(u.rows[1][column(u, "status")], "ok");
  EXPECT_EQ(u.rows[1][column(u, "fit_measurements")], "1");
  EXPECT_EQ(u.rows[1][column(u, "test_rmse")], t.rows[1][column(t, "test_rmse")]);
  // resumed, the refused cell is the only one of its group left to run: the last to read
  // K, it factors K in place and fits; the dry run of the resume budgets it there too
  const std::string resume = fmt::format("run k.yaml --resume tight --max-memory {:.0f}", budget);
  const auto dry_resume = run_kexp(resume + " --dry-run", dir.path());
  EXPECT_EQ(dry_resume.exit_code, 0) << dry_resume.err;
  EXPECT_THAT(dry_resume.out, Not(HasSubstr("over the memory budget")));
  EXPECT_THAT(dry_resume.out, HasSubstr("1 of 1 repeats done"));
  const auto resumed = run_kexp(resume + " --quiet", dir.path());
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  const core::CsvTable v = core::read_csv(dir.path() / "tight" / "results.csv");
  ASSERT_EQ(v.rows.size(), 2U);
  for (const auto& row : v.rows) EXPECT_EQ(row[column(v, "status")], "ok");
  // one byte short of K once: both refused
  const auto none = run_kexp(
      fmt::format("run k.yaml --out none --quiet --max-memory {:.0f}", in_place - 1), dir.path());
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("the n × n Gram matrix (factored in place)"));
}

TEST(Sweep, ShardsMergeIntoTheWholeSweep) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  ASSERT_EQ(run_kexp("run pd.yaml --out whole " + forms(), dir.path()).exit_code, 0);
  ASSERT_EQ(run_kexp("run pd.yaml --shard 0/2 " + forms(), dir.path()).exit_code, 0);
  // The second shard from a Slurm array's environment.
  const auto slurm = run_kexp("run pd.yaml " + forms(), dir.path(),
                              "SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2");
  ASSERT_EQ(slurm.exit_code, 0) << slurm.err;
  EXPECT_THAT(slurm.err, HasSubstr("running shard 1/2"));
  const fs::path s0 = dir.path() / "results" / "pd-shard-0-of-2";
  const fs::path s1 = dir.path() / "results" / "pd-shard-1-of-2";
  const auto a = statuses(s0), b = statuses(s1);
  EXPECT_GT(a.size(), 0U);
  EXPECT_GT(b.size(), 0U);
  EXPECT_EQ(a.size() + b.size(), 36U);

  const auto partial = run_kexp(fmt::format("merge '{}' --out part", s0.string()), dir.path());
  EXPECT_EQ(partial.exit_code, 1);
  EXPECT_THAT(partial.err, HasSubstr("shard 1/2 is missing"));

  const auto m =
      run_kexp(fmt::format("merge '{}' '{}' --out merged", s0.string(), s1.string()), dir.path());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(statuses(dir.path() / "merged"), statuses(dir.path() / "whole"));
  EXPECT_THAT(read(dir.path() / "merged" / "summary.md"),
              AllOf(HasSubstr("Merged from 2 folders"), HasSubstr("## Primal against dual")));
  std::size_t lines = 0;
  std::ifstream jsonl(dir.path() / "merged" / "results.jsonl");
  for (std::string line; std::getline(jsonl, line);) ++lines;
  EXPECT_EQ(lines, 36U);

  // Folders of different experiments do not merge.
  dir.write(
      "other.yaml",
      std::string(kPrimalDual).replace(std::string(kPrimalDual).find("seed: 11"), 8, "seed: 12"));
  ASSERT_EQ(run_kexp("run other.yaml --out other " + forms(), dir.path()).exit_code, 0);
  const auto bad = run_kexp("merge whole other --out nope", dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("seed is 11 there and 12 here"));
  EXPECT_FALSE(fs::exists(dir.path() / "nope"));
}

TEST(Sweep, ReportRebuildsTheSummaryAndPlots) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  ASSERT_EQ(run_kexp("run pd.yaml --out out " + forms(), dir.path()).exit_code, 0);
  const std::string summary = read(dir.path() / "out" / "summary.md");
  fs::remove(dir.path() / "out" / "summary.md");
  fs::remove_all(dir.path() / "out" / "plots");
  const auto r = run_kexp("report out", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "plots"));
  // The same tables, less the notes the run itself added.
  EXPECT_THAT(read(dir.path() / "out" / "summary.md"),
              HasSubstr(summary.substr(summary.find("## Cells"))));
}

TEST(Sweep, WithoutGnuplotItSaysSoOnceAndWritesTheTables) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  const auto r =
      run_kexp("run pd.yaml --out out " + forms(), dir.path(), "KEXP_GNUPLOT=/nonexistent/gnuplot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string needle = "was not found, so no plots were drawn";
  const auto first = r.err.find(needle);
  EXPECT_NE(first, std::string::npos);
  EXPECT_EQ(r.err.find(needle, first + 1), std::string::npos);
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "plots"));
  EXPECT_THAT(read(dir.path() / "out" / "summary.md"),
              AllOf(HasSubstr(needle), HasSubstr("## Primal against dual")));
}

TEST(Sweep, AnExistingResultFolderIsNeverSilentlyReplaced) {
  const TempDir dir;
  dir.write("flaky.yaml", kFlaky);
  ASSERT_EQ(run_kexp("run flaky.yaml --out out " + forms(), dir.path()).exit_code, 1);
  const auto again = run_kexp("run flaky.yaml --out out " + forms(), dir.path());
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_THAT(again.err,
              AllOf(HasSubstr("already exists"), HasSubstr("--force"), HasSubstr("--resume")));
  EXPECT_EQ(run_kexp("run flaky.yaml --out out --force " + forms(), dir.path()).exit_code, 1);
  // --force replaces result folders only.
  dir.write("mine/notes.txt", "precious");
  const auto other = run_kexp("run flaky.yaml --out mine --force " + forms(), dir.path());
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.err, HasSubstr("not a kexp result folder"));
  EXPECT_EQ(read(dir.path() / "mine" / "notes.txt"), "precious");
}

TEST(Sweep, DryRunListsCellsAndWritesNothing) {
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  const auto r = run_kexp("run pd.yaml --dry-run --set dataset.n=50,100 " + forms(), dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("12 cells × 2 repeats: 24 runs to do"),
                           HasSubstr("| primal_ridge()\n"), HasSubstr("primal_ridge(lambda=0.1)"),
                           HasSubstr("kB"), HasSubstr("left out: solvers[0]")));
  EXPECT_TRUE(fs::is_empty(dir.path()) || !fs::exists(dir.path() / "results"));
}

TEST(Sweep, AReportRebuildKeepsTheNotesTheRunWrote) {
  // kPrimalDual pairs primal_ridge with the Gaussian kernel, which has no map: the run's
  // summary says that combination was left out, and a rebuild must say it too.
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  ASSERT_EQ(
      run_kexp("run pd.yaml --out out --quiet --set dataset.n=50 " + forms(), dir.path()).exit_code,
      0);
  const std::string written = read(dir.path() / "out" / "summary.md");
  ASSERT_THAT(written, HasSubstr("Left out: solvers[0]"));
  fs::remove(dir.path() / "out" / "summary.md");
  ASSERT_EQ(run_kexp("report out", dir.path()).exit_code, 0);
  EXPECT_EQ(read(dir.path() / "out" / "summary.md"), written);
}

TEST(Sweep, ACostStudyRunsOnOneThreadForGramAndBlasAndSaysSo) {
  // n swept over three values with primal and dual cells: a cost study. With no threads
  // asked for and OpenBLAS's own setting unset, both run on one thread.
  const TempDir dir;
  dir.write("pd.yaml", kPrimalDual);
  const auto r = run_kexp("run pd.yaml --out out --quiet " + forms(), dir.path(),
                          "env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS -u GOTO_NUM_THREADS");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("a cost study"));
  const auto manifest = nlohmann::json::parse(read(dir.path() / "out" / "manifest.json"));
  EXPECT_EQ(manifest["environment"]["gram_threads"], 1);
  EXPECT_EQ(manifest["environment"]["blas"]["threads"], 1);
  // What the user asks for wins, and is not called a cost study's choice.
  const auto two = run_kexp("run pd.yaml --out two --quiet --threads 2 " + forms(), dir.path(),
                            "env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS -u GOTO_NUM_THREADS");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_THAT(two.err, Not(HasSubstr("a cost study")));
  const auto m2 = nlohmann::json::parse(read(dir.path() / "two" / "manifest.json"));
  EXPECT_EQ(m2["environment"]["gram_threads"], 2);
  EXPECT_EQ(m2["environment"]["blas"]["threads"], 2);
  // The user's OPENBLAS_NUM_THREADS holds BLAS and leaves kexp's own threads, as the
  // pthreads build of OpenBLAS reads it, also where kexp runs on the OpenMP build (which
  // reads OMP_NUM_THREADS only, so kexp hands the setting on).
  const auto own = run_kexp("run pd.yaml --out own --quiet --threads 2 " + forms(), dir.path(),
                            "env -u OMP_NUM_THREADS -u GOTO_NUM_THREADS OPENBLAS_NUM_THREADS=1");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  const auto m3 = nlohmann::json::parse(read(dir.path() / "own" / "manifest.json"));
  EXPECT_EQ(m3["environment"]["gram_threads"], 2);
  EXPECT_EQ(m3["environment"]["blas"]["threads"], 1);
}

struct BadInput {
  const char* name;
  std::string config;
  std::string args;
  std::string message;
};

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsTwoAndWritesNothing) {
  const BadInput& b = GetParam();
  const TempDir dir;
  dir.write("bad.yaml", b.config);
  dir.write("a-file", "");
  const auto r = run_kexp("run bad.yaml --out out " + b.args + " " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(b.message));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  EXPECT_FALSE(fs::exists(dir.path() / "results"));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

INSTANTIATE_TEST_SUITE_P(
    Sweep, BadInputTest,
    ::testing::Values(
        BadInput{"YamlSyntax", replaced(kFlaky, "n: 40", "n: [40"), "", "bad.yaml:7:"},
        BadInput{"UnknownTopLevelKey", std::string(kFlaky) + "sead: 3\n", "",
                 "bad.yaml:14:1: unknown top-level key 'sead'"},
        BadInput{"EmptySweep", replaced(kFlaky, "[0.5, 1]", "[]"), "",
                 "bad.yaml:9:12: kernels[0].sigma is an empty list"},
        BadInput{"GeneratorWithoutValues", replaced(kFlaky, "[0.5, 1]", "{linspace: [0.5, 1, 0]}"),
                 "", "must be ≥ 1, got 0"},
        BadInput{"OverrideNamingNoKey", kFlaky, "--set kernels[0].sigmaa=2",
                 "--set kernels[0].sigmaa=2: kernels[0].sigmaa: kernel plugin 'gaussian' has no "
                 "parameter 'sigmaa'"},
        BadInput{"OverrideNamingNoElement", kFlaky, "--set solvers[5].lambda=2", "no element [5]"},
        BadInput{"UnknownParameter", replaced(kFlaky, "sigma:", "sigm:"), "",
                 "bad.yaml:9:11: kernels[0].sigm: kernel plugin 'gaussian' has no parameter "
                 "'sigm'; did you mean 'sigma'?"},
        BadInput{"WrongType", replaced(kFlaky, "n: 40", "n: forty"), "",
                 "bad.yaml:6:6: dataset.n must be an integer, got 'forty'"},
        BadInput{"OutOfRange", replaced(kFlaky, "[0.5, 1]", "[0.5, -1]"), "",
                 "bad.yaml:9:18: kernels[0].sigma must be > 0, got -1"},
        BadInput{"NameOutsideTheOutputFolder",
                 replaced(kFlaky, "experiment: flaky", "experiment: ../up"), "",
                 "bad.yaml:1:13: experiment name '../up' must be a plain folder name"},
        BadInput{"BadShard", kFlaky, "--shard 2/2", "--shard '2/2' must be I/N"},
        BadInput{"ResumeOfNoResultFolder", kFlaky, "--resume out", "is not a kexp result folder"}),
    [](const ::testing::TestParamInfo<BadInput>& param_info) {
      return std::string(param_info.param.name);
    });

TEST(Sweep, AValueInErrorIsReportedOnceNotAgainWhenItsSolverIsMade) {
  const TempDir dir;
  dir.write("x.yaml", R"(experiment: t
dataset: {plugin: cubic, n: 40, d: 2}
kernels: [{plugin: gaussian, sigma: 1}]
solvers:
  - plugin: kernel_ridge
    lambda: ~
  - plugin: kernel_ridge
    device: []
)");
  const auto r = run_kexp("run x.yaml --dry-run", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("2 errors in the experiment"),
                           HasSubstr("x.yaml:6:13: solvers[0].lambda has no value"),
                           HasSubstr("x.yaml:8:13: solvers[1].device is an empty list"),
                           Not(HasSubstr("not in this plugin's schema"))));
}

TEST(Sweep, AnOutputFolderThatCannotBeWrittenIsAnError) {
  const TempDir dir;
  dir.write("flaky.yaml", kFlaky);
  dir.write("a-file", "");
  const auto r = run_kexp("run flaky.yaml --out a-file/out " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot create the result folder a-file/out"));
  const auto f = run_kexp("run flaky.yaml --out a-file " + forms(), dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_THAT(f.err, HasSubstr("a file of that name exists"));
}

}  // namespace
}  // namespace kexp::test
