#include "plugin/registry.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cstdlib>
#include <cstring>

#include "kexp/error.hpp"
#include "util/names.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

bool is_shared_library(const fs::path& file) {
  const std::string name = file.filename().string();
  return file.extension() == ".so" || name.find(".so.") != std::string::npos;
}

}  // namespace

PluginRecord load_plugin(const fs::path& file) {
  auto library = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code ec;
  library->load(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec) {
    const char* why = dlerror();
    throw PluginError(fmt::format("cannot load plugin {}: {}", file.string(),
                                  why != nullptr ? why : ec.message()));
  }
  if (!library->has(kEntrySymbol)) {
    throw PluginError(fmt::format(
        "{} is not a kexp plugin: it has no entry symbol '{}'. Build plugins with "
        "kexp_add_plugin() and KEXP_PLUGIN(), or remove this library from the plugin path",
        file.string(), kEntrySymbol));
  }
  auto& entry = library->get_alias<PluginEntry>(kEntrySymbol);
  const PluginDescriptor* descriptor = entry();
  if (descriptor == nullptr) {
    throw PluginError(
        fmt::format("plugin {}: its entry symbol returned no descriptor", file.string()));
  }
  if (descriptor->abi_version != kAbiVersion) {
    throw PluginError(fmt::format(
        "plugin {} was built for kexp plugin ABI {}, this kexp uses ABI {}; rebuild the "
        "plugin against this kexp's SDK",
        file.string(), descriptor->abi_version, kAbiVersion));
  }
  const char* fingerprint = descriptor->fingerprint != nullptr ? descriptor->fingerprint : "";
  if (std::strcmp(fingerprint, KEXP_BUILD_FINGERPRINT) != 0) {
    throw PluginError(
        fmt::format("plugin {} has build fingerprint '{}', this kexp has '{}'; rebuild the plugin "
                    "against this kexp's SDK with the same compiler and libraries",
                    file.string(), fingerprint, KEXP_BUILD_FINGERPRINT));
  }
  const PluginKind kind = descriptor->kind;
  if (kind != PluginKind::Kernel && kind != PluginKind::Solver && kind != PluginKind::Dataset) {
    throw PluginError(fmt::format("plugin {} declares an unknown kind ({})", file.string(),
                                  static_cast<unsigned>(kind)));
  }
  if (descriptor->info.name == nullptr || *descriptor->info.name == '\0' ||
      descriptor->create == nullptr || descriptor->destroy == nullptr) {
    throw PluginError(
        fmt::format("plugin {} has an incomplete descriptor (name, create and "
                    "destroy are required)",
                    file.string()));
  }
  return PluginRecord{fs::absolute(file).lexically_normal(), descriptor, std::move(library)};
}

fs::path default_plugin_folder() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return (exe.parent_path().parent_path() / KEXP_PLUGIN_RELDIR).lexically_normal();
}

std::vector<fs::path> PluginSearchPath::folders() const {
  std::vector<fs::path> out = command_line;
  if (use_environment) {
    if (const char* env = std::getenv("KEXP_PLUGIN_PATH"); env != nullptr) {
      std::string_view rest(env);
      while (!rest.empty()) {
        const auto colon = rest.find(':');
        const std::string_view part = rest.substr(0, colon);
        if (!part.empty()) out.emplace_back(std::string(part));
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
      }
    }
  }
  out.insert(out.end(), config.begin(), config.end());
  if (use_default) {
    const fs::path folder = default_plugin_folder();
    if (!folder.empty()) out.push_back(folder);
  }
  // A folder named twice is scanned once.
  std::vector<fs::path> unique;
  for (const auto& f : out) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(f, ec);
    if (ec) canonical = f;
    if (std::find(unique.begin(), unique.end(), canonical) == unique.end()) {
      unique.push_back(canonical);
    }
  }
  return unique;
}

