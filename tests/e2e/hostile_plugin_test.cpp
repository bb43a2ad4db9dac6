// Through the kexp program: what a broken plugin does costs its cell or its plugin, never
// the run. A solver's constructor that crashes, exits or spins is an error naming the
// plugin and the call, before anything runs, with or without --dry-run; one that spins,
// stops itself or leaves a process behind in fit() is killed at the cell's time limit
// (status timeout) and the sweep goes on; stray bytes on the inherited descriptors reach
// neither the result channel nor results.csv; --resume refuses a folder whose plugin was
// rebuilt or whose manifest is gone, and merge refuses shards of two builds.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

#if defined(__SANITIZE_ADDRESS__)
#define SKIP_WITHOUT_ISOLATION() \
  GTEST_SKIP() << "groups are not isolated in an AddressSanitizer build"
#else
#define SKIP_WITHOUT_ISOLATION() static_cast<void>(0)
#endif

std::string forms() {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / "forms").string());
}

/// A Gaussian kernel with kernel ridge beside the hostile solver.
std::string experiment(const std::string& hostile) {
  return fmt::format(R"(experiment: hostile
seed: 3
dataset: {{plugin: cubic, n: 40, d: 2}}
kernels: [{{plugin: gaussian, sigma: 1}}]
solvers:
  - {{plugin: kernel_ridge, lambda: [0.01, 0.1]}}
  - {{plugin: fixture_hostile, {}}}
)",
                     hostile);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(HostilePlugin, AConstructorThatCrashesExitsOrSpinsIsNamedBeforeAnythingRuns) {
  SKIP_WITHOUT_ISOLATION();
  struct Case {
    const char* construct;
    const char* said;
  };
  for (const Case c :
       {Case{"segfault", "was killed by SIGSEGV (signal 11)"}, Case{"exit0", "exited with code 0"},
        Case{"spin", "spent more than 2 s in one plugin call"}}) {
    for (const char* dry : {"", " --dry-run"}) {
      SCOPED_TRACE(std::string(c.construct) + dry);
      const TempDir dir;
      dir.write("x.yaml", experiment(fmt::format("construct: {}", c.construct)));
      const auto start = std::chrono::steady_clock::now();
      const auto r = run_kexp(fmt::format("run x.yaml --out out {}{}", forms(), dry), dir.path(),
                              "KEXP_PLUGIN_CALL_SECONDS=2");
      EXPECT_LT(seconds_since(start), 30.0);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, AllOf(HasSubstr(c.said), HasSubstr("solver plugin 'fixture_hostile'"),
                               HasSubstr("creating an object"), HasSubstr("solvers[1]")));
      EXPECT_FALSE(fs::exists(dir.path() / "out"));
    }
  }
}

TEST(HostilePlugin, AConstructorThatThrowsIsStillAnErrorAtItsEntry) {
  const TempDir dir;
  dir.write("x.yaml", experiment("construct: throw"));
  const auto r = run_kexp("run x.yaml --out out " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("x.yaml:7:5: solver plugin 'fixture_hostile'"),
                           HasSubstr("fixture_hostile refuses to be made")));
}

TEST(HostilePlugin, CheckKernelAndDescribeNameACrashingConstructor) {
  SKIP_WITHOUT_ISOLATION();
  const TempDir dir;
  dir.write("x.yaml", experiment("construct: segfault"));
  const auto r = run_kexp("check-kernel --config x.yaml " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("SIGSEGV"), HasSubstr("fixture_hostile")));
}

TEST(HostilePlugin, CellsThatHangOrCrashFailAloneAndTheSweepFinishesEveryOtherCell) {
  SKIP_WITHOUT_ISOLATION();
  const TempDir dir;
  dir.write("x.yaml", R"(experiment: hostile
seed: 3
dataset: {plugin: cubic, n: 40, d: 2}
kernels:
  - {plugin: gaussian, sigma: 1}
  - {plugin: fixture_crashing_kernel, crash: [none, segfault]}
solvers:
  - {plugin: kernel_ridge, lambda: 0.1}
  - {plugin: fixture_hostile, fit: [none, spin, sigstop, grandchild]}
)");
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_kexp("run x.yaml --out out --max-cell-time 3s " + forms(), dir.path());
  EXPECT_LT(seconds_since(start), 60.0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 15U) << r.err;  // 3 kernel variants × 5 solver variants
  int ok = 0, timeout = 0, failed = 0;
  for (const auto& row : rows) {
    const std::string& status = row.at("status");
    const bool crashing = row.at("kernel.crash") == "segfault";
    const std::string fit = row.count("solver.fit") ? row.at("solver.fit") : "";
    if (crashing) {
      EXPECT_EQ(status, "failed") << row.at("error");
      ++failed;
    } else if (fit == "spin" || fit == "sigstop") {
      EXPECT_EQ(status, "timeout") << row.at("error");
      EXPECT_THAT(row.at("error"),
                  AllOf(HasSubstr("past its time limit of 3 s"), HasSubstr("--max-cell-time"),
                        HasSubstr("solver 'fixture_hostile'")));
      ++timeout;
    } else {
      EXPECT_EQ(status, "ok") << fit << ": " << row.at("error");
      ++ok;
    }
  }
  EXPECT_EQ(ok, 6);
  EXPECT_EQ(timeout, 4);
  EXPECT_EQ(failed, 5);
  EXPECT_THAT(r.out, HasSubstr("4 timed out"));
}

