// Fuzzing the experiment file: arbitrary bytes as experiment.yaml are parsed and, when
// they parse, checked against the plugins' schemas and expanded into the sweep, as
// `kexp run --dry-run` does. Each input must end in a plan or a kexp::Error (a
// ConfigError or PluginError naming the file); anything else (a crash, another exception,
// a sweep past its limit, a hang, memory without bound) stops the fuzzer. Only the
// plugins' descriptors are read: no plugin code but a library's static constructors runs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/experiment.hpp"
#include "kexp/error.hpp"
#include "plugin/registry.hpp"
#include "sweep/plan.hpp"

namespace {

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "config_fuzz: broken invariant: %s\n", what);
  std::abort();
}

/// The plugins of KEXP_FUZZ_PLUGIN_DIR, else those of this build.
const kexp::core::PluginRegistry& registry() {
  static const kexp::core::PluginRegistry r = [] {
    const char* dir = std::getenv("KEXP_FUZZ_PLUGIN_DIR");
    return kexp::core::PluginRegistry::discover({dir != nullptr ? dir : KEXP_FUZZ_PLUGIN_DIR});
  }();
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  try {
    const kexp::core::Experiment e = kexp::core::parse_experiment(text, "fuzz.yaml");
    require(!e.kernels.empty() && !e.solvers.empty(), "a kernel and a solver");
    require(e.repeats >= 1, "at least one repeat");
    const kexp::core::Plan plan = kexp::core::make_plan(e, registry());
    require(plan.cells.size() <= e.max_cells, "no more cells than the limit");
    for (const auto& cell : plan.cells) {
      require(cell.id.size() == 16, "a cell id of 16 hex digits");
      require(cell.dataset < plan.datasets.size() && cell.kernel < plan.kernels.size() &&
                  cell.solver < plan.solvers.size(),
              "a cell's variants exist");
    }
  } catch (const kexp::Error& error) {
    const std::string message = error.what();
    require(!message.empty(), "an error says something");
  }
  return 0;
}
