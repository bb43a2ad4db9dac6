// The subcommands of the `kexp` program. Each registers itself on the app and returns
// the exit code through `exit_code` when it ran.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/experiment.hpp"
#include "kexp/formula_kernel.hpp"
#include "plugin/registry.hpp"

namespace kexp::cli {

/// Options every subcommand that loads plugins shares.
struct PluginOptions {
  std::vector<std::string> plugin_path;
  void add_to(CLI::App& command);
  /// The registry for these options plus the experiment's folders.
  [[nodiscard]] core::PluginRegistry discover(
      const std::vector<std::filesystem::path>& config_folders = {}) const;
  /// Reads an experiment file with its `--set` overrides and finds its plugins. The
  /// file's errors and its entries' errors against the plugins' schemas are reported
  /// together, in one ConfigError.
  [[nodiscard]] std::pair<core::Experiment, core::PluginRegistry> read_experiment(
      const std::string& file, const std::vector<std::string>& set,
      std::size_t max_cells = core::Experiment{}.max_cells) const;
};

/// A plugin's parameters: its defaults, with KEY=VALUE `settings` (`--set`) over them;
/// a ConfigError names a setting that is wrong and a required parameter not given.
[[nodiscard]] Params parameters(const core::PluginRecord& plugin,
                                const std::vector<std::string>& settings);

/// A check of a whole-number option, from `lowest` to `highest`, that says in its refusal
/// what the option means ("the number of threads"): `--threads abc` gets "'abc' is not a
/// whole number; give the number of threads, a whole number ≥ 0" (cli_help.cpp).
CLI::Validator count_option(long long lowest,
                            long long highest = std::numeric_limits<long long>::max(),
                            const std::string& meaning = "a count");
/// The same for a real number ≥ `lowest`.
CLI::Validator real_option(double lowest, const std::string& meaning);

/// When the first word of the command line that is not an option names no command: what
/// to say, with the nearest command and the list of all.
std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv);

/// What to say of arguments no option of the command took: each `--name` with the nearest
/// option of the command it was given to.
std::string unknown_options(const CLI::App& app, const std::vector<std::string>& extras);

/// `kexp help [COMMAND]`: the options of a command, or the list of commands.
void add_help_command(CLI::App& app, int& exit_code);

/// The kernel of a formula given on the command line (`--formula`), its parameters from
/// KEY=VALUE `settings`, each a number, and every parameter the formula names given; the
/// values as written go to `shown`. ConfigError for a formula that does not parse or a
/// setting that is wrong.
[[nodiscard]] std::shared_ptr<FormulaKernel> formula_kernel_from(
    const std::string& formula, const std::vector<std::string>& settings, bool psd,
    std::vector<std::string>* shown = nullptr);

void add_run_command(CLI::App& app, int& exit_code, const std::string& command_line);
void add_plugins_command(CLI::App& app, int& exit_code);
void add_describe_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_merge_command(CLI::App& app, int& exit_code, const std::string& command_line);
/// `kexp diff A B`: exit 0 when the two folders hold the same runs with the same results,
/// 1 otherwise; times are reported, never a failure.
void add_diff_command(CLI::App& app, int& exit_code);
void add_check_kernel_command(CLI::App& app, int& exit_code);
/// `kexp machine`: measures the machine's limits once and keeps them (util/machine.hpp).
void add_machine_command(CLI::App& app, int& exit_code);

}  // namespace kexp::cli