TEST(HostilePlugin, ARunKeepsTimedOutRunsOnResumeUnlessAskedToRetryThem) {
  SKIP_WITHOUT_ISOLATION();
  const TempDir dir;
  dir.write("x.yaml", experiment("fit: [none, spin]"));
  const auto first = run_kexp("run x.yaml --out out --max-cell-time 4s " + forms(), dir.path());
  ASSERT_EQ(first.exit_code, 1) << first.err;
  const auto again = run_kexp("run x.yaml --resume out --max-cell-time 4s " + forms(), dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("1 row timed out: kept"));
  EXPECT_EQ(result_rows(dir.path() / "out").size(), 4U);
  const auto retry = run_kexp(
      "run x.yaml --resume out --retry-timeouts --max-cell-time 4s " + forms(), dir.path());
  EXPECT_EQ(retry.exit_code, 1) << retry.err;
  EXPECT_THAT(retry.err, HasSubstr("timed out"));
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows.back().at("status"), "timeout");
}

TEST(HostilePlugin, StrayWritesReachNeitherTheResultsNorTheChannel) {
  SKIP_WITHOUT_ISOLATION();
  const TempDir dir;
  dir.write("x.yaml", experiment("fit: stray"));
  const auto r = run_kexp("run x.yaml --out out " + forms(), dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 3U) << r.err;
  for (const auto& row : rows) EXPECT_EQ(row.at("status"), "ok") << row.at("error");
  EXPECT_THAT(r.err, HasSubstr("bytes to kexp's result channel that were not kexp's messages"));
  // Nothing of what the plugin wrote is in the results, anywhere.
  for (const char* file : {"results.csv", "results.jsonl", "manifest.json"}) {
    std::ifstream in(dir.path() / "out" / file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_THAT(text, AllOf(HasSubstr("cell"), Not(HasSubstr("stray bytes!")))) << file;
  }
  const auto resumed = run_kexp("run x.yaml --resume out " + forms(), dir.path());
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
}

/// A copy of the forms folder with the hostile solver's library replaced by `library`.
fs::path plugin_folder(const TempDir& dir, const std::string& name, const fs::path& library) {
  const fs::path folder = dir.path() / name;
  fs::create_directories(folder);
  fs::copy_file(library, folder / library.filename(), fs::copy_options::overwrite_existing);
  return folder;
}

TEST(HostilePlugin, AResumedOrMergedFolderMustComeFromTheSameBuildOfEachPlugin) {
  const TempDir dir;
  const fs::path original = fixture_dir() / "forms" / "libkexp_fixture_hostile.so";
  const fs::path a = plugin_folder(dir, "a", original);
  // Another build of the same plugin, same name and version: one byte more at its end.
  const fs::path b = plugin_folder(dir, "b", original);
  {
    std::ofstream out(b / original.filename(), std::ios::app | std::ios::binary);
    out << '\n';
  }
  dir.write("x.yaml", experiment("fit: none"));
  const auto first = run_kexp(
      fmt::format("run x.yaml --out out --plugin-path '{}' --shard 0/2", a.string()), dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto other = run_kexp(
      fmt::format("run x.yaml --out out2 --plugin-path '{}' --shard 1/2", b.string()), dir.path());
  ASSERT_EQ(other.exit_code, 0) << other.err;

  const auto merged = run_kexp("merge out out2 --out all", dir.path());
  EXPECT_EQ(merged.exit_code, 2) << merged.err;
  EXPECT_THAT(merged.err,
              AllOf(HasSubstr("different plugin builds"), HasSubstr("fixture_hostile")));
  const auto merged_anyway =
      run_kexp("merge out out2 --out all --accept-rebuilt-plugins", dir.path());
  EXPECT_EQ(merged_anyway.exit_code, 0) << merged_anyway.err;
  EXPECT_THAT(merged_anyway.err, HasSubstr("merged as asked"));

  const auto resumed =
      run_kexp(fmt::format("run x.yaml --resume out --plugin-path '{}' --shard 0/2", b.string()),
               dir.path());
  EXPECT_EQ(resumed.exit_code, 2) << resumed.err;
  EXPECT_THAT(resumed.err, AllOf(HasSubstr("solver plugin 'fixture_hostile' is another build"),
                                 HasSubstr("the same version 0.0.1"), HasSubstr("sha256")));
  const auto accepted =
      run_kexp(fmt::format("run x.yaml --resume out --plugin-path '{}' --shard 0/2 "
                           "--accept-rebuilt-plugins",
                           b.string()),
               dir.path());
  EXPECT_EQ(accepted.exit_code, 0) << accepted.err;

  // Without its manifest, or the manifest's record of its inputs, a folder cannot be
  // checked: refused.
  fs::remove(dir.path() / "out2" / "manifest.json");
  const auto unchecked =
      run_kexp(fmt::format("run x.yaml --resume out2 --plugin-path '{}' --shard 1/2", b.string()),
               dir.path());
  EXPECT_EQ(unchecked.exit_code, 2) << unchecked.err;
  EXPECT_THAT(unchecked.err, HasSubstr("manifest.json is missing or unreadable"));
}

}  // namespace
}  // namespace kexp::test
