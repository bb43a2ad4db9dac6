// report.html through the kexp program: `output.html: true` writes it at the end of a
// run, `kexp report --html` writes it again from results.csv, and neither writes into a
// folder kexp did not make or through a symbolic link. (tests/e2e/report_html_browser_test.py
// loads it in a browser.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/plugins.hpp"
#include "util/files.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

namespace fs = std::filesystem;

constexpr const char* kConfig = R"(experiment: html <&> check
seed: 5
dataset: {plugin: cubic, n: [60, 120, 240], d: 2}
kernels: [{plugin: polynomial, degree: 2}]
solvers:
  - {plugin: primal_ridge, lambda: 0.01}
  - {plugin: kernel_ridge, lambda: 0.01}
)";

TEST(ReportHtmlCommand, WrittenByARunThatAsksAndByReportHtml) {
  TempDir dir;
  dir.write("exp.yaml", std::string(kConfig) + "output: {html: true}\n");
  const CommandResult r =
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path page = dir.path() / "out" / "report.html";
  const std::string html = core::read_text_file(page);
  EXPECT_THAT(html, HasSubstr("<h1>html &lt;&amp;&gt; check</h1>"));
  EXPECT_THAT(html, HasSubstr("<h2>Findings</h2>"));
  // The summary's findings, converted: the same line as in summary.md.
  const std::string md = core::read_text_file(dir.path() / "out" / "summary.md");
  const std::size_t line = md.find("- primal_ridge (primal), polynomial: time ∝ n^");
  ASSERT_NE(line, std::string::npos) << md;
  EXPECT_THAT(html, HasSubstr("<li>primal_ridge (primal), polynomial: time ∝ n^"));
  EXPECT_THAT(html, HasSubstr("<details><summary>Cells: "));
  EXPECT_THAT(html, HasSubstr("kexp report --html "));

  fs::remove(page);
  const CommandResult again = run_kexp("report --html out", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("wrote out/summary.md, report.html and "));
  EXPECT_THAT(core::read_text_file(page), HasSubstr("<h2>Findings</h2>"));
}

TEST(ReportHtmlCommand, NotWrittenUnlessAsked) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path()).exit_code,
      0);
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "report.html"));
  const CommandResult report = run_kexp("report out", dir.path());
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(report.out, Not(HasSubstr("report.html")));
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "report.html"));
}

TEST(ReportHtmlCommand, OnlyIntoAResultFolderAndNeverThroughALink) {
  TempDir dir;
  dir.write("notes/results.csv", "cell,repeat,status\n");
  const CommandResult unmarked = run_kexp("report --html notes", dir.path());
  EXPECT_EQ(unmarked.exit_code, 2);
  EXPECT_THAT(unmarked.err, HasSubstr("is not a kexp result folder"));
  EXPECT_FALSE(fs::exists(dir.path() / "notes" / "report.html"));

  dir.write("exp.yaml", kConfig);
  ASSERT_EQ(
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path()).exit_code,
      0);
  const fs::path elsewhere = dir.write("elsewhere.html", "mine");
  fs::create_symlink(elsewhere, dir.path() / "out" / "report.html");
  const CommandResult linked = run_kexp("report --html out", dir.path());
  EXPECT_EQ(linked.exit_code, 2);
  EXPECT_THAT(linked.err, HasSubstr("report.html is a symbolic link"));
  EXPECT_EQ(core::read_text_file(elsewhere), "mine");
}

}  // namespace
}  // namespace kexp::test
