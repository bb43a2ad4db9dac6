#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "cli/commands.hpp"
#include "config/schema.hpp"
#include "kexp/device_form.hpp"
#include "kexp/formula_kernel.hpp"
#include "kexp/single.hpp"
#include "run/rehearsal.hpp"
#include "sweep/kernel_resolution.hpp"
#include "sweep/plan.hpp"
#include "util/names.hpp"
#include "util/text.hpp"

namespace kexp::cli {

using core::PluginRecord;

namespace {

/// The width to wrap at: the terminal's (COLUMNS), else 100.
std::size_t terminal_width() {
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n >= 60) return static_cast<std::size_t>(n);
  }
  return 100;
}

std::string flag_names(const PluginRecord& p) {
  std::vector<std::string> names;
  const std::pair<std::uint32_t, const char*> known[] = {
      {flags::psd_always, "psd: always"},
      {flags::psd_conditional, "psd: for some parameters"},
      {flags::psd_never, "psd: not in general"},
      {flags::exact_map, "exact feature map"},
      {flags::approximate_map, "approximate feature map"},
      {flags::fitted, "fitted to the training data"},
      {flags::sequences, "sequences over an alphabet"},
      {flags::primal, "form: primal"},
      {flags::dual, "form: dual"},
      {flags::needs_psd, "needs a PSD kernel"},
      {flags::predictive_variance, "predictive variance"},
      {flags::iterative, "iterative"},
      {flags::classifier, "classifier"},
      {flags::multiclass, "more than two classes"},
      {flags::keeps_gram, "reads K again when predicting"},
      {flags::lower_triangle, "reads one triangle of K"},
      {flags::kernel_inputs, "reaches the kernel: never holds K"},
      {flags::learns_kernel, "may learn the kernel's hyperparameters (optimize)"},
      {flags::regression, "regression"},
      {flags::classification, "classification"},
      {flags::reads_files, "reads files"},
  };
  for (const auto& [bit, name] : known) {
    if (p.has_flag(bit)) names.emplace_back(name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? "; " : "") + names[i];
  return out;
}

}  // namespace

void add_plugins_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<PluginOptions>();
  CLI::App* cmd = app.add_subcommand("plugins", "List every plugin found");
  options->add_to(*cmd);
  cmd->callback([options, &exit_code] {
    const core::PluginRegistry registry = options->discover();
    std::vector<const PluginRecord*> sorted;
    for (const auto& p : registry.plugins()) sorted.push_back(&p);
    std::sort(sorted.begin(), sorted.end(), [](const PluginRecord* a, const PluginRecord* b) {
      return std::make_pair(a->kind(), a->name()) < std::make_pair(b->kind(), b->name());
    });
    std::vector<std::vector<std::string>> rows = {{"kind", "name", "version", "path"}};
    for (const PluginRecord* p : sorted) {
      rows.push_back(
          {to_string(p->kind()), std::string(p->name()), p->info().version, p->path.string()});
    }
    fmt::print("{}", core::aligned_table(rows, terminal_width()));
    for (const core::PluginProblem& problem : registry.problems()) {
      fmt::print("invalid  {}\n  {}\n", problem.path.string(), problem.message);
    }
    if (sorted.empty()) fmt::print("(no plugins found)\n");
    std::vector<std::string> folders;
    for (const auto& f : registry.folders()) folders.push_back(f.string());
    fmt::print("opened {} {} in {}\n", registry.opened().size(),
               registry.opened().size() == 1 ? "library" : "libraries",
               folders.empty() ? std::string("(no folders)")
                               : fmt::format("{}", fmt::join(folders, ", ")));
    exit_code = 0;
  });
}

