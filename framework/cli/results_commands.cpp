// `kexp report DIR`, `kexp merge DIR… --out DIR` and `kexp diff A B`: working on result
// folders.
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "reporting/diff.hpp"
#include "reporting/merge.hpp"
#include "reporting/summary.hpp"

namespace kexp::cli {

void add_report_command(CLI::App& app, int& exit_code) {
  struct Args {
    std::string folder;
    bool html = false;
    std::string plots;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("report", "Rebuild summary.md and plots/ of a result folder");
  cmd->add_option("folder", args->folder, "The result folder")->required();
  cmd->add_flag("--html", args->html,
                "Also write report.html: findings, plots, tables and manifest in one "
                "self-contained page");
  cmd->add_option("--plots", args->plots,
                  "findings: the plots the summary's findings rest on; all: every plot "
                  "(default: the experiment's output.plots, else findings)")
      ->check(CLI::IsMember({"findings", "all"}));
  cmd->callback([args, &exit_code] {
    core::ResultFolder result_folder(args->folder);
    result_folder.require_rewritable("kexp report");  // before anything is created in it
    result_folder.lock("kexp report");
    std::optional<core::PlotSelection> plots;
    if (!args->plots.empty()) {
      plots = args->plots == "all" ? core::PlotSelection::all : core::PlotSelection::findings;
    }
    const core::ReportWritten written = core::write_report(result_folder, {}, args->html, plots);
    fmt::print("wrote {}/summary.md{} and {} plots\n", args->folder,
               written.html ? ", report.html" : "", written.plots.size());
    exit_code = 0;
  });
}

void add_merge_command(CLI::App& app, int& exit_code, const std::string& command_line) {
  struct Args {
    std::vector<std::string> inputs;
    std::string out;
    bool force = false;
    bool accept_rebuilt_plugins = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "Join the result folders of a sweep's shards into one, with its summary");
  cmd->add_option("folders", args->inputs, "Result folders of the same experiment")->required();
  cmd->add_option("--out", args->out, "The merged result folder")->required();
  cmd->add_flag("--force", args->force, "Replace the --out folder if it is a result folder");
  cmd->add_flag("--accept-rebuilt-plugins", args->accept_rebuilt_plugins,
                "Merge folders run with other builds of a plugin (refused otherwise)");
  cmd->callback([args, &exit_code, command_line] {
    core::MergeOptions o;
    o.accept_rebuilt_plugins = args->accept_rebuilt_plugins;
    for (const auto& i : args->inputs) o.inputs.emplace_back(i);
    o.out = args->out;
    o.force = args->force;
    o.command_line = command_line;
    exit_code = core::merge_results(o);
  });
}

void add_diff_command(CLI::App& app, int& exit_code) {
  struct Args {
    std::string a, b;
    double tolerance = 1e-9;
    std::size_t limit = 20;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Compare two result folders run by run: results must match (exit 1 if not), times "
      "are compared against their measured range");
  cmd->add_option("a", args->a, "A result folder")->required();
  cmd->add_option("b", args->b, "Another result folder, e.g. a regeneration of the first")
      ->required();
  cmd->add_option("--tolerance", args->tolerance,
                  "Largest relative difference of two errors that match (default 1e-9)")
      ->check(real_option(0, "the largest relative difference of two errors that match"));
  cmd->add_option("--limit", args->limit, "Lines of each kind to print (default 20)")
      ->check(count_option(1, std::numeric_limits<long long>::max(),
                           "the lines of each kind to print"));
  cmd->callback([args, &exit_code] {
    const core::ResultsDiff d = core::diff_results(core::ResultFolder(args->a),
                                                   core::ResultFolder(args->b), args->tolerance);
    fmt::print("{}", core::diff_report(d, args->a, args->b, args->limit));
    exit_code = d.same_results() ? 0 : 1;
  });
}

}  // namespace kexp::cli
