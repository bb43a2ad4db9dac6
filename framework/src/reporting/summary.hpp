// summary.md: the tables of a result folder, built from results.csv alone.
//
//   - every cell, mean ± std over its repeats;
//   - the best cell per solver by test error;
//   - primal against dual for every pair of counterpart cells (sweep/pairing.hpp):
//     time ratio, memory ratio, largest prediction difference, D against n;
//   - for each primal-dual pair swept over n, where their times cross, against D;
//   - the growth exponent b of each cost over n, cost ≈ c·nᵇ by log-log least squares,
//     with R²;
//   - the failures, with their messages.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"
#include "reporting/plots.hpp"
#include "reporting/result_folder.hpp"
#include "util/machine.hpp"

namespace kexp::core {

struct SummaryInputs {
  std::string experiment;
  std::vector<std::string> notes;  ///< paragraphs under the title
  std::vector<std::string> plots;  ///< SVGs, relative to the folder
  std::filesystem::path folder;    ///< for predictions/ files
  /// How the run validated ("5-fold cross-validation"), from config.yaml; empty when
  /// it did not or it is not known.
  std::string validation;
  /// The machine's limits the run recorded, and the threads it ran with; the table
  /// against them is left out without.
  std::optional<MachineLimits> machine;
  int threads = 1;
  /// The Setup section (reporting/setup.hpp): what ran; empty to leave it out.
  std::string setup;
};

/// summary.md in parts, for report.html to place them and the plots in its own order:
/// the findings and the notes (`head`), the tables, the title with the count of cells and
/// runs, and the Setup section. summary.md is the title, the head, the setup and the
/// tables; report.html opens with the setup.
struct SummaryText {
  std::string head, tables;
  std::string title;
  std::string setup;
};
SummaryText summary_text(const CsvTable& table, const SummaryInputs& inputs);

/// The two parts and a section of the plots, linked by their paths.
std::string summary_markdown(const CsvTable& table, const SummaryInputs& inputs);

/// Rebuilds summary.md and plots/ of a result folder from its results.csv. The
/// experiment's name comes from config.yaml. Notes go under the title; without any, those
/// the run recorded in manifest.json. Says once on stderr when gnuplot is missing. Writes
/// report.html too (reporting/report_html.hpp) when `html` or the folder's config.yaml
/// says `output.html: true`. Draws the plots `plots` selects, or without it those the
/// config's `output.plots` does (the findings' plots when it says nothing).
struct ReportWritten {
  std::vector<std::string> plots;  ///< the SVGs written
  bool html = false;               ///< whether report.html was written
};
ReportWritten write_report(const ResultFolder& folder, const std::vector<std::string>& notes = {},
                           bool html = false, std::optional<PlotSelection> plots = std::nullopt);

}  // namespace kexp::core
