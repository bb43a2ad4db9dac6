// Running an experiment: plan, prepare, execute every cell, write the result folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "plugin/registry.hpp"

namespace kexp::core {

struct RunOptions {
  std::filesystem::path out;  ///< result folder; empty: the config's output.dir
  bool dry_run = false;
  bool fail_fast = false;
  bool force = false;  ///< replace an existing result folder
  std::optional<std::filesystem::path> resume;
  int threads = 0;           ///< 0: all cores
  double max_memory = 0;     ///< bytes a cell may need; 0: 80% of physical memory
  std::string command_line;  ///< as typed, for the manifest
  bool quiet = false;        ///< no progress line
};

/// Exit codes (DESIGN.md, "Errors").
enum ExitCode : int { kExitOk = 0, kExitCellsFailed = 1, kExitUsage = 2 };

/// Runs the experiment. Returns kExitOk or kExitCellsFailed. Throws ConfigError,
/// PluginError or DataError (exit 2) before anything is written.
int run_experiment(const Experiment& experiment, const PluginRegistry& registry,
                   const RunOptions& options);

}  // namespace kexp::core
