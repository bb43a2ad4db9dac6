// The summary's markdown subset as HTML: each block and inline form against the HTML
// written out by hand, text escaped everywhere, tables collapsed on request.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reporting/markdown_html.hpp"

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(HtmlEscape, EscapesTheFiveCharacters) {
  EXPECT_EQ(html_escape(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&#39;d");
  EXPECT_EQ(html_escape("σ = 1, λ ≤ 0.1"), "σ = 1, λ ≤ 0.1");  // UTF-8 as it is
}

TEST(MarkdownToHtml, HeadingsParagraphsAndLists) {
  const std::string html = markdown_to_html(
      "# exp <1>\n\n4 cells, 8 runs: all ok.\n\n## Findings\n\nWhere:\n\n- a & b\n- c\n\n"
      "line one\nline two\n");
  EXPECT_EQ(html,
            "<h1>exp &lt;1&gt;</h1>\n<p>4 cells, 8 runs: all ok.</p>\n<h2>Findings</h2>\n"
            "<p>Where:</p>\n<ul>\n<li>a &amp; b</li>\n<li>c</li>\n</ul>\n"
            "<p>line one\nline two</p>\n");
}

TEST(MarkdownToHtml, BoldAndCodeInsideText) {
  EXPECT_EQ(markdown_to_html("**picked on the test set**, add `folds: 5` <now>"),
            "<p><strong>picked on the test set</strong>, add <code>folds: 5</code> "
            "&lt;now&gt;</p>\n");
  // Code keeps its content literally, escaped; an unclosed mark stays text.
  EXPECT_EQ(markdown_to_html("`a**b<c` and **open and `open"),
            "<p><code>a**b&lt;c</code> and **open and `open</p>\n");
}

TEST(MarkdownToHtml, TablesWithEscapedPipes) {
  const std::string html = markdown_to_html("| cell | kernel |\n|---|---|\n| a1 | k\\|<x> |\n");
  EXPECT_EQ(html,
            "<table>\n<tr><th>cell</th><th>kernel</th></tr>\n"
            "<tr><td>a1</td><td>k|&lt;x&gt;</td></tr>\n</table>\n");
}

TEST(MarkdownToHtml, CollapsedTablesNameTheirHeadingAndRows) {
  const std::string md =
      "## Cells & more\n\nMean ± std.\n\n| a |\n|---|\n| 1 |\n| 2 |\n\n## Failures\n\n"
      "| cell |\n|---|\n| x |\n";
  const std::string html = markdown_to_html(md, MarkdownHtmlOptions{true});
  EXPECT_THAT(html, HasSubstr("<details><summary>Cells &amp; more: 2 rows</summary>\n<table>"));
  EXPECT_THAT(html, HasSubstr("<details><summary>Failures: 1 row</summary>\n<table>"));
  EXPECT_THAT(html, HasSubstr("</table>\n</details>\n"));
  EXPECT_THAT(markdown_to_html(md), Not(HasSubstr("<details>")));
}

TEST(MarkdownToHtml, ALongTableShowsItsFirstRowsAndSaysWhereTheRestAre) {
  std::string md = "## Cells\n\n| a |\n|---|\n";
  for (int i = 0; i < 250; ++i) md += fmt::format("| r{} |\n", i);
  MarkdownHtmlOptions options;
  options.collapse_tables = true;
  options.max_table_rows = 100;
  options.more_rows = "… and {} more, in <a href=\"summary.md\">summary.md</a>.";
  const std::string html = markdown_to_html(md, options);
  EXPECT_THAT(html, HasSubstr("<summary>Cells: 250 rows, the first 100 shown</summary>"));
  EXPECT_THAT(html, HasSubstr("<td>r99</td>"));
  EXPECT_THAT(html, Not(HasSubstr("<td>r100</td>")));
  EXPECT_THAT(html, HasSubstr("<p class=\"more\">… and 150 more, in <a href=\"summary.md\">"));
  // A table within the limit is whole, and names nothing else.
  options.max_table_rows = 250;
  EXPECT_THAT(markdown_to_html(md, options),
              AllOf(HasSubstr("<td>r249</td>"), Not(HasSubstr("href"))));
}

TEST(MarkdownToHtml, LinesThatOnlyLookLikeBlocksAreText) {
  // "#x" and "-x" start no heading or list; every line is read once (no endless loop).
  EXPECT_EQ(markdown_to_html("#x\n-y\n### z"), "<p>#x\n-y\n### z</p>\n");
  EXPECT_EQ(markdown_to_html(""), "");
}

}  // namespace
}  // namespace kexp::core
