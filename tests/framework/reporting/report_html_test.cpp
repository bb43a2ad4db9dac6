// report.html: the findings before the plots and the tables, each plot a data: URI that
// decodes to its SVG, the tables collapsed, the manifest's essentials, the commands that
// regenerate it, every name escaped, and no reference to another file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>

#include "reporting/report_html.hpp"
#include "support/plugins.hpp"
#include "util/files.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Base64, Rfc4648TestVectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\0\xff", 2)), "AP8=");
}

HtmlReportInputs inputs() {
  HtmlReportInputs in;
  in.experiment = "rbf <&> poly";
  in.folder = "results/a&b";
  in.summary.head =
      "# rbf <&> poly\n\n2 cells, 2 runs: all ok.\n\n## Findings\n\n"
      "- kernel_ridge (dual), k<1>: time ∝ n^2.90\n\n";
  in.summary.tables = "## Cells\n\n| cell | kernel |\n|---|---|\n| a1 | k<1> |\n| b2 | k&2 |\n";
  in.figures.push_back({"plots/time-vs-n.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>",
                        "Time against n <gaussian>"});
  in.manifest = nlohmann::ordered_json::parse(R"json({
    "kexp_version": "0.1.0", "git_commit": "abc123", "git_dirty": true,
    "compiler": "GNU 12.2.0", "build_type": "Release",
    "command_line": "kexp run x.yaml", "working_directory": "/w",
    "started": "2026-11-26T10:00:00Z", "finished": "2026-11-26T10:01:00Z",
    "environment": {"host": "h", "cpu": "Intel Xeon", "cpu_count": 2,
      "blas": {"config": "OpenBLAS 0.3.21", "core": "Cooperlake", "core_chosen_by": "kexp",
               "threads": 2, "threading": "openmp"}},
    "seeds": {"root": 7, "repeats": 2,
              "datasets": [{"variant": "csv(train=d<1>.csv)", "seeds": ["11", "12"]}]},
    "inputs": [{"key": "dataset.train", "written": "d<1>.csv", "path": "/w/d<1>.csv",
                "sha256": "e3b0c442"}],
    "options": {"threads": 2}
  })json");
  return in;
}

TEST(ReportHtml, FindingsThenPlotsThenTablesThenManifestThenCommands) {
  const std::string html = report_html(inputs());
  const auto at = [&](const std::string& s) {
    const auto p = html.find(s);
    EXPECT_NE(p, std::string::npos) << s;
    return p;
  };
  EXPECT_LT(at("<h2>Findings</h2>"), at("<h2>Plots</h2>"));
  EXPECT_LT(at("<h2>Plots</h2>"), at("<h2>Cells</h2>"));
  EXPECT_LT(at("<h2>Cells</h2>"), at("<h2>What ran, where</h2>"));
  EXPECT_LT(at("<h2>What ran, where</h2>"), at("<h2>Regenerate it</h2>"));
}

TEST(ReportHtml, EachPlotIsItsSvgAsADataUriWithItsCaptionOnce) {
  const HtmlReportInputs in = inputs();
  const std::string html = report_html(in);
  EXPECT_THAT(html,
              HasSubstr("src=\"data:image/svg+xml;base64," + base64(in.figures[0].svg) + "\""));
  // The caption is drawn in the SVG: the page gives it to a reader that does not see the
  // image, and names the file under it.
  EXPECT_THAT(html, HasSubstr("alt=\"Time against n &lt;gaussian&gt;\""));
  EXPECT_THAT(html, HasSubstr("<figcaption><small>plots/time-vs-n.svg</small></figcaption>"));
  EXPECT_EQ(html.find("Time against n &lt;gaussian&gt;"),
            html.rfind("Time against n &lt;gaussian&gt;"));
}

TEST(ReportHtml, TablesAreCollapsed) {
  const std::string html = report_html(inputs());
  EXPECT_THAT(html, HasSubstr("<details><summary>Cells: 2 rows</summary>"));
  EXPECT_THAT(html, HasSubstr("<td>k&lt;1&gt;</td>"));
}

