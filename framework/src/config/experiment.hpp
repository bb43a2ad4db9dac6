// The experiment file (docs/design.md, "The experiment file"), parsed but not yet checked
// against the plugins' schemas. Every value keeps its file:line:column.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kexp/error.hpp"

namespace kexp::core {

struct KernelExpression;

/// One value a parameter takes: YAML scalar text, or a number from a generator.
struct SweepValue {
  std::string text;
  SourceLocation where;
  bool from_generator = false;
};

/// A parameter as written: one value (set) or several (swept).
struct ParamSetting {
  std::string name;  ///< "sigma"
  std::string key;   ///< "kernels[0].sigma"
  SourceLocation where;
  std::vector<SweepValue> values;
  bool swept = false;  ///< written as a list or a generator
};

/// Swept parameters of one component that move together (`zip: [n, d]`): the i-th
/// value of each goes with the i-th value of the others, instead of every combination.
struct ZipGroup {
  std::vector<std::string> names;
  SourceLocation where;
};

/// A dataset, kernel or solver entry: `plugin: NAME`, its parameters, and optionally
/// `zip:` groups of its swept parameters.
struct ComponentSpec {
  std::string plugin;
  std::string key;  ///< "dataset", "kernels[1]", "solvers[0]"
  SourceLocation where;
  std::vector<ParamSetting> params;
  /// Settings written but not read, for an error reported with the file's: the checks
  /// against the plugin's schema pass over them rather than report them missing.
  std::vector<std::string> unread;
  std::vector<ZipGroup> zips;
  /// A kernels entry written as a sum or product of kernels (config/kernel_expression.hpp):
  /// `plugin` is then "sum" or "product", and `params` every term's settings under their
  /// path.
  std::shared_ptr<const KernelExpression> expression;
};

/// Which Gram matrices `output.kernel_matrix` writes into kernels/: none (false), K of
/// the training points (true), or K and K(X, X*) (with_test).
enum class KernelMatrixOutput { None, Train, TrainAndTest };

struct OutputSpec {
  std::string dir;  ///< relative to the working directory; empty: results/<experiment>
  bool predictions = false;
  bool html = false;  ///< report.html beside summary.md (reporting/report_html.hpp)
  /// `plots: all` draws every plot; the default (`findings`) only those the summary's
  /// findings rest on (reporting/plots.hpp).
  bool all_plots = false;
  KernelMatrixOutput kernel_matrix = KernelMatrixOutput::None;
  SourceLocation kernel_matrix_where;  ///< of output.kernel_matrix, for its errors
};

/// Model selection on the training part (docs/design.md, "Model selection"): k-fold
/// cross-validation (`folds: k`) or one held-out split (`validation_fraction: f`). The
/// summary's best cell per solver is chosen on the validation error; the test set is
/// used once, for the figure of the chosen cell. Neither given: no validation.
struct ValidationSpec {
  int folds = 0;        ///< k ≥ 2, or 0
  double fraction = 0;  ///< in (0, 1), or 0
  SourceLocation where;
  [[nodiscard]] bool enabled() const { return folds > 0 || fraction > 0; }
  /// How many fits on part of the training set a cell makes: k, or 1 for a split.
  [[nodiscard]] int splits() const { return folds > 0 ? folds : (fraction > 0 ? 1 : 0); }
};

/// How each phase of a cell (Gram matrix or features, fit, predict) is timed
/// (exec/timing.hpp): measured until the measurements add up to `min_seconds` or number
/// `max_measurements`, then reported as their median, minimum, maximum and count.
/// `timing:` in the file; `--timing-min-seconds`, `--timing-max-measurements` override.
struct TimingSpec {
  double min_seconds = 0.05;
  int max_measurements = 7;
};

struct Experiment {
  std::filesystem::path file;      ///< the config file
  std::filesystem::path base_dir;  ///< its folder; relative paths in it start here
  std::string name;
  SourceLocation name_where;
  std::uint64_t seed = 0;
  int repeats = 1;
  std::vector<std::filesystem::path> plugin_path;  ///< resolved against base_dir
  ComponentSpec dataset;
  std::vector<ComponentSpec> kernels;
  std::vector<ComponentSpec> solvers;
  OutputSpec output;
  ValidationSpec validation;
  TimingSpec timing;
  /// Threads for the Gram matrix and feature maps (`threads:`); 0: the machine's
  /// (`kexp run --threads` overrides). Cost comparisons name theirs so that they
  /// regenerate alike on any machine.
  int threads = 0;
  /// The most cells a sweep may have; a larger one is refused before it is expanded
  /// (`kexp run --max-cells`).
  std::size_t max_cells = 100000;
  YAML::Node document;  ///< the file as read, overrides applied
};

/// A command-line override, `KEY=V1,V2,…`, e.g. `kernels[0].sigma=0.5,1,2`. The key
/// must name an entry of the file (or a parameter of one of its plugins); one value
/// sets it, several sweep it. Errors in the value name `--set KEY=…` as their location.
struct Override {
  std::string text;
};

class ErrorList;

/// Reads and parses an experiment file. Every error of the file is gathered (a setting,
/// an entry of a list, a top-level key at a time), each with its file:line:column, and
/// thrown together as a ConfigErrors (one alone as the ConfigError it is). With
/// `keep_going`, the errors go there instead and the parts read without error are
/// returned, so that the plan can add its own errors (config/error_list.hpp). A YAML
/// syntax error, or a file that is not a map, stops the reading at once.
Experiment load_experiment(const std::filesystem::path& file,
                           const std::vector<Override>& overrides = {},
                           ErrorList* keep_going = nullptr);

/// Parses experiment text (for tests); `file` is used for messages and relative paths.
Experiment parse_experiment(const std::string& text, const std::filesystem::path& file,
                            const std::vector<Override>& overrides = {},
                            ErrorList* keep_going = nullptr);

/// The location of a YAML node in `file`.
SourceLocation location_of(const YAML::Node& node, const std::filesystem::path& file);

}  // namespace kexp::core
