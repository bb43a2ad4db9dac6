// An experiment's entries resolved (sweep/entries.hpp).
#include "sweep/entries.hpp"

#include <fmt/format.h>

#include "kexp/error.hpp"

namespace kexp::core {

namespace {

/// The plugin an entry names; a name that is not found is an error at the entry's place.
const PluginRecord& plugin_of(const PluginRegistry& registry, PluginKind kind,
                              const ComponentSpec& spec) {
  try {
    return registry.find(kind, spec.plugin);
  } catch (const PluginError& err) {
    throw ConfigError(spec.where, spec.key + ".plugin", err.what());
  }
}

ResolvedEntry resolve_entry(const PluginRegistry& registry, PluginKind kind, std::size_t component,
                            const ComponentSpec& written) {
  ResolvedEntry entry;
  entry.kind = kind;
  entry.component = component;
  if (kind == PluginKind::Kernel && written.expression) {  // a sum, product or formula
    entry.spec = written;
    entry.expression = resolve_kernel_expression(written, registry, entry.params);
    return entry;
  }
  entry.plugin = &plugin_of(registry, kind, written);
  const std::vector<ParamSpec> schema = schema_of(*entry.plugin->descriptor);
  if (kind == PluginKind::Solver) {
    if (entry.plugin->has_flag(flags::primal) == entry.plugin->has_flag(flags::dual)) {
      throw PluginError(fmt::format(
          "solver plugin '{}' ({}) must declare exactly one form, flags::primal or flags::dual",
          entry.plugin->name(), entry.plugin->path.string()));
    }
  }
  entry.spec = kind == PluginKind::Solver ? with_schema_names(schema, written) : written;
  entry.params = resolve_params(
      schema, entry.spec, fmt::format("{} plugin '{}'", to_string(kind), entry.plugin->name()));
  return entry;
}

}  // namespace

std::vector<ResolvedEntry> resolve_entries(const Experiment& e, const PluginRegistry& registry,
                                           ErrorList& errors) {
  struct Written {
    PluginKind kind;
    std::size_t component;
    const ComponentSpec* spec;
  };
  std::vector<Written> written;
  if (!e.dataset.key.empty()) written.push_back({PluginKind::Dataset, 0, &e.dataset});
  for (std::size_t k = 0; k < e.kernels.size(); ++k) {
    written.push_back({PluginKind::Kernel, k, &e.kernels[k]});
  }
  for (std::size_t s = 0; s < e.solvers.size(); ++s) {
    written.push_back({PluginKind::Solver, s, &e.solvers[s]});
  }
  std::vector<ResolvedEntry> entries;
  for (const Written& w : written) {
    errors.attempt(
        [&] { entries.push_back(resolve_entry(registry, w.kind, w.component, *w.spec)); });
  }
  return entries;
}

}  // namespace kexp::core
