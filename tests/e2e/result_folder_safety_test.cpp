// The result folder under accidents and misuse: --force on folders kexp did not make,
// a second writer, a full disk, SIGINT and SIGTERM, and --resume of a folder left
// inconsistent. Every case ends with a folder whose rows are whole and consistent.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reporting/result_folder.hpp"
#include "support/plugins.hpp"
#include "support/test_paths.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string read(const fs::path& file) {
  std::stringstream s;
  s << std::ifstream(file).rdbuf();
  return s.str();
}

std::string forms() {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / "forms").string());
}

/// `runs` runs of a dual solver that sleeps `sleep` seconds in each fit.
std::string sleepy(int repeats, double sleep) {
  return fmt::format(R"(experiment: sleepy
seed: 3
repeats: {}
dataset: {{plugin: cubic, n: 30}}
kernels: [{{plugin: gaussian}}]
solvers: [{{plugin: fixture_flaky, sleep: {}}}]
)",
                     repeats, sleep);
}

/// Kernel ridge over many λ: many short rows.
const char* const kManyRows = R"(experiment: many
seed: 3
repeats: 4
dataset: {plugin: cubic, n: 40}
kernels: [{plugin: gaussian, sigma: [0.5, 1, 2]}]
solvers: [{plugin: kernel_ridge, lambda: {logspace: [-6, 0, 12]}}]
)";

/// The runs of results.csv and of results.jsonl; fails the test when a file has a
/// partial line, a run twice, or a run the other file lacks.
std::set<std::pair<std::string, std::string>> consistent_runs(const fs::path& folder) {
  const std::string csv = read(folder / "results.csv"), jsonl = read(folder / "results.jsonl");
  EXPECT_TRUE(csv.empty() || csv.back() == '\n');
  EXPECT_TRUE(jsonl.empty() || jsonl.back() == '\n');
  const core::CsvTable table = core::ResultFolder(folder).read_results();
  std::set<std::pair<std::string, std::string>> from_csv, from_jsonl;
  for (const auto& row : table.rows) {
    EXPECT_TRUE(from_csv.insert(core::run_key(table, row)).second) << "twice in results.csv";
  }
  std::istringstream lines(jsonl);
  std::string line;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_TRUE(from_jsonl.insert({j["cell"].get<std::string>(), j["repeat"].dump()}).second)
        << "twice in results.jsonl";
  }
  EXPECT_EQ(from_csv, from_jsonl);
  for (const auto& entry : fs::directory_iterator(folder)) {
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }
  return from_csv;
}

/// Runs a shell script in `cwd` with $KEXP set to the program; returns its stdout.
std::string shell(const std::string& script, const fs::path& cwd) {
  const TempDir capture;
  const fs::path file = capture.write("script.sh", script);
  const std::string command =
      fmt::format("cd '{}' && KEXP='{}' bash '{}' > '{}' 2>&1", cwd.string(), KEXP_TEST_BINARY,
                  file.string(), (capture.path() / "out").string());
  [[maybe_unused]] const int status = std::system(command.c_str());
  return read(capture.path() / "out");
}

/// Starts a run in the background, waits until results.csv has `rows` lines after its
/// header, then runs `then` (with $pid the run's process); prints "exit N" at the end.
std::string signal_script(const std::string& args, int rows, const std::string& then) {
  return fmt::format(R"sh(set -u
"$KEXP" run {} & pid=$!
for i in $(seq 400); do
  if [ -f out/results.csv ] && [ "$(wc -l < out/results.csv)" -gt {} ]; then break; fi
  sleep 0.05
done
{}
wait $pid; echo "exit $?"
)sh",
                     args, rows, then);
}

