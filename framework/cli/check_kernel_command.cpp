// kexp check-kernel NAME [--set KEY=V …] [--points N] [--dim D] [--seed S]: samples points,
// builds the Gram matrix and reports whether the kernel is valid on them.
// kexp check-kernel --config FILE [--set KEY=V1,V2 …] …: the same for every kernel variant of
// an experiment file (sums, products and scalings of kernels, and sweeps, as `kexp run`
// builds them), one report each; --set then overrides the file as in `kexp run`.
// Exit 0 valid (every variant), 1 not valid (some variant), 2 bad input.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>

#include "check/kernel_check.hpp"
#include "cli/commands.hpp"
#include "config/experiment.hpp"
#include "config/schema.hpp"
#include "exec/kernel_consistency.hpp"
#include "kexp/parallel.hpp"
#include "plugin/plugin_call.hpp"
#include "run/rehearsal.hpp"
#include "run/threads.hpp"
#include "sweep/kernel_resolution.hpp"
#include "sweep/plan.hpp"
#include "util/exit_code.hpp"

namespace kexp::cli {

namespace {

/// The parameters of `--set KEY=V`, checked against the kernel's schema as in a config.
std::string yes_no(bool v) { return v ? "yes" : "no"; }

/// A kernel that learns from the training data (flags::fitted) is fitted on the points it
/// is checked on, with zero targets, from `seed`.
/// A sequence kernel is fitted with the alphabet's size `symbols` (0 for vectors).
/// Relative paths in its parameters are resolved against `base_dir`.
void fit_if_it_learns(Kernel& kernel, bool learns, const std::string& name, const arma::mat& X,
                      std::uint64_t seed, std::size_t symbols,
                      const std::filesystem::path& base_dir) {
  if (!learns) return;
  const arma::vec y(X.n_cols, arma::fill::zeros);
  core::call_plugin("kernel", name, "fitting the kernel to the points", [&] {
    kernel.fit(KernelFitData{&X, &y, seed, symbols, base_dir});
  });
  fmt::print("(the kernel learns from data: fitted on the points below first)\n");
}

/// Prints the report of one kernel, headed by `title` ("gaussian(sigma=0.5)"); `symbols`
/// is the alphabet's size of sequences, 0 for vectors. `forms`: what the kernel declares
/// (formula, device form, exact map) against its compute() on the same points, nothing when
/// they agree (exec/kernel_consistency.hpp).
bool print_check(const std::string& title, const core::KernelCheck& r, std::uint64_t seed,
                 std::size_t symbols, bool declares, const std::optional<std::string>& forms) {
  if (symbols > 0) {
    fmt::print("kernel {} on n = {} sequences of length {} over {} symbols, uniform, seed {}\n",
               title, r.points, r.dim, symbols, seed);
  } else {
    fmt::print("kernel {} on n = {} points in d = {} dimensions, N(0, 1) entries, seed {}\n", title,
               r.points, r.dim, seed);
  }
  fmt::print("  symmetry error  max|Kij − Kji| / max|K| = {:.3g} (tolerance {:.3g}): {}\n",
             r.symmetry_error, r.tolerance, r.symmetric ? "symmetric" : "NOT symmetric");
  fmt::print("  eigenvalues     λmin = {:.6g}, λmax = {:.6g}, λmin / λmax = {:.3g}\n", r.eigen_min,
             r.eigen_max, r.eigen_min_relative);
  // The measured ratio against the threshold, in the direction that held.
  fmt::print("  PSD             {}: λmin / λmax = {:.3g} is {} −{:.3g}; declared PSD: {}\n",
             r.positive_semidefinite ? "yes" : "NO", r.eigen_min_relative,
             r.positive_semidefinite ? "at or above" : "below", r.tolerance,
             yes_no(r.declared_positive_semidefinite));
  if (r.has_map) {
    fmt::print(
        "  feature map     {}, D = {}: max|⟨φ(x), φ(z)⟩ − k(x, z)| = {:.3g}, relative to "
        "(k(x, x)·k(z, z))^½: {:.3g}{}\n",
        r.map_exact ? "exact" : "approximate", r.feature_dim, r.map_error, r.map_error_relative,
        r.map_exact ? fmt::format(" (tolerance {:.0e}: {})", r.map_tolerance,
                                  r.map_agrees ? "agrees" : "DISAGREES")
                    : std::string());
  } else {
    fmt::print("  feature map     none\n");
  }
  if (declares) {
    fmt::print("  declared forms  {}\n",
               forms ? "DISAGREE: " + *forms
                     : fmt::format("its formula, device form and exact map (those it declares) "
                                   "agree with compute() to {:.0e}",
                                   core::kConsistencyTolerance));
  }
  std::string why;
  if (!r.symmetric) why += "; the Gram matrix is not symmetric";
  if (forms) why += "; what it declares disagrees with compute()";
  if (!r.positive_semidefinite) why += "; the Gram matrix has a negative eigenvalue";
  if (r.has_map && r.map_exact && !r.map_agrees) why += "; the exact map disagrees with k";
  std::string note;
  if (r.valid() && !r.declared_positive_semidefinite)
    note = " on these points (the kernel is not PSD in general: other points may fail)";
  const bool valid = r.valid() && !forms;
  fmt::print("verdict: {}\n", valid ? "valid" + note : "NOT valid" + why);
  return valid;
}

/// Checks `kernel` on X and prints the report under `title`; whether it is valid. A
/// failure of the kernel's own code names it `name`.
bool check_and_print(const Kernel& kernel, const arma::mat& X, const std::string& name,
                     const std::string& title, std::uint64_t seed, std::size_t symbols) {
  const core::KernelCheck r = core::check_kernel(kernel, X, name);
  const bool declares = core::declares_forms(kernel);
  const std::optional<std::string> forms =
      declares ? core::kernel_disagreement(kernel, X, 0) : std::nullopt;
  return print_check(title, r, seed, symbols, declares, forms);
}

}  // namespace

void add_check_kernel_command(CLI::App& app, int& exit_code) {
  struct Args {
    std::string name;
    std::string config;
    std::string formula;
    bool psd = false;
    std::vector<std::string> set;
    std::size_t points = 200;
    std::size_t dim = 5;
    std::uint64_t seed = 1;
    std::size_t symbols = 4;
    int threads = 0;
    PluginOptions plugins;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "check-kernel",
      "Check a kernel on random points: symmetry, PSD, and its feature map against k");
  CLI::Option* name = cmd->add_option("name", args->name, "Kernel plugin name");
  CLI::Option* config =
      cmd->add_option("--config", args->config,
                      "Check every kernel variant of this experiment file instead (sums, "
                      "products, scalings and sweeps included)");
  CLI::Option* formula =
      cmd->add_option("--formula", args->formula,
                      "Check a kernel formula instead, its parameters given with --set NAME=VALUE");
  cmd->add_flag("--psd", args->psd, "With --formula: the kernel is declared PSD");
  name->excludes(config)->excludes(formula);
  config->excludes(name)->excludes(formula);
  formula->excludes(name)->excludes(config);
  cmd->add_option("--set", args->set,
                  "A parameter, KEY=VALUE (repeatable), e.g. sigma=0.5; with --config an "
                  "override of the file as in `kexp run`, e.g. kernels[0].sigma=0.5,1");
  cmd->add_option("--points", args->points, "Number of points n (default 200)")
      ->check(count_option(1, 20000, "the number of points"));
  cmd->add_option("--dim", args->dim,
                  "Their dimension d (default 5); for a kernel of sequences, their length")
      ->check(count_option(1, 100000, "their dimension"));
  cmd->add_option("--symbols", args->symbols,
                  "For a kernel of sequences: the alphabet's size (default 4)")
      ->check(count_option(1, 1000, "the alphabet's size"));
  cmd->add_option("--seed", args->seed, "Seed of the points (default 1)")
      ->check(count_option(0, std::numeric_limits<long long>::max(), "the seed of the points"));
  cmd->add_option("--threads", args->threads,
                  "Threads for the Gram matrix and BLAS (default: as `kexp run`: OMP_NUM_THREADS, "
                  "else the CPUs this process may use)")
      ->check(count_option(0, 4096, "the threads"));
  args->plugins.add_to(*cmd);
  cmd->callback([args, &exit_code] {
    if (args->threads > 0) {
      set_thread_count(args->threads);
      core::hold_blas_threads(args->threads);
    }
    // A kernel plugin's code runs in a process of its own: one that crashes is named.
    exit_code = core::run_apart(
        [&]() -> int {
          // Vectors for a vector kernel, sequences for a sequence kernel (flags::sequences).
          const auto points = [&](bool sequences) {
            return sequences
                       ? core::sample_sequences(args->dim, args->points, args->symbols, args->seed)
                       : core::sample_points(args->dim, args->points, args->seed);
          };
          if (!args->config.empty()) {
            const auto [experiment, registry] =
                args->plugins.read_experiment(args->config, args->set);
            const core::Plan plan = core::make_plan(experiment, registry);
            bool all_valid = true;
            for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
              if (k > 0) fmt::print("\n");
              const std::shared_ptr<Kernel> kernel = core::create_kernel_of(plan.kernels[k]);
              const auto plugins = core::kernel_plugins(plan.kernels[k]);
              const bool sequences = std::any_of(
                  plugins.begin(), plugins.end(),
                  [](const core::PluginRecord* p) { return p->has_flag(flags::sequences); });
              const arma::mat X = points(sequences);
              const std::size_t symbols = sequences ? args->symbols : 0;
              fit_if_it_learns(*kernel, core::kernel_is_fitted(plan.kernels[k]),
                               plan.kernels[k].name(), X, args->seed, symbols, experiment.base_dir);
              all_valid = check_and_print(*kernel, X, plan.kernels[k].canonical,
                                          plan.kernels[k].canonical, args->seed, symbols) &&
                          all_valid;
            }
            return all_valid ? core::kExitOk : core::kExitCellsFailed;
          }
          if (!args->formula.empty()) {
            std::vector<std::string> values;
            const auto kernel = formula_kernel_from(args->formula, args->set, args->psd, &values);
            std::string shown;
            const auto& names = kernel->formula().parameters();
            for (std::size_t i = 0; i < names.size(); ++i)
              shown += fmt::format("{}{}={}", i ? ", " : "", names[i], values[i]);
            const arma::mat X = points(false);
            const bool valid =
                check_and_print(*kernel, X, "formula",
                                fmt::format("\"{}\"({})", args->formula, shown), args->seed, 0);
            return valid ? core::kExitOk : core::kExitCellsFailed;
          }
          if (args->name.empty())
            throw ConfigError("check-kernel needs a kernel NAME, --formula TEXT or --config FILE");
          const core::PluginRegistry registry = args->plugins.discover();
          const core::PluginRecord& plugin = registry.find(PluginKind::Kernel, args->name);
          const Params params = parameters(plugin, args->set);
          const std::shared_ptr<Kernel> kernel = core::create_kernel(plugin, params);
          const bool sequences = plugin.has_flag(flags::sequences);
          const arma::mat X = points(sequences);
          const std::size_t symbols = sequences ? args->symbols : 0;
          fit_if_it_learns(*kernel, plugin.has_flag(flags::fitted), std::string(plugin.name()), X,
                           args->seed, symbols, std::filesystem::current_path());
          std::string shown;
          for (const auto& [key, value] : params.values()) {
            shown += fmt::format("{}{}={}", shown.empty() ? "" : ", ", key, format_value(value));
          }
          const bool valid =
              check_and_print(*kernel, X, std::string(plugin.name()),
                              fmt::format("{}({})", plugin.name(), shown), args->seed, symbols);
          return valid ? core::kExitOk : core::kExitCellsFailed;
        },
        core::plan_call_timeout_seconds());
  });
}

}  // namespace kexp::cli
