// The manifest as a run starts: the experiment and its plan, every plugin used (a sum's
// or product's terms included), the root seed and each dataset variant's seed per repeat,
// and the facts of the run (command line, shard, resume, memory budget, threads, load).
#include "run/run_manifest.hpp"

#include <set>

#include "sweep/kernel_resolution.hpp"
#include "util/files.hpp"
#include "util/measure.hpp"
#include "util/seed.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

std::uint64_t dataset_seed(std::uint64_t root, const Variant& variant, int repeat) {
  return derive_seed(root, "dataset:" + variant.canonical, static_cast<std::uint64_t>(repeat));
}

nlohmann::ordered_json plan_plugins_json(const Plan& plan) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  std::set<const PluginRecord*> seen;
  const auto add = [&](const PluginRecord* p) {
    if (seen.insert(p).second) out.push_back(plugin_json(*p));
  };
  for (const auto& v : plan.datasets) add(v.plugin);
  for (const auto& v : plan.kernels) {
    for (const PluginRecord* p : kernel_plugins(v)) add(p);  // a sum or product: its terms'
  }
  for (const auto& v : plan.solvers) add(v.plugin);
  return out;
}

Manifest run_manifest(const Experiment& e, const Plan& plan, const RunFacts& facts) {
  Manifest m;
  m.experiment = e.name;
  m.config_file = fs::absolute(e.file).lexically_normal().string();
  m.config_text = read_text_file(e.file);  // empty when it cannot be read
  m.command_line = facts.command_line;
  m.working_directory = fs::current_path().string();
  m.started = now_iso8601();
  m.environment = environment_json();
  m.root_seed = e.seed;
  m.repeats = e.repeats;
  for (const Variant& v : plan.datasets) {
    Manifest::DatasetSeeds seeds{v.canonical, {}};
    for (int r = 0; r < e.repeats; ++r) {
      seeds.seeds.push_back(std::to_string(dataset_seed(e.seed, v, r)));
    }
    m.dataset_seeds.push_back(std::move(seeds));
  }
  m.plugins = plan_plugins_json(plan);
  m.cells = plan.cells.size();
  if (facts.shard) {
    m.shard = Manifest::Shard{facts.shard->index, facts.shard->count, facts.selected_cells};
  }
  m.resumed = facts.resumed;
  m.max_memory_bytes = facts.memory_budget.value;
  m.memory_budget_source = facts.memory_budget.source;
  m.max_cell_seconds = facts.max_cell_seconds;
  m.threads = static_cast<int>(facts.threads.value);
  m.threads_source = facts.threads.source;
  m.fail_fast = facts.fail_fast;
  m.load_at_start = facts.load_at_start;
  m.cpus_online = online_cpus();
  m.predictions = e.output.predictions;
  m.inputs = to_json(facts.inputs);
  return m;
}

}  // namespace kexp::core