TEST(Safety, ForceLeavesAFolderKexpDidNotMakeAlone) {
  const TempDir dir;
  dir.write("exp.yaml", kManyRows);
  dir.write("project/config.yaml", "mine: true\n");
  dir.write("project/data.csv", "x,y\n1,2\n");
  const CommandResult r = run_kexp("run exp.yaml --out project --force --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("not a kexp result folder"), HasSubstr(".kexp-folder")));
  EXPECT_EQ(read(dir.path() / "project" / "data.csv"), "x,y\n1,2\n");

  ASSERT_EQ(run_kexp("run exp.yaml --out real --quiet", dir.path()).exit_code, 0);
  fs::create_directory_symlink("real", dir.path() / "link");
  const CommandResult link = run_kexp("run exp.yaml --out link/ --force --quiet", dir.path());
  EXPECT_EQ(link.exit_code, 2);
  EXPECT_THAT(link.err, HasSubstr("symbolic link"));
  EXPECT_TRUE(fs::exists(dir.path() / "real" / "results.csv"));

  const CommandResult up = run_kexp("run exp.yaml --out real/.. --force --quiet", dir.path());
  EXPECT_EQ(up.exit_code, 2);
  EXPECT_TRUE(fs::exists(dir.path() / "exp.yaml"));
  EXPECT_TRUE(fs::exists(dir.path() / "project" / "data.csv"));

  const CommandResult control =
      run_kexp("run exp.yaml --out \"$(printf 'a\\tb')\" --quiet", dir.path());
  EXPECT_EQ(control.exit_code, 2);
  EXPECT_THAT(control.err, HasSubstr("control character"));

  // A folder kexp made is replaced: what kexp wrote, not what its user added.
  dir.write("real/my-notes.md", "what I saw\n");
  const CommandResult again = run_kexp("run exp.yaml --out real --force --quiet", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("--force kept what kexp did not write in real: my-notes.md"));
  EXPECT_EQ(read(dir.path() / "real" / "my-notes.md"), "what I saw\n");

  // Its mark copied into the project does not make the project deletable.
  fs::copy_file(dir.path() / "real" / ".kexp-folder", dir.path() / "project" / ".kexp-folder");
  const CommandResult copied = run_kexp("run exp.yaml --out project --force --quiet", dir.path());
  EXPECT_EQ(copied.exit_code, 2);
  EXPECT_THAT(copied.err, HasSubstr("was not written for it"));
  EXPECT_EQ(read(dir.path() / "project" / "config.yaml"), "mine: true\n");
}

TEST(Safety, ReportRewritesOnlyFoldersKexpMadeAndNeverThroughALink) {
  // Before: `kexp report` overwrote summary.md in a folder kexp never marked, wrote SVGs
  // through a symbolic link plots/ into an outside folder, and left .kexp-lock behind
  // when it refused.
  const TempDir dir;
  dir.write("exp.yaml", kManyRows);
  ASSERT_EQ(run_kexp("run exp.yaml --out real --quiet", dir.path()).exit_code, 0);
  // A copy of a result folder without the mark: someone's own folder.
  fs::create_directory(dir.path() / "copy");
  for (const char* f : {"config.yaml", "results.csv", "manifest.json"}) {
    fs::copy_file(dir.path() / "real" / f, dir.path() / "copy" / f);
  }
  dir.write("copy/summary.md", "my notes\n");
  const CommandResult unmarked = run_kexp("report copy", dir.path());
  EXPECT_EQ(unmarked.exit_code, 2);
  EXPECT_THAT(unmarked.err, HasSubstr("copy is not a kexp result folder"));
  EXPECT_EQ(read(dir.path() / "copy" / "summary.md"), "my notes\n");
  EXPECT_FALSE(fs::exists(dir.path() / "copy" / ".kexp-lock"));

  // plots/ a link to a folder outside: refused, nothing written there.
  fs::create_directory(dir.path() / "outside");
  fs::remove_all(dir.path() / "real" / "plots");
  fs::create_directory_symlink("../outside", dir.path() / "real" / "plots");
  const CommandResult linked = run_kexp("report real", dir.path());
  EXPECT_EQ(linked.exit_code, 2);
  EXPECT_THAT(linked.err, HasSubstr("plots is a symbolic link"));
  EXPECT_TRUE(fs::is_empty(dir.path() / "outside"));

  // The folder as kexp made it: rebuilt.
  fs::remove(dir.path() / "real" / "plots");
  const CommandResult ok = run_kexp("report real", dir.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(Safety, ASecondWriterIsRefusedAndAKilledOneLeavesNoLock) {
  const TempDir dir;
  dir.write("exp.yaml", sleepy(3, 30));
  const std::string out =
      shell(signal_script(fmt::format("exp.yaml --out out --quiet {}", forms()), 0,
                          fmt::format(R"sh(sleep 0.3
"$KEXP" run exp.yaml --resume out --quiet {0} 2> resume.err; echo "resume $?"
"$KEXP" run exp.yaml --out out --force --quiet {0} 2> force.err; echo "force $?"
"$KEXP" report out 2> report.err; echo "report $?"
echo "pid $pid"
kill -KILL $pid)sh",
                                      forms())),
            dir.path());
  EXPECT_THAT(out, HasSubstr("resume 2"));
  EXPECT_THAT(out, HasSubstr("force 2"));
  EXPECT_THAT(out, HasSubstr("report 2"));
  const std::string pid =
      out.substr(out.find("pid ") + 4, out.find('\n', out.find("pid ")) - out.find("pid ") - 4);
  for (const char* file : {"resume.err", "force.err", "report.err"}) {
    EXPECT_THAT(read(dir.path() / file), AllOf(HasSubstr("being written by another kexp process"),
                                               HasSubstr("(pid " + pid + ")")))
        << file;
  }
  // Killed with SIGKILL: the kernel released its lock, and the folder can be written.
  dir.write("fast.yaml", sleepy(3, 0));
  const CommandResult force =
      run_kexp(fmt::format("run fast.yaml --out out --force --quiet {}", forms()), dir.path());
  EXPECT_EQ(force.exit_code, 0) << force.err;
}

TEST(Safety, SigtermStopsAfterTheRunningCellAndResumeFinishes) {
  const TempDir dir;
  dir.write("exp.yaml", sleepy(12, 0.2));
  const std::string out =
      shell(signal_script(fmt::format("exp.yaml --out out {}", forms()), 2, "kill -TERM $pid"),
            dir.path());
  EXPECT_THAT(out, HasSubstr("exit 143"));
  EXPECT_THAT(out, HasSubstr("SIGTERM: stopping after the running cell"));
  const auto m = nlohmann::json::parse(read(dir.path() / "out" / "manifest.json"));
  EXPECT_EQ(m["stopped"]["reason"], "SIGTERM");
  EXPECT_TRUE(m["stopped"]["abandoned"].is_null());  // the running cell finished
  EXPECT_TRUE(m["finished"].is_string());
  const auto ran = consistent_runs(dir.path() / "out");
  EXPECT_EQ(m["runs"]["ok"].get<std::size_t>(), ran.size());
  EXPECT_EQ(m["runs"]["not_started"].get<std::size_t>(), 12 - ran.size());
  EXPECT_LT(ran.size(), 12U);
  EXPECT_THAT(read(dir.path() / "out" / "summary.md"), HasSubstr("Stopped (SIGTERM)"));

  const CommandResult resume =
      run_kexp(fmt::format("run exp.yaml --resume out --quiet {}", forms()), dir.path());
  EXPECT_EQ(resume.exit_code, 0) << resume.err;
  EXPECT_EQ(consistent_runs(dir.path() / "out").size(), 12U);
}

TEST(Safety, ASecondSignalAbandonsTheRunningCellAtOnce) {
  const TempDir dir;
  dir.write("exp.yaml", sleepy(2, 60));
  const auto start = std::chrono::steady_clock::now();
  const std::string out = shell(signal_script(fmt::format("exp.yaml --out out {}", forms()), 0,
                                              "sleep 0.3; kill -INT $pid; sleep 0.3; "
                                              "kill -INT $pid"),
                                dir.path());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(out, HasSubstr("exit 130"));
  EXPECT_LT(seconds, 8);
  const auto m = nlohmann::json::parse(read(dir.path() / "out" / "manifest.json"));
  EXPECT_EQ(m["stopped"]["reason"], "SIGINT");
  EXPECT_THAT(m["stopped"]["abandoned"].get<std::string>(), HasSubstr("repeat 0"));
  EXPECT_EQ(m["runs"]["not_started"], 2);
  EXPECT_TRUE(consistent_runs(dir.path() / "out").empty());
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "summary.md"));
}

