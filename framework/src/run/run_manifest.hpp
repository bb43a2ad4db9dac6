// The manifest of a run as it starts: what is run (experiment, plan, plugins, seeds) and
// how (command line, shard, resume, memory budget, threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "config/experiment.hpp"
#include "reporting/input_files.hpp"
#include "reporting/manifest.hpp"
#include "sweep/plan.hpp"
#include "sweep/shard.hpp"
#include "util/limits.hpp"

namespace kexp::core {

/// What the runner decided before it started.
struct RunFacts {
  std::string command_line;
  std::optional<Shard> shard;
  std::size_t selected_cells = 0;  ///< of the shard, or every cell
  std::optional<Manifest::Resumed> resumed;
  Limit memory_budget;
  double max_cell_seconds = 0;
  Limit threads;
  bool fail_fast = false;
  /// The machine's 1-minute load average before the run (util/measure.hpp).
  std::optional<double> load_at_start;
  std::vector<InputFile> inputs;  ///< the files the parameters name (reporting/input_files.hpp)
};

/// The seed of a dataset variant's repeat: derive_seed(root, "dataset:" + variant, repeat).
std::uint64_t dataset_seed(std::uint64_t root, const Variant& variant, int repeat);

/// Every plugin the plan uses (a sum's or product's terms included), each once, as
/// plugin_json() records it: kind, name, version, path and its library's sha256.
nlohmann::ordered_json plan_plugins_json(const Plan& plan);

/// The manifest at the start of a run (not yet finished).
Manifest run_manifest(const Experiment& experiment, const Plan& plan, const RunFacts& facts);

}  // namespace kexp::core
