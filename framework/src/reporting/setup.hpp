// The Setup section of summary.md and report.html: what ran, said without the experiment
// file at hand. The dataset (its plugin and what it is, generated or read from which file,
// its sizes n and d), each kernel and solver with the values of its parameters in symbols
// (σ, λ, p), those at their default left out, the repeats and the seed, and the comments
// the experiment file's author wrote, each beside the line it stands on.
#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reporting/analysis.hpp"

namespace kexp::core {

/// The comments of an experiment file: the block before its first key (what the
/// experiment is), and every other comment with the line it stands on or above.
struct ConfigComments {
  std::string header;  ///< the leading block, its lines joined
  struct Remark {
    std::string line;  ///< the YAML line it belongs to, without its comment, trimmed
    std::string text;
  };
  std::vector<Remark> remarks;
};
ConfigComments config_comments(const std::string& yaml);

/// A path as a report may show it: relative to `working_directory` when it lies inside,
/// else its file name alone; never the machine's absolute path.
std::string shown_path(const std::string& path, const std::string& working_directory);

/// "## Setup" and its text, from the folder's resolved config, its manifest (the plugins'
/// summaries and defaults, the experiment file as written, the data files) and its cells
/// (the sizes of the data). Empty when the config is not a map.
std::string setup_markdown(const YAML::Node& config, const nlohmann::ordered_json& manifest,
                           const std::vector<CellSummary>& cells);

}  // namespace kexp::core
