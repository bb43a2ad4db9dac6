// report.html: a result folder's report as one self-contained page, to hand over. It
// holds, in this order: what ran (the summary's Setup: data, kernels, solvers, the
// experiment file's comments), the summary's findings (the same text as summary.md, converted
// by reporting/markdown_html.hpp), the plots inline (each SVG as a data: URI, with its
// caption) and the heat maps of kernels/ when the run wrote them, the summary's tables, each
// collapsed in a <details> element, the manifest's essentials (kexp version and commit, CPU, BLAS
// and its kernels, threads, dates, seeds, data files and their sha256) and the commands that
// regenerate it. It refers to no other file and runs no script.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reporting/manifest.hpp"
#include "reporting/plots.hpp"
#include "reporting/result_folder.hpp"
#include "reporting/summary.hpp"

namespace kexp::core {

/// A plot as report.html shows it.
struct HtmlFigure {
  std::string file;     ///< relative to the result folder, "plots/time-vs-n.svg"
  std::string svg;      ///< its content; empty when it could not be read
  std::string caption;  ///< plain text
};

struct HtmlReportInputs {
  std::string experiment;
  std::string folder;  ///< the result folder as it was named, for the commands
  SummaryText summary;
  std::vector<HtmlFigure> figures;
  /// The heat maps of kernels/ (output.kernel_matrix), after the plots.
  std::vector<HtmlFigure> kernel_figures;
  nlohmann::ordered_json manifest;  ///< manifest.json, or null
};

/// The page.
std::string report_html(const HtmlReportInputs& in);

/// Bytes as base64 (RFC 4648, with padding), for data: URIs.
std::string base64(const std::string& bytes);

/// At most this many heat maps of kernels/ in the page; the others are named.
constexpr std::size_t kHtmlKernelFigures = 12;

/// At most this many rows of each of the summary's tables in the page, so that it stays
/// small whatever the sweep (a few MB at 10⁵ cells); the rest are in summary.md and
/// results.csv beside it. Below it, as in every curated experiment, the page names no
/// other file.
constexpr std::size_t kHtmlTableRows = 1000;

/// Writes folder/report.html atomically from the summary's text, the plots drawn, the
/// heat maps in kernels/ and the folder's manifest.
void write_html_report(const ResultFolder& folder, const std::string& experiment,
                       const SummaryText& summary, const PlotResult& plots,
                       const StoredManifest& manifest);

}  // namespace kexp::core
