// manifest.json: what ran, where and how. The kexp build (version, git commit and dirty
// flag, compiler and flags), the machine (host, CPU, BLAS and its threads), each plugin
// (path, version, sha256 of the library), the seeds, the shard and the counts of a run;
// or, for a merged folder, the folders it was merged from. Written and read back here
// only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "plugin/registry.hpp"
#include "util/machine.hpp"
#include "util/measure.hpp"

namespace kexp::core {

/// Facts fixed when kexp was built (written by CMake into generated sources).
struct BuildInfo {
  std::string git_commit;  ///< empty when built outside a git checkout
  bool git_dirty = false;  ///< tracked files differed from the commit
  std::string compiler;    ///< "GNU 12.2.0"
  std::string build_type;  ///< "Release"
  std::string flags;       ///< CMAKE_CXX_FLAGS and those of the build type
};
BuildInfo build_info();

/// kexp version and the build facts.
nlohmann::ordered_json build_json();

/// Host, operating system, CPU model and count, physical memory, BLAS (OpenBLAS's
/// configuration, core type and threads) and kexp's Gram threads.
nlohmann::ordered_json environment_json();

/// A plugin: kind, name, version, path and the sha256 of its library.
nlohmann::ordered_json plugin_json(const PluginRecord& plugin);

/// SHA-256 of bytes, and of a file's content, as 64 lowercase hex digits (OpenSSL's
/// libcrypto). sha256_file throws kexp::Error when the file cannot be read.
std::string sha256_hex(const std::string& bytes);
std::string sha256_file(const std::filesystem::path& file);

/// What differs between the plugin builds two manifests record (their "plugins" arrays,
/// plugin_json() each), matched by kind and name: a sentence per plugin whose library's
/// sha256 differs, naming its kind, name, both versions and both hashes; empty when none.
/// A plugin recorded in only one of them is not a difference here (the configs differ).
std::vector<std::string> changed_plugins(const nlohmann::json& before, const nlohmann::json& now);

/// The manifest of a run (`kexp run`).
struct Manifest {
  std::string experiment;
  std::string config_file;  ///< absolute
  /// The experiment file as written: what its author said in its comments, which the
  /// report's setup quotes.
  std::string config_text;
  std::string command_line;
  std::string working_directory;
  std::string started;
  std::optional<std::string> finished;  ///< not yet while the run goes on
  nlohmann::ordered_json environment;   ///< environment_json() at the start
  std::uint64_t root_seed = 0;
  int repeats = 1;
  struct DatasetSeeds {
    std::string variant;
    std::vector<std::string> seeds;  ///< one per repeat, decimal
  };
  std::vector<DatasetSeeds> dataset_seeds;
  nlohmann::ordered_json plugins = nlohmann::ordered_json::array();  ///< plugin_json() each
  /// The files the experiment's parameters name (data files, model files), with the
  /// sha256 of their content (reporting/input_files.hpp): --resume and merge refuse a folder
  /// whose files changed.
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
  std::size_t cells = 0;  ///< of the whole sweep
  struct Shard {
    std::size_t index = 0, count = 1, cells = 0;
  };
  std::optional<Shard> shard;
  struct Resumed {
    std::string first_started;
    std::size_t runs_kept = 0;
  };
  std::optional<Resumed> resumed;
  double max_memory_bytes = 0;
  std::string memory_budget_source;  ///< why the budget is what it is
  double max_cell_seconds = 0;       ///< --max-cell-time; 0: no limit
  int threads = 0;                   ///< threads for Gram blocks and feature maps
  std::string threads_source;
  /// The machine's 1-minute load average before the run and at its end, and its
  /// processors: how busy it was while the times were measured.
  std::optional<double> load_at_start, load_at_end;
  int cpus_online = 0;
  bool fail_fast = false;
  bool predictions = false;
  struct Runs {
    long ok = 0, failed = 0, refused = 0, timed_out = 0, kept_from_before = 0;
    std::size_t not_started = 0;
  };
  std::optional<Runs> runs;  ///< once finished
  /// Why the run stopped before its end: "SIGINT", "SIGTERM", or a write error.
  struct Stop {
    std::string reason;
    std::string abandoned;  ///< the run (cell and repeat) that was abandoned, if one was
  };
  std::optional<Stop> stopped;
  /// The notes the run put under summary.md's title (what it left out, its warnings, how
  /// it stopped), so that `kexp report` rebuilds the same summary.
  std::vector<std::string> notes;

  /// The JSON document, build facts first.
  [[nodiscard]] nlohmann::ordered_json to_json() const;
};

/// The manifest of a merged folder (`kexp merge`).
struct MergeManifest {
  std::string experiment;
  std::string merged;  ///< when
  std::string command_line;
  struct Input {
    std::string folder;  ///< absolute
    std::size_t runs = 0;
    nlohmann::ordered_json manifest;  ///< the input's manifest as it was, or null
  };
  std::vector<Input> inputs;
  std::size_t total_runs = 0, not_ok = 0, planned_runs = 0;
  std::vector<std::string> problems;

  [[nodiscard]] nlohmann::ordered_json to_json() const;
};

/// A manifest.json read back: the fields that resume and merge use, and the whole
/// document. Missing fields keep their defaults (a merged folder has no seeds).
struct StoredManifest {
  nlohmann::ordered_json document;  ///< null when there is no readable manifest
  std::optional<std::string> started;
  std::optional<std::size_t> cells;
  std::optional<int> repeats;
  std::optional<Manifest::Shard> shard;
};
StoredManifest read_manifest(const std::filesystem::path& file);

/// How this kexp makes cell ids and the seeds derived from them (sweep/variant.hpp's
/// canonical_text), as manifest.json's `cell_ids` records it. A folder without it was
/// written by a kexp whose ids hashed every parameter, defaults included.
inline constexpr const char* kCellIdRule = "parameters at their default left out";

/// The rule of a folder's ids: its manifest's `cell_ids` (a merged folder's, its first
/// input's), or "every parameter" when it records none.
std::string cell_id_rule(const nlohmann::ordered_json& manifest);

/// Why the runs of a folder cannot be continued or merged by this kexp, when its ids follow
/// another rule: "written by kexp 5.6.0, whose cell ids …"; nothing when they follow
/// kCellIdRule.
std::optional<std::string> other_cell_id_rule(const StoredManifest& manifest);

/// The machine's limits a run recorded (environment.machine), at the threads its Gram
/// matrices ran with (environment.gram_threads); nothing when none were recorded.
struct RecordedMachine {
  MachineLimits limits;
  int threads = 1;
};
std::optional<RecordedMachine> recorded_machine(const StoredManifest& manifest);

/// Writes a manifest atomically.
void write_manifest(const std::filesystem::path& file, const nlohmann::ordered_json& manifest);

}  // namespace kexp::core
