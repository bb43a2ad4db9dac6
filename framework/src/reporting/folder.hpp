// A result folder read back: for --resume, `kexp merge` and `kexp report`.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "reporting/writer.hpp"

namespace kexp::core {

/// The first difference between two resolved configs (config.yaml), as
/// "kernels[0].sigma is [0.3, 1, 3] there and [0.3, 1] here", or nothing when they
/// describe the same cells. `output` and `plugin_path` are left out: where results go
/// and where plugins were found do not change what the cells are.
std::optional<std::string> config_difference(const YAML::Node& there, const YAML::Node& here);

/// Reads folder/config.yaml. Throws ConfigError when the folder has none.
YAML::Node read_resolved_config(const std::filesystem::path& folder);

/// results.csv of a folder, keeping only complete rows: a run that was killed may have
/// left a partial last line.
CsvTable read_results(const std::filesystem::path& folder);

/// (cell, repeat) of a row.
using RunKey = std::pair<std::string, std::string>;
RunKey run_key(const CsvTable& table, const std::vector<std::string>& row);

/// The runs of the table whose status is ok.
std::set<RunKey> finished_runs(const CsvTable& table);

/// The table as CSV text: header and rows.
std::string csv_text(const CsvTable& table);

/// The lines of a results.jsonl whose run is in `keep` with the status given there,
/// once each (the first) and whole (a killed run may leave a partial last line).
std::string filter_jsonl(const std::filesystem::path& file,
                         const std::map<RunKey, std::string>& keep);

}  // namespace kexp::core