PluginRegistry PluginRegistry::discover(const std::vector<fs::path>& folders) {
  PluginRegistry registry;
  registry.folders_ = folders;
  for (const fs::path& folder : folders) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      if (entry.is_regular_file() && is_shared_library(entry.path())) {
        files.push_back(entry.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) registry.add(load_plugin(file));
  }
  return registry;
}

void PluginRegistry::add(PluginRecord record) {
  for (const PluginRecord& other : plugins_) {
    if (other.kind() == record.kind() && other.name() == record.name()) {
      throw PluginError(fmt::format(
          "two {} plugins are named '{}':\n  {}\n  {}\nremove one or take its folder off the "
          "plugin path",
          to_string(record.kind()), record.name(), other.path.string(), record.path.string()));
    }
  }
  plugins_.push_back(std::move(record));
}

const PluginRecord& PluginRegistry::find(PluginKind kind, std::string_view name) const {
  std::vector<std::string> names;
  for (const PluginRecord& p : plugins_) {
    if (p.kind() != kind) continue;
    if (p.name() == name) return p;
    names.emplace_back(p.name());
  }
  std::sort(names.begin(), names.end());
  std::string message = fmt::format("no {} plugin named '{}'", to_string(kind), name);
  const std::string nearest = nearest_name(name, names);
  if (!nearest.empty()) message += fmt::format("; did you mean '{}'?", nearest);
  message += names.empty() ? fmt::format("\nno {} plugins were found", to_string(kind))
                           : fmt::format("\navailable {} plugins: {}", to_string(kind),
                                         fmt::join(names, ", "));
  std::vector<std::string> searched;
  for (const auto& f : folders_) searched.push_back(f.string());
  message += fmt::format("\nsearched: {}", searched.empty()
                                               ? std::string("(no folders)")
                                               : fmt::format("{}", fmt::join(searched, ", ")));
  throw PluginError(message);
}

std::vector<const PluginRecord*> PluginRegistry::named(std::string_view name) const {
  std::vector<const PluginRecord*> out;
  for (const PluginRecord& p : plugins_) {
    if (p.name() == name) out.push_back(&p);
  }
  return out;
}

namespace {

template <class Interface>
std::shared_ptr<Interface> create_object(const PluginRecord& plugin, PluginKind expected,
                                         const Params& params) {
  if (plugin.kind() != expected) {
    throw PluginError(fmt::format("plugin '{}' ({}) is a {}, not a {}", plugin.name(),
                                  plugin.path.string(), to_string(plugin.kind()),
                                  to_string(expected)));
  }
  void* raw = nullptr;
  try {
    raw = plugin.descriptor->create(params);
  } catch (const std::exception& e) {
    throw PluginError(fmt::format("{} plugin '{}' could not be created: {}",
                                  to_string(plugin.kind()), plugin.name(), e.what()));
  } catch (...) {
    throw PluginError(fmt::format("{} plugin '{}' could not be created: unknown exception",
                                  to_string(plugin.kind()), plugin.name()));
  }
  if (raw == nullptr) {
    throw PluginError(
        fmt::format("{} plugin '{}' returned no object", to_string(plugin.kind()), plugin.name()));
  }
  // The deleter holds the library: it cannot be unloaded while the object lives.
  auto library = plugin.library;
  auto destroy = plugin.descriptor->destroy;
  return std::shared_ptr<Interface>(
      static_cast<Interface*>(raw),
      [library, destroy](Interface* object) { destroy(static_cast<void*>(object)); });
}

}  // namespace

std::shared_ptr<Kernel> create_kernel(const PluginRecord& plugin, const Params& params) {
  return create_object<Kernel>(plugin, PluginKind::Kernel, params);
}

std::shared_ptr<Solver> create_solver(const PluginRecord& plugin, const Params& params) {
  return create_object<Solver>(plugin, PluginKind::Solver, params);
}

std::shared_ptr<Dataset> create_dataset(const PluginRecord& plugin, const Params& params) {
  return create_object<Dataset>(plugin, PluginKind::Dataset, params);
}

}  // namespace kexp::core