TEST(Safety, OneSignalAbandonsACellThatOutlastsTheGracePeriod) {
  const TempDir dir;
  dir.write("exp.yaml", sleepy(1, 120));
  const auto start = std::chrono::steady_clock::now();
  const std::string out = shell(
      signal_script(fmt::format("exp.yaml --out out {}", forms()), 0, "sleep 0.3; kill -TERM $pid"),
      dir.path());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(out, HasSubstr("exit 143"));
  EXPECT_GT(seconds, 9);
  EXPECT_LT(seconds, 30);
  const auto m = nlohmann::json::parse(read(dir.path() / "out" / "manifest.json"));
  EXPECT_THAT(m["stopped"]["abandoned"].get<std::string>(), HasSubstr("repeat 0"));
}

TEST(Safety, AFullDiskStopsTheRunWithWholeRowsAndResumeFinishes) {
  const TempDir dir;
  dir.write("exp.yaml", kManyRows);
  // Files may grow to 24 kB (48 blocks of 512 bytes): results.csv outgrows that.
  const CommandResult full =
      run_kexp("run exp.yaml --out out --quiet", dir.path(), "ulimit -f 48; trap '' XFSZ;");
  EXPECT_EQ(full.exit_code, 3) << full.err;
  EXPECT_THAT(full.err, AllOf(HasSubstr("results."), HasSubstr("File too large")));
  const auto some = consistent_runs(dir.path() / "out");
  EXPECT_GT(some.size(), 0U);
  EXPECT_LT(some.size(), 144U);
  const CommandResult resume = run_kexp("run exp.yaml --resume out --quiet", dir.path());
  EXPECT_EQ(resume.exit_code, 0) << resume.err;
  EXPECT_EQ(consistent_runs(dir.path() / "out").size(), 144U);
}

