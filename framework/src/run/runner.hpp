// Running an experiment: plan it, load its data, execute every cell group by group and
// write the result folder as each cell ends. Orchestration only: the execution of a
// group is exec/group, the memory budget and the dry run run/budget, the progress line
// run/progress, the result folder and its files reporting/.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "config/experiment.hpp"
#include "plugin/registry.hpp"
#include "run/time_budget.hpp"
#include "sweep/shard.hpp"
#include "util/child_process.hpp"

namespace kexp::core {

struct RunOptions {
  /// Result folder; empty: the config's output.dir, or results/<experiment>. With a
  /// shard and no folder given, `-shard-I-of-N` is appended to the default.
  std::filesystem::path out;
  bool dry_run = false;
  bool fail_fast = false;
  bool force = false;  ///< replace an existing result folder
  /// Continue the result folder of an earlier run of the same config: its finished runs
  /// (status ok) are kept and skipped, the others run.
  std::optional<std::filesystem::path> resume;
  /// With `resume`: run again the runs that timed out there, which are kept otherwise.
  bool retry_timeouts = false;
  /// With `resume`: go on although a plugin's library differs from the build the folder's
  /// rows came from (refused otherwise).
  bool accept_rebuilt_plugins = false;
  std::optional<Shard> shard;  ///< run only this share of the cells
  int threads = 0;             ///< 0: all cores
  double max_memory = 0;       ///< bytes a cell may need; 0: default_memory_budget()
  /// Seconds a cell may take (--max-cell-time): a cell whose flops at the machine's DGEMM
  /// rate take longer is refused before it runs, and a running cell is killed past the
  /// lesser of this and its own limit (run/time_budget.hpp, running_time_limit); 0: no
  /// limit of this option's own.
  double max_cell_seconds = kDefaultMaxCellSeconds;
  std::string command_line;  ///< as typed, for the manifest
  bool quiet = false;        ///< no progress line
  /// Each group of cells in a child process of its own (exec/isolated_group): a plugin
  /// that crashes, aborts or exits fails its cell, not the run. Off by default in a
  /// sanitizer build, where a fork from a process with threads can hang (child_process.hpp).
  bool isolation = kForkWithThreadsIsSafe;
  /// This run is the silent dry run that tries the plan's plugin calls in a child process
  /// before the real one makes them (run/rehearsal.hpp): no input files are hashed.
  bool rehearsal = false;
};

/// Runs the experiment. Returns kExitOk or kExitCellsFailed (util/exit_code.hpp).
/// Throws ConfigError, PluginError or DataError (exit 2) before anything is written.
int run_experiment(const Experiment& experiment, const PluginRegistry& registry,
                   const RunOptions& options);

}  // namespace kexp::core
