#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "config/experiment.hpp"
#include "run/runner.hpp"
#include "sweep/shard.hpp"
#include "util/exit_code.hpp"
#include "util/machine.hpp"

namespace kexp::cli {

namespace {

double parse_bytes(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = text.substr(used);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  if (unit == "K" || unit == "KB") scale = 1e3;
  if (unit == "M" || unit == "MB") scale = 1e6;
  if (unit == "G" || unit == "GB") scale = 1e9;
  if (unit == "KIB") scale = 1024.0;
  if (unit == "MIB") scale = 1024.0 * 1024;
  if (unit == "GIB") scale = 1024.0 * 1024 * 1024;
  if (used == 0 || scale == 0 || !std::isfinite(value) || value <= 0) {
    throw ConfigError(
        fmt::format("--max-memory '{}' must be a positive size such as 8G, 500MB or 2GiB", text));
  }
  if (value * scale < 1e3) {
    throw ConfigError(fmt::format(
        "--max-memory '{}' is less than 1 kB, which no cell fits in; give a size such as 8G, "
        "500MB or 2GiB",
        text));
  }
  return value * scale;
}

/// "90", "90s", "30m", "12h", "2d": seconds; 0 turns the limit off.
double parse_duration(const std::string& text) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  if (unit == "m" || unit == "min") scale = 60;
  if (unit == "h") scale = 3600;
  if (unit == "d") scale = 86400;
  if (used == 0 || scale == 0 || !std::isfinite(value) || value < 0) {
    throw ConfigError(fmt::format(
        "--max-cell-time '{}' must be a duration such as 90s, 30m, 12h or 2d (0: no limit)", text));
  }
  return value * scale;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code, const std::string& command_line) {
  struct Args {
    std::string config;
    std::string out;
    std::vector<std::string> set;
    bool dry_run = false;
    bool fail_fast = false;
    bool force = false;
    bool quiet = false;
    bool no_isolation = false;
    bool retry_timeouts = false;
    bool accept_rebuilt_plugins = false;
    int threads = 0;
    std::size_t max_cells = 100000;
    std::optional<double> timing_min_seconds;
    std::optional<int> timing_max_measurements;
    std::string max_memory;
    std::string max_cell_time;
    std::string resume;
    std::string shard;
    PluginOptions plugins;
  };
  auto args = std::make_shared<Args>();
  CLI::App* run = app.add_subcommand("run", "Run an experiment file");
  run->add_option("config", args->config, "The experiment (YAML)")->required();
  run->add_option("--out", args->out, "Result folder (default: the config's output.dir)");
  run->add_option("--set", args->set,
                  "Override a value, or sweep several: KEY=V1,V2 (e.g. kernels[0].sigma=0.5,1,2)");
  run->add_flag("--dry-run", args->dry_run,
                "List the cells with their estimated memory; run nothing");
  run->add_flag("--fail-fast", args->fail_fast, "Stop at the first cell that fails");
  run->add_flag("--force", args->force, "Replace the result folder if it exists");
  run->add_option("--resume", args->resume,
                  "Continue the result folder DIR of an earlier run of this config: runs that "
                  "finished there are kept, the others run");
  run->add_flag("--retry-timeouts", args->retry_timeouts,
                "With --resume: run again the runs that timed out there (kept otherwise)");
  run->add_flag("--accept-rebuilt-plugins", args->accept_rebuilt_plugins,
                "With --resume: go on although a plugin's library is another build than the "
                "one the folder's rows came from (refused otherwise)");
  run->add_option("--shard", args->shard,
                  "Run shard I of N (0 ≤ I < N) of the cells; default from "
                  "SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT when set");
  run->add_flag("--quiet", args->quiet, "No progress line");
  run->add_flag("--no-isolation", args->no_isolation,
                "Run every group of cells in kexp's own process, not in a process of its own "
                "(for a debugger; a plugin that crashes or exits then ends the run)");
  run->add_option("--threads", args->threads,
                  "Threads for Gram blocks and feature maps (default: OMP_NUM_THREADS, else "
                  "SLURM_CPUS_PER_TASK, else the CPUs this process may use)")
      ->check(count_option(0, 4096, "the number of threads (0: the default)"));
  run->add_option("--max-memory", args->max_memory,
                  "Refuse cells estimated to need more (8G, 500MB; default 80% of the "
                  "physical memory or of the smallest cgroup limit over this process's cgroup "
                  "and its ancestors)");
  run->add_option("--max-cell-time", args->max_cell_time,
                  "Refuse cells that take longer than this even at the machine's DGEMM rate, "
                  "their solver running every iteration its parameters allow, and kill a "
                  "running cell past it (status timeout); a cell is also killed past 10 times "
                  "its estimate at 1 GFLOP/s, at least 5 min (90s, 30m, 12h, 2d; 0: no limit "
                  "of its own; default 1d)");
  run->add_option("--max-cells", args->max_cells,
                  "Refuse a sweep of more cells than this, before it is expanded (default 100000)")
      ->check(count_option(1, std::numeric_limits<long long>::max(),
                           "the most cells a sweep may have"));
  run->add_option("--timing-min-seconds", args->timing_min_seconds,
                  "Measure each phase of a cell (Gram or features, fit, predict) again until "
                  "its measurements add up to this many seconds (default: the file's "
                  "timing.min_seconds, else 0.05)")
      ->check(real_option(0, "the seconds each phase is measured for"));
  run->add_option("--timing-max-measurements", args->timing_max_measurements,
                  "... or until it has this many (default: the file's "
                  "timing.max_measurements, else 7; 1: measure once)")
      ->check(count_option(1, 1000, "the most measurements of each phase"));
  args->plugins.add_to(*run);
  run->callback([args, &exit_code, command_line] {
    auto [experiment, registry] =
        args->plugins.read_experiment(args->config, args->set, args->max_cells);
    if (args->timing_min_seconds) experiment.timing.min_seconds = *args->timing_min_seconds;
    if (args->timing_max_measurements) {
      experiment.timing.max_measurements = *args->timing_max_measurements;
    }
    core::RunOptions options;
    options.out = args->out;
    options.dry_run = args->dry_run;
    options.fail_fast = args->fail_fast;
    options.force = args->force;
    options.quiet = args->quiet;
    options.isolation = options.isolation && !args->no_isolation;
    if (args->retry_timeouts && args->resume.empty()) {
      throw ConfigError(
          "--retry-timeouts runs again the runs that timed out in a folder "
          "resumed: give it with --resume DIR");
    }
    options.retry_timeouts = args->retry_timeouts;
    if (args->accept_rebuilt_plugins && args->resume.empty()) {
      throw ConfigError(
          "--accept-rebuilt-plugins continues a folder resumed: give it with --resume DIR");
    }
    options.accept_rebuilt_plugins = args->accept_rebuilt_plugins;
    options.threads = args->threads;
    options.command_line = command_line;
    if (!args->max_memory.empty()) options.max_memory = parse_bytes(args->max_memory);
    if (!args->max_cell_time.empty()) {
      options.max_cell_seconds = parse_duration(args->max_cell_time);
    }
    if (!args->resume.empty()) {
      if (!args->out.empty() && std::filesystem::weakly_canonical(args->out) !=
                                    std::filesystem::weakly_canonical(args->resume)) {
        throw ConfigError(fmt::format(
            "--resume {} continues that folder; --out {} names another: give one of them",
            args->resume, args->out));
      }
      options.resume = std::filesystem::path(args->resume);
    }
    if (!args->shard.empty()) {
      options.shard = core::parse_shard(args->shard);
    } else if (const auto slurm = core::shard_from_environment()) {
      options.shard = slurm;
      std::cerr << fmt::format("kexp: running shard {} (from SLURM_ARRAY_TASK_ID)\n", slurm->str());
    }
    if (!options.dry_run && !core::cached_machine(core::machine_file())) {
      std::cerr << "kexp: this machine's limits are not measured yet, so summary.md cannot "
                   "state each cost against them: `kexp machine` measures them once (a few "
                   "seconds)\n";
    }
    exit_code = core::run_experiment(experiment, registry, options);
  });
}

}  // namespace kexp::cli
