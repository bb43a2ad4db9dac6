// `kexp report DIR` and `kexp merge DIR… --out DIR`: working on result folders.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "reporting/merge.hpp"
#include "reporting/summary.hpp"

namespace kexp::cli {

void add_report_command(CLI::App& app, int& exit_code) {
  auto folder = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("report", "Rebuild summary.md and plots/ of a result folder");
  cmd->add_option("folder", *folder, "The result folder")->required();
  cmd->callback([folder, &exit_code] {
    core::ResultFolder result_folder(*folder);
    result_folder.lock("kexp report");
    const auto plots = core::write_report(result_folder);
    fmt::print("wrote {}/summary.md and {} plots\n", *folder, plots.size());
    exit_code = 0;
  });
}

void add_merge_command(CLI::App& app, int& exit_code, const std::string& command_line) {
  struct Args {
    std::vector<std::string> inputs;
    std::string out;
    bool force = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "Join the result folders of a sweep's shards into one, with its summary");
  cmd->add_option("folders", args->inputs, "Result folders of the same experiment")->required();
  cmd->add_option("--out", args->out, "The merged result folder")->required();
  cmd->add_flag("--force", args->force, "Replace the --out folder if it is a result folder");
  cmd->callback([args, &exit_code, command_line] {
    core::MergeOptions o;
    for (const auto& i : args->inputs) o.inputs.emplace_back(i);
    o.out = args->out;
    o.force = args->force;
    o.command_line = command_line;
    exit_code = core::merge_results(o);
  });
}

}  // namespace kexp::cli
