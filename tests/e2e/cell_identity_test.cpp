// A cell's id across versions: a plugin that gains a parameter whose default keeps what it
// did (the fixture grown_polynomial, built without and with one) changes no id, and a
// folder run before is continued after, its runs kept; a folder whose ids were made by
// the earlier rule (every parameter hashed) is refused by --resume with the reason, and
// `kexp diff` matches its runs by their parameters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/plugins.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: grown
seed: 5
timing: {max_measurements: 1}
dataset: {plugin: cubic, n: [60, 120], d: 3}
kernels: [{plugin: grown_polynomial, degree: [2, 3]}]
solvers: [{plugin: kernel_ridge, lambda: [0.01, 0.1]}]
)";

std::string plugins(const std::string& version) {
  return "--plugin-path '" + (fixture_dir() / ("grown_" + version)).string() + "'";
}

std::set<std::string> ids(const std::filesystem::path& folder) {
  const core::CsvTable t = core::read_csv(folder / "results.csv");
  std::set<std::string> out;
  for (const auto& row : t.rows) out.insert(row[*t.column("cell")]);
  return out;
}

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
}

/// Keeps the first `rows` runs of both row files, as a run stopped there leaves them.
void cut_rows(const std::filesystem::path& folder, std::size_t rows) {
  for (const char* name : {"results.csv", "results.jsonl"}) {
    const std::string text = read(folder / name);
    std::size_t end = 0;
    const std::size_t lines = rows + (std::string(name) == "results.csv" ? 1 : 0);
    for (std::size_t i = 0; i < lines; ++i) end = text.find('\n', end) + 1;
    write(folder / name, text.substr(0, end));
  }
}

TEST(CellIdentity, AParameterAddedWithItsDefaultChangesNoIdAndTheFolderIsContinued) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(
      run_kexp("run exp.yaml --out before --quiet " + plugins("before"), dir.path()).exit_code, 0);
  const CommandResult after =
      run_kexp("run exp.yaml --out after --quiet " + plugins("after"), dir.path());
  ASSERT_EQ(after.exit_code, 0) << after.err;
  // The same cells, the same ids, the same results.
  EXPECT_EQ(ids(dir.path() / "before"), ids(dir.path() / "after"));
  EXPECT_EQ(ids(dir.path() / "before").size(), 8U);
  const CommandResult same = run_kexp("diff before after", dir.path());
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_THAT(same.out,
              AllOf(HasSubstr("configurations: the same cells"), HasSubstr("8 runs in both"),
                    HasSubstr("results: the same in every run")));

  // A run with the plugin as it was, stopped after 3 of its 8 runs, is continued with the
  // plugin as it is: the 3 are kept, the 5 others run, and the new column is filled.
  const core::CsvTable was = core::read_csv(dir.path() / "before" / "results.csv");
  cut_rows(dir.path() / "before", 3);
  // The plugin is another build of its library, so --resume asks to be told that it
  // computes the same.
  const CommandResult refused =
      run_kexp("run exp.yaml --resume before --quiet " + plugins("after"), dir.path());
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_THAT(refused.err, AllOf(HasSubstr("kernel plugin 'grown_polynomial' is another build"),
                                 HasSubstr("--accept-rebuilt-plugins")));
  const CommandResult resumed =
      run_kexp("run exp.yaml --resume before --quiet --accept-rebuilt-plugins " + plugins("after"),
               dir.path());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const core::CsvTable t = core::read_csv(dir.path() / "before" / "results.csv");
  ASSERT_EQ(t.rows.size(), 8U);
  EXPECT_EQ(ids(dir.path() / "before"), ids(dir.path() / "after"));
  const auto shift = t.column("kernel.shift");
  ASSERT_TRUE(shift.has_value());
  for (const auto& row : t.rows) EXPECT_EQ(row[*shift], "0");
  // The kept rows are the runs as they were: their first lines read alike, but for the
  // column added at the end of the kernel's parameters.
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t c = 0; c < was.columns.size(); ++c) {
      EXPECT_EQ(t.rows[r][*t.column(was.columns[c])], was.rows[r][c]) << was.columns[c];
    }
  }
  const auto manifest = nlohmann::json::parse(read(dir.path() / "before" / "manifest.json"));
  EXPECT_EQ(manifest["resumed"]["runs_kept"], 3);
  // results.jsonl says what results.csv says, the new field included.
  const CommandResult report = run_kexp("diff before after", dir.path());
  EXPECT_EQ(report.exit_code, 0) << report.out << report.err;
}

TEST(CellIdentity, AFolderOfTheEarlierIdRuleIsRefusedByResumeAndMatchedByDiff) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(run_kexp("run exp.yaml --out new --quiet " + plugins("before"), dir.path()).exit_code,
            0);
  ASSERT_EQ(run_kexp("run exp.yaml --out old --quiet " + plugins("before"), dir.path()).exit_code,
            0);
  // As kexp 5.6 wrote it: ids that hash every parameter, and no record of the rule.
  auto manifest = nlohmann::ordered_json::parse(read(dir.path() / "old" / "manifest.json"));
  manifest.erase("cell_ids");
  manifest["kexp_version"] = "5.6.0";
  write(dir.path() / "old" / "manifest.json", manifest.dump(2));
  for (const char* name : {"results.csv", "results.jsonl"}) {
    std::string text = read(dir.path() / "old" / name);
    for (const std::string& id : ids(dir.path() / "new")) {
      const std::string other = std::string(id.rbegin(), id.rend());
      for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at))
        text.replace(at, id.size(), other);
    }
    write(dir.path() / "old" / name, text);
  }
  const CommandResult resumed =
      run_kexp("run exp.yaml --resume old --quiet " + plugins("before"), dir.path());
  EXPECT_EQ(resumed.exit_code, 2) << resumed.err;
  EXPECT_THAT(resumed.err,
              AllOf(HasSubstr("--resume old"), HasSubstr("kexp 5.6.0"),
                    HasSubstr("every parameter, defaults included"), HasSubstr("kexp diff")));
  const CommandResult merged = run_kexp("merge old new --out both", dir.path());
  EXPECT_EQ(merged.exit_code, 2) << merged.err;
  EXPECT_THAT(merged.err, HasSubstr("kexp 5.6.0"));

  const CommandResult diff = run_kexp("diff old new", dir.path());
  EXPECT_THAT(diff.out,
              AllOf(HasSubstr("8 runs in both"),
                    HasSubstr("8 of them with other cell ids, matched by their parameters"),
                    HasSubstr("A was written by kexp 5.6.0")))
      << diff.out;
  EXPECT_THAT(diff.out, ::testing::Not(HasSubstr("only in")));
}

TEST(CellIdentity, TheResolvedConfigNamesItsFoldersRelativeToItself) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(
      run_kexp("run exp.yaml --out results/a --quiet " + plugins("before"), dir.path()).exit_code,
      0);
  const std::string config = read(dir.path() / "results" / "a" / "config.yaml");
  EXPECT_THAT(config, HasSubstr("base_dir: ../.."));
  EXPECT_THAT(config, ::testing::Not(HasSubstr(dir.path().string())));
  // and runs as it is, from anywhere
  const CommandResult again = run_kexp("run results/a/config.yaml --out b --quiet", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(ids(dir.path() / "results" / "a"), ids(dir.path() / "b"));
}

}  // namespace
}  // namespace kexp::test