namespace {

/// How a kernel runs in float32 (precision: single, mixed) and on the GPU (device: cuda),
/// with its parameters: from its formula or converted from its float64 Gram, and by its
/// formula or device form, or refused, on the GPU (kexp::gram::single_path,
/// kexp::device_formula).
std::string float32_and_gpu(const Kernel& kernel, const char* which) {
  const bool native = gram::single_path(kernel) == gram::SinglePath::native;
  const bool formula = formula_program(kernel) != nullptr;
  const bool device = formula || device_program(kernel).has_value();
  return fmt::format(
      "float32 and GPU ({}): {}; {}", which,
      native ? "by its formula — its float32 Gram is computed in float32 over SGEMM blocks"
             : "no formula — its float32 Gram is its float64 Gram rounded (gram_converted = 1, "
               "no time saved on K)",
      formula  ? "device: cuda runs it by its formula, the same program"
      : device ? "device: cuda runs it by its device form"
               : "device: cuda is refused (no formula, no device form)");
}

std::string float32_and_gpu(const PluginRecord& plugin) {
  std::shared_ptr<Kernel> kernel;
  try {
    kernel = core::create_kernel(plugin, parameters(plugin, {}));
  } catch (const std::exception&) {
    return "float32 and GPU: depend on the parameters (it has no defaults for all of them)";
  }
  return float32_and_gpu(*kernel, "default parameters");
}

/// A formula kernel described: its formula, parameters, program and paths.
void describe_formula(const std::string& title, const FormulaKernel& kernel,
                      const std::vector<std::string>& values) {
  fmt::print("kernel {}\n  formula: {}\n", title, kernel.formula().text());
  const auto& names = kernel.formula().parameters();
  fmt::print("  parameters: {}\n",
             names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", ")));
  fmt::print("  psd: {}\n", kernel.positive_semidefinite() ? "declared" : "not declared");
  std::string with;
  for (std::size_t i = 0; i < names.size(); ++i)
    with += fmt::format("{}{} = {}", i ? ", " : "", names[i], values[i]);
  fmt::print("\n  program{} (the {} engine runs it on this CPU):\n",
             with.empty() ? "" : " with " + with, formula_engine_isa());
  const std::string listing = formula_listing(*kernel.formula_program());
  std::size_t at = 0;
  while (at < listing.size()) {
    const std::size_t end = listing.find('\n', at);
    fmt::print("    {}\n", listing.substr(at, end - at));
    at = end == std::string::npos ? listing.size() : end + 1;
  }
  fmt::print("\n{}\n", core::aligned_table({{float32_and_gpu(kernel, "these parameters")}},
                                           terminal_width(), 2));
}

}  // namespace

