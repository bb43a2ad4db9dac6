// kexp: runs experiments with kernel methods from YAML, loading kernels, solvers and
// datasets as plugins. Exit codes: 0 all cells ok, 1 some cells failed, 2 usage or
// configuration error (nothing ran).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <new>

#include "cli/commands.hpp"
#include "kexp/error.hpp"
#include "kexp/version.hpp"
#include "util/blas_core.hpp"
#include "util/exit_code.hpp"

int main(int argc, char** argv) {
  kexp::core::select_blas_core(argv);
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"kexp " KEXP_VERSION_STRING
               " — experiments with kernel methods: primal and dual, side by side"};
  app.set_version_flag("--version", KEXP_VERSION_STRING);
  app.require_subcommand(1);
  int exit_code = kexp::core::kExitOk;
  kexp::cli::add_run_command(app, exit_code, command_line);
  kexp::cli::add_plugins_command(app, exit_code);
  kexp::cli::add_describe_command(app, exit_code);
  kexp::cli::add_report_command(app, exit_code);
  kexp::cli::add_merge_command(app, exit_code, command_line);
  kexp::cli::add_diff_command(app, exit_code);
  kexp::cli::add_check_kernel_command(app, exit_code);
  kexp::cli::add_machine_command(app, exit_code);
  kexp::cli::add_help_command(app, exit_code);

  try {
    if (const auto unknown = kexp::cli::unknown_command(app, argc, argv)) {
      std::cerr << "kexp: error: " << *unknown << '\n';
      return kexp::core::kExitUsage;
    }
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    std::vector<std::string> extras = app.remaining();
    for (const CLI::App* sub : app.get_subcommands()) {
      const auto more = sub->remaining();
      extras.insert(extras.end(), more.begin(), more.end());
    }
    std::cerr << "kexp: error: " << kexp::cli::unknown_options(app, extras) << '\n';
    return kexp::core::kExitUsage;
  } catch (const CLI::ValidationError& e) {
    // A value an option refused, said as every other error is.
    std::cerr << "kexp: error: " << e.what() << '\n';
    return kexp::core::kExitUsage;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kexp::core::kExitUsage;
  } catch (const kexp::Error& e) {
    std::cerr << "kexp: error: " << e.what() << '\n';
    return kexp::core::kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "kexp: error: out of memory (std::bad_alloc) outside any dataset or cell; free "
                 "memory or run a smaller experiment\n";
    return kexp::core::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "kexp: internal error: " << e.what() << '\n';
    return kexp::core::kExitUsage;
  } catch (...) {
    std::cerr << "kexp: internal error: unknown exception\n";
    return kexp::core::kExitUsage;
  }
  return exit_code;
}