TEST(ReportHtml, TheManifestsEssentials) {
  const std::string html = report_html(inputs());
  for (const char* row :
       {"<th>kexp version</th><td>0.1.0</td>",
        "<th>git commit</th><td>abc123 (with uncommitted changes)</td>",
        "<th>CPU</th><td>Intel Xeon, 2 cores</td>", "<th>BLAS</th><td>OpenBLAS 0.3.21</td>",
        "<th>BLAS kernels</th><td>Cooperlake, chosen by kexp</td>",
        "<th>BLAS threads</th><td>2, openmp</td>", "<th>started</th><td>2026-11-26T10:00:00Z</td>",
        "<th>root seed</th><td>7</td>",
        "<th>seeds of csv(train=d&lt;1&gt;.csv)</th><td>11, 12</td>",
        "<th>dataset.train: d&lt;1&gt;.csv</th><td>sha256 e3b0c442</td>",
        "<th>command</th><td>kexp run x.yaml</td>"}) {
    EXPECT_THAT(html, HasSubstr(row));
  }
}

TEST(ReportHtml, TheCommandsThatRegenerateIt) {
  const std::string html = report_html(inputs());
  EXPECT_THAT(html, HasSubstr("kexp run results/a&amp;b/config.yaml --out results/a&amp;b-again\n"
                              "kexp report --html results/a&amp;b-again\n"
                              "kexp diff results/a&amp;b results/a&amp;b-again"));
}

TEST(ReportHtml, NamesAreEscapedAndNothingOutsideIsReferred) {
  const std::string html = report_html(inputs());
  EXPECT_THAT(html, HasSubstr("<title>rbf &lt;&amp;&gt; poly — kexp report</title>"));
  EXPECT_THAT(html, Not(HasSubstr("<&>")));
  EXPECT_THAT(html, Not(HasSubstr("k<1>")));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  const std::regex reference(R"re((src|href)\s*=\s*"([^"]*)")re");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), reference);
       it != std::sregex_iterator(); ++it) {
    const std::string target = (*it)[2];
    EXPECT_TRUE(target.rfind("data:", 0) == 0 || target.rfind('#', 0) == 0) << target;
  }
}

TEST(ReportHtml, AFolderWithoutAManifestSaysSo) {
  HtmlReportInputs in = inputs();
  in.manifest = nullptr;
  EXPECT_THAT(report_html(in), HasSubstr("This folder has no readable manifest.json."));
}

TEST(WriteHtmlReport, TheHeatMapsOfKernelsWithTheirTitlesAfterThePlots) {
  test::TempDir dir;
  const ResultFolder folder(dir.path());
  dir.write("plots/time.svg", "<svg id='time'/>");
  for (std::size_t i = 0; i < kHtmlKernelFigures + 2; ++i) {
    const std::string stem = fmt::format("kernels/c{:02}-0-K", i);
    dir.write(stem + ".svg", fmt::format("<svg id='{}'/>", i));
    dir.write(stem + ".gp", fmt::format("set output 'x.svg'\nset title 'K of it''s <{}>'\n", i));
  }
  PlotResult plots;
  plots.files = {"plots/time.svg"};
  plots.captions = {"time against n"};
  write_html_report(folder, "e", SummaryText{"# e\n", "", "", ""}, plots, StoredManifest{});
  const std::string html = read_text_file(dir.path() / "report.html");
  EXPECT_LT(html.find("<h2>Plots</h2>"), html.find("<h2>Kernel matrices</h2>"));
  EXPECT_THAT(html, HasSubstr(base64("<svg id='time'/>")));
  EXPECT_THAT(html, HasSubstr(base64("<svg id='0'/>")));
  EXPECT_THAT(html, HasSubstr("alt=\"K of it&#39;s &lt;0&gt;\""));
  EXPECT_THAT(html, HasSubstr("<figcaption><small>kernels/c00-0-K.svg</small></figcaption>"));
  EXPECT_THAT(html, HasSubstr(base64(fmt::format("<svg id='{}'/>", kHtmlKernelFigures - 1))));
  // Past the limit, named only.
  EXPECT_THAT(html, Not(HasSubstr(base64(fmt::format("<svg id='{}'/>", kHtmlKernelFigures)))));
  EXPECT_THAT(html, HasSubstr(fmt::format("<p>kernels/c{:02}-0-K.svg: left out of this page: open "
                                          "the file.</p>",
                                          kHtmlKernelFigures + 1)));
}

}  // namespace
}  // namespace kexp::core