void add_describe_command(CLI::App& app, int& exit_code) {
  struct Args {
    std::string name;
    std::string formula;
    std::string config;
    std::vector<std::string> set;
    bool psd = false;
    PluginOptions plugins;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "describe", "Print a plugin's summary and parameters, or a kernel formula's program");
  CLI::Option* name = cmd->add_option(
      "name", args->name, "Plugin name, or kind/name (kernel/cubic) when two kinds share it");
  CLI::Option* formula = cmd->add_option(
      "--formula", args->formula,
      "A kernel formula instead, e.g. \"(1 + r2 / (2 * alpha * l^2))^(-alpha)\": its parameters "
      "and program");
  CLI::Option* config = cmd->add_option(
      "--config", args->config, "Describe the kernels written as formulas in this experiment file");
  cmd->add_option("--set", args->set,
                  "With --formula: a parameter's value, KEY=VALUE (repeatable); with --config, an "
                  "override of the file as in `kexp run`");
  cmd->add_flag("--psd", args->psd, "With --formula: the kernel is declared PSD");
  name->excludes(formula)->excludes(config);
  formula->excludes(config);
  args->plugins.add_to(*cmd);
  cmd->callback([args, &exit_code] {
    if (!args->formula.empty()) {
      std::vector<std::string> values;
      const auto kernel = formula_kernel_from(args->formula, args->set, args->psd, &values);
      describe_formula("(formula)", *kernel, values);
      exit_code = 0;
      return;
    }
    if (args->name.empty() && args->config.empty()) {
      throw ConfigError("describe needs a plugin NAME, --formula TEXT or --config FILE");
    }
    // A kernel is created to say how it runs: its code runs in a process of its own.
    exit_code = core::run_apart(
        [&] {
          if (!args->config.empty()) {
            const auto [experiment, registry] =
                args->plugins.read_experiment(args->config, args->set);
            const core::Plan plan = core::make_plan(experiment, registry);
            std::vector<bool> described(experiment.kernels.size(), false);
            for (const core::Variant& v : plan.kernels) {
              if (described[v.component]) continue;
              described[v.component] = true;
              const std::string& key = experiment.kernels[v.component].key;
              const std::shared_ptr<Kernel> kernel = core::create_kernel_of(v);
              const auto* f = dynamic_cast<const FormulaKernel*>(kernel.get());
              if (f == nullptr) {
                fmt::print("{}: {} (kexp describe NAME for a plugin)\n{}\n\n", key, v.name(),
                           core::aligned_table({{float32_and_gpu(*kernel, "its first variant")}},
                                               terminal_width(), 2));
                continue;
              }
              std::vector<std::string> values;
              for (const std::string& p : f->formula().parameters())
                values.push_back(format_value(v.params.value(p)));
              describe_formula(fmt::format("{} ({}, its first variant)", v.name(), key), *f,
                               values);
              fmt::print("\n");
            }
            return 0;
          }
          const core::PluginRegistry registry = args->plugins.discover();
          std::vector<const PluginRecord*> found;
          const auto slash = args->name.find('/');
          if (slash != std::string::npos) {
            const std::string kind = args->name.substr(0, slash);
            const std::string name = args->name.substr(slash + 1);
            for (PluginKind k : {PluginKind::Kernel, PluginKind::Solver, PluginKind::Dataset}) {
              if (kind == to_string(k)) found.push_back(&registry.find(k, name));
            }
            if (found.empty())
              throw ConfigError(
                  fmt::format("unknown plugin kind '{}' (kernel, solver or dataset)", kind));
          } else {
            found = registry.named(args->name);
          }
          if (found.empty()) {
            std::vector<std::string> names;
            for (const auto& p : registry.plugins()) names.emplace_back(p.name());
            std::string message = fmt::format("no plugin named '{}'", args->name);
            const std::string near = core::nearest_name(args->name, names);
            if (!near.empty()) message += fmt::format("; did you mean '{}'?", near);
            std::sort(names.begin(), names.end());
            std::string all;
            for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
            message += fmt::format("\navailable: {}", all.empty() ? "(none)" : all);
            std::vector<std::string> folders;
            for (const auto& f : registry.folders()) folders.push_back(f.string());
            message += fmt::format("\nsearched: {}",
                                   folders.empty() ? std::string("(no folders)")
                                                   : fmt::format("{}", fmt::join(folders, ", ")));
            throw PluginError(message);
          }
          for (const PluginRecord* p : found) {
            fmt::print(
                "{} {} {}\n{}  file: {}\n", to_string(p->kind()), p->name(), p->info().version,
                core::aligned_table({{p->info().summary}}, terminal_width(), 2), p->path.string());
            const std::string f = flag_names(*p);
            if (!f.empty()) fmt::print("  {}\n", f);
            const std::vector<ParamSpec> schema = core::schema_of(*p->descriptor);
            if (schema.empty()) {
              fmt::print("  no parameters\n");
            } else {
              std::vector<std::vector<std::string>> rows = {
                  {"parameter", "type", "default", "bounds", "doc"}};
              for (const ParamSpec& s : schema) {
                std::string bounds = core::describe_bounds(s);
                if (s.choices != nullptr) bounds = std::string("one of ") + s.choices;
                if (s.log_scale_hint) bounds += bounds.empty() ? "log scale" : ", log scale";
                rows.push_back({s.name, to_string(s.type),
                                s.default_value != nullptr ? s.default_value : "(required)", bounds,
                                s.doc});
              }
              fmt::print("\n{}", core::aligned_table(rows, terminal_width(), 2));
            }
            if (p->kind() == PluginKind::Kernel) {
              fmt::print("\n{}", core::aligned_table({{float32_and_gpu(*p)}}, terminal_width(), 2));
            }
            if (p->info().metric_count > 0) {
              fmt::print("\n  metrics:");
              for (std::size_t i = 0; i < p->info().metric_count; ++i)
                fmt::print(" {}", p->info().metrics[i]);
              fmt::print("\n");
            }
            fmt::print("\n");
          }
          return 0;
        },
        core::plan_call_timeout_seconds());
  });
}

}  // namespace kexp::cli
