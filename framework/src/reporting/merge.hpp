// `kexp merge`: joins the result folders of the shards of one sweep (or of runs of the
// same config) into one folder, and rebuilds its summary and plots.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kexp::core {

struct MergeOptions {
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path out;
  bool force = false;  ///< replace an existing result folder at `out`
  std::string command_line;
  /// Merge folders run with other builds of a plugin (refused otherwise), saying each.
  bool accept_rebuilt_plugins = false;
};

/// Checks that every input holds the same experiment (same resolved config, same
/// columns; ConfigError naming the folder and the difference otherwise), then writes
/// `out`: config.yaml, results.csv and results.jsonl with one row per run (an ok row
/// wins over a failed one; the first folder wins between two ok rows), predictions/,
/// manifest.json listing the inputs' manifests, summary.md and plots/. Returns 0 when
/// every run of the sweep is there and ok, 1 when some failed or are missing.
int merge_results(const MergeOptions& options);

}  // namespace kexp::core
