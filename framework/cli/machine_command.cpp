// `kexp machine`: the machine's own limits (DGEMM, a vectorised exp, memory writes, the
// processors), measured once and kept, so that every run's manifest records them and its
// summary states each cost as a fraction of them.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"
#include "util/machine.hpp"

namespace kexp::cli {

namespace {

void print_limits(const core::MachineLimits& m, const std::string& file, bool measured_now) {
  fmt::print("{} ({} processors), OpenBLAS {} kernels\n", m.cpu.empty() ? "CPU" : m.cpu, m.cpus,
             m.blas_core);
  fmt::print("{} {} in {:.1f} s; kept in {}\n\n", measured_now ? "measured" : "measured on",
             m.measured, m.seconds, file);
  const auto row = [](const char* what, double one, double all, const char* unit) {
    fmt::print("  {:<28} {:>10.3g} {:>10.3g}  {}\n", what, one, all, unit);
  };
  fmt::print("  {:<28} {:>10} {:>10}\n", "", "1 thread", fmt::format("{} threads", m.all.threads));
  row("DGEMM, n = 2048", m.one.dgemm_flops_per_second / 1e9, m.all.dgemm_flops_per_second / 1e9,
      "GFLOP/s");
  row(("exp (" + m.exp_function + ")").c_str(), m.one.exp_per_second / 1e9,
      m.all.exp_per_second / 1e9, "G values/s");
  row("memory writes", m.one.write_bytes_per_second / 1e9, m.all.write_bytes_per_second / 1e9,
      "GB/s");
  row("Gaussian Gram bound, d = 10", core::gram_entry_bound(m.one, 10) / 1e9,
      core::gram_entry_bound(m.all, 10) / 1e9, "G entries/s");
  if (const std::string busy = core::busy_measurement_warning(m); !busy.empty()) {
    fmt::print(stderr,
               "\nkexp: {}; these limits are too low: measure again on an idle machine "
               "(kexp machine --measure)\n",
               busy);
  }
}

}  // namespace

void add_machine_command(CLI::App& app, int& exit_code) {
  struct Args {
    bool measure = false;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "machine",
      "Measure this machine's limits once (DGEMM, exp, memory writes) and keep them: every "
      "run records them and its summary states each cost against them");
  cmd->add_flag("--measure", args->measure,
                "Measure again even when this machine's limits are kept (run it on an idle "
                "machine)");
  cmd->add_flag("--json", args->json, "Print the limits as JSON");
  cmd->footer(
      "The limits are kept in $KEXP_MACHINE_FILE, or else $XDG_CACHE_HOME/kexp/machine.json "
      "or ~/.cache/kexp/machine.json, one entry per host, CPU, processor count and BLAS "
      "kernels.");
  cmd->callback([args, &exit_code] {
    const auto file = core::machine_file();
    std::optional<core::MachineLimits> limits;
    if (!args->measure) limits = core::cached_machine(file);
    const bool measured_now = !limits;
    if (measured_now) {
      limits = core::measure_machine();
      core::cache_machine(file, *limits);
    }
    if (args->json) {
      fmt::print("{}\n", core::to_json(*limits).dump(2));
    } else {
      print_limits(*limits, file.string(), measured_now);
    }
    exit_code = 0;
  });
}

}  // namespace kexp::cli