TEST(Safety, AFolderThatFailsBeforeItsFirstRowIsTakenAwayAgain) {
  // Before: a full disk while the first manifest was written left a marked folder that
  // --resume called "not a kexp result folder" and a plain rerun refused.
  const TempDir dir;
  dir.write("exp.yaml", kManyRows);
  // Files may grow to 2 kB: the mark, the lock and config.yaml fit, manifest.json not.
  const std::string full = "ulimit -f 4; trap '' XFSZ;";
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path(), full);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("writing out/manifest.json failed"));
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << "a half-made folder was left";
  // a folder that was there, empty, stays and is left empty
  fs::create_directory(dir.path() / "empty");
  EXPECT_EQ(run_kexp("run exp.yaml --out empty --quiet", dir.path(), full).exit_code, 2);
  EXPECT_TRUE(fs::is_directory(dir.path() / "empty"));
  EXPECT_TRUE(fs::is_empty(dir.path() / "empty"));
  // the same command, with room: runs
  const CommandResult again = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST(Safety, ResumeReconcilesTheTwoResultFiles) {
  const TempDir dir;
  dir.write("exp.yaml", kManyRows);
  ASSERT_EQ(run_kexp("run exp.yaml --out out --quiet", dir.path()).exit_code, 0);
  const fs::path csv = dir.path() / "out" / "results.csv";
  const fs::path jsonl = dir.path() / "out" / "results.jsonl";
  std::string c = read(csv), j = read(jsonl);
  // A row of a cell this experiment does not have, a row results.jsonl lacks, and a
  // partial last line.
  const std::string first_row =
      c.substr(c.find('\n') + 1, c.find('\n', c.find('\n') + 1) - c.find('\n'));
  std::string foreign = first_row;
  foreign.replace(0, 16, "ffffffffffffffff");
  j.erase(j.rfind('\n', j.size() - 2) + 1);  // drop the last JSON line
  std::ofstream(csv) << c << foreign << "0123456789abcdef,0,o";
  std::ofstream(jsonl) << j;
  const CommandResult resume = run_kexp("run exp.yaml --resume out --quiet", dir.path());
  EXPECT_EQ(resume.exit_code, 0) << resume.err;
  EXPECT_THAT(resume.err, HasSubstr("1 row of cells this experiment does not have"));
  EXPECT_THAT(resume.err, HasSubstr("1 row whole in one of results.csv and results.jsonl only"));
  const auto runs = consistent_runs(dir.path() / "out");
  EXPECT_EQ(runs.size(), 144U);
  for (const auto& [cell, repeat] : runs) EXPECT_NE(cell, "ffffffffffffffff");
}

}  // namespace
}  // namespace kexp::test
