// Finding, opening and checking plugin libraries: the search folders, discovery that
// opens nothing, a plugin looked up by its file name first and then by opening the
// others, the ABI and fingerprint checks, name collisions, and creating a plugin's
// objects, each checked against the flags its descriptor declares.
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
#include "plugin/plugin_call_trace.hpp"
#include "plugin/probe.hpp"
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
    throw NotAPluginError(fmt::format(
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

std::string plugin_file_name(PluginKind kind, std::string_view name) {
  return fmt::format("libkexp_{}_{}.so", to_string(kind), name);
}

PluginRegistry PluginRegistry::discover(const std::vector<fs::path>& folders, WarningSink warn) {
  PluginRegistry registry;
  registry.folders_ = folders;
  registry.sink_ = std::move(warn);
  for (const fs::path& folder : folders) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      registry.warn(
          fmt::format("plugin folder {} does not exist (or is not a folder); it is "
                      "skipped: check --plugin-path, KEXP_PLUGIN_PATH and plugin_path",
                      folder.string()));
      continue;
    }
    std::vector<fs::path> files;
    // Every step with an error code: an entry that cannot be followed (a symbolic link
    // in a loop, a dangling one, one without permission) is a warning, not an error of
    // the whole command.
    fs::directory_iterator it(folder, ec);
    for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
      const fs::path& path = it->path();
      std::error_code entry_ec;
      const bool regular = it->is_regular_file(entry_ec);
      if (entry_ec) {
        registry.warn(
            fmt::format("skipping {}: it cannot be followed ({}); remove it or fix "
                        "the link",
                        path.string(), entry_ec.message()));
        continue;
      }
      if (regular && is_shared_library(path)) {
        files.push_back(fs::absolute(path).lexically_normal());
      }
    }
    if (ec) {
      registry.warn(
          fmt::format("plugin folder {} could not be read to the end ({}); the "
                      "libraries after that point are skipped",
                      folder.string(), ec.message()));
    }
    std::sort(files.begin(), files.end());
    registry.libraries_.insert(registry.libraries_.end(), files.begin(), files.end());
  }
  return registry;
}

void PluginRegistry::warn(const std::string& message) const {
  if (sink_) {
    sink_(message);
  } else {
    warnings_.push_back(message);
  }
}

namespace {

/// Whether `file` lies in this program's own plugin folder (a built-in plugin).
bool built_in(const fs::path& file) {
  const fs::path folder = default_plugin_folder();
  if (folder.empty()) return false;
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(file.parent_path(), ec);
  const fs::path b = fs::weakly_canonical(folder, ec);
  return !ec && a == b;
}

/// Two libraries declare one plugin. When one of them is kexp's own, the other is the
/// user's, who should rename it: kexp's built-ins grow from release to release.
std::string collision_message(PluginKind kind, std::string_view name, const fs::path& a,
                              const fs::path& b) {
  const bool a_built_in = built_in(a), b_built_in = built_in(b);
  if (a_built_in != b_built_in) {
    const fs::path& mine = a_built_in ? b : a;
    const fs::path& kexps = a_built_in ? a : b;
    return fmt::format(
        "'{}' is the name of a built-in {} plugin of kexp ({}), and your plugin {} declares "
        "it too: rename yours, in its PluginInfo and its library's file name (for example "
        "'my_{}', {}), or take its folder off the plugin path (CHANGELOG.md lists the names "
        "each release adds)",
        name, to_string(kind), kexps.string(), mine.string(), name,
        plugin_file_name(kind, "my_" + std::string(name)));
  }
  return fmt::format(
      "two {} plugins are named '{}':\n  {}\n  {}\nremove one or take its folder off the "
      "plugin path",
      to_string(kind), name, a.string(), b.string());
}

std::string collision_message(const PluginRecord& a, const fs::path& b) {
  return collision_message(a.kind(), a.name(), a.path, b);
}

}  // namespace

void PluginRegistry::add(PluginRecord record) {
  if (const PluginRecord* other = loaded(record.kind(), record.name())) {
    throw PluginError(collision_message(*other, record.path));
  }
  plugins_.push_back(std::move(record));
}

const PluginRecord* PluginRegistry::loaded(PluginKind kind, std::string_view name) const {
  for (const PluginRecord& p : plugins_) {
    if (p.kind() == kind && p.name() == name) return &p;
  }
  return nullptr;
}

const PluginRecord* PluginRegistry::open(const fs::path& file) const {
  if (std::find(opened_.begin(), opened_.end(), file) != opened_.end()) {
    if (const auto it = failed_.find(file); it != failed_.end()) throw PluginError(it->second);
    for (const PluginRecord& p : plugins_) {
      if (p.path == file) return &p;
    }
    return nullptr;  // not a plugin, or the second of two that share a name
  }
  opened_.push_back(file);
  PluginRecord record;
  try {
    const bool own = built_in(file);
    if (!own) require_probe_loads(file);  // a library not kexp's own, apart first
    record = load_plugin(file);
    record.built_in = own;
  } catch (const NotAPluginError&) {
    warn(
        fmt::format("skipping {}: not a kexp plugin (it has no entry symbol '{}'); a plugin's "
                    "helper library may sit beside it",
                    file.string(), kEntrySymbol));
    return nullptr;
  } catch (const PluginError& e) {
    failed_[file] = e.what();
    problems_.push_back({file, e.what()});
    throw;
  }
  if (validate_) {
    if (const std::vector<std::string> wrong = validate_(*record.descriptor); !wrong.empty()) {
      std::string message =
          fmt::format("plugin {} ({} '{}') has an invalid descriptor:", file.string(),
                      to_string(record.kind()), record.name());
      for (const std::string& w : wrong) message += "\n  - " + w;
      message += "\nfix the plugin's descriptor and rebuild it";
      failed_[file] = message;
      problems_.push_back({file, message});
      throw PluginError(message);
    }
  }
  if (const PluginRecord* other = loaded(record.kind(), record.name())) {
    std::string message = collision_message(*other, file);
    collisions_[{record.kind(), std::string(record.name())}] = message;
    problems_.push_back({file, message});
    throw PluginError(message);
  }
  plugins_.push_back(std::move(record));
  return &plugins_.back();
}

void PluginRegistry::open_all() const {
  if (all_opened_) return;
  all_opened_ = true;
  for (const fs::path& file : libraries_) {
    if (std::find(opened_.begin(), opened_.end(), file) != opened_.end()) continue;
    try {
      (void)open(file);
    } catch (const PluginError& e) {
      warn(fmt::format("skipping {}: {}", file.string(), e.what()));
    }
  }
}

const std::deque<PluginRecord>& PluginRegistry::plugins() const {
  open_all();
  return plugins_;
}

const PluginRecord& PluginRegistry::find(PluginKind kind, std::string_view name) const {
  const std::pair<PluginKind, std::string> key{kind, std::string(name)};
  if (const auto it = collisions_.find(key); it != collisions_.end()) {
    throw PluginError(it->second);
  }
  if (const PluginRecord* p = loaded(kind, name)) return *p;
  // By file name first: only that library is opened.
  const std::string file_name = plugin_file_name(kind, name);
  std::vector<fs::path> named_for;
  for (const fs::path& file : libraries_) {
    if (file.filename() == file_name) named_for.push_back(file);
  }
  if (named_for.size() > 1) {
    throw PluginError(collision_message(kind, name, named_for[0], named_for[1]));
  }
  if (named_for.size() == 1) {
    if (const PluginRecord* p = open(named_for.front())) {
      if (p->kind() != kind || p->name() != name) {
        throw PluginError(fmt::format(
            "{} is named for the {} plugin '{}' but declares the {} plugin '{}'; rename the "
            "library to {}",
            p->path.string(), to_string(kind), name, to_string(p->kind()), p->name(),
            plugin_file_name(p->kind(), p->name())));
      }
      return *p;
    }
  }
  // Otherwise whichever library declares it: open them all.
  open_all();
  if (const auto it = collisions_.find(key); it != collisions_.end()) {
    throw PluginError(it->second);
  }
  if (const PluginRecord* p = loaded(kind, name)) return *p;
  std::vector<std::string> names;
  for (const PluginRecord& p : plugins_) {
    if (p.kind() == kind) names.emplace_back(p.name());
  }
  std::sort(names.begin(), names.end());
  std::string message = fmt::format("no {} plugin named '{}'", to_string(kind), name);
  message += did_you_mean(name, names);
  message += names.empty() ? fmt::format("\nno {} plugins were found", to_string(kind))
                           : fmt::format("\navailable {} plugins: {}", to_string(kind),
                                         fmt::join(names, ", "));
  for (const PluginProblem& problem : problems_) {
    message += fmt::format("\n{} could not be loaded: {}", problem.path.string(), problem.message);
  }
  std::vector<std::string> searched;
  for (const auto& f : folders_) searched.push_back(f.string());
  message += fmt::format("\nsearched: {}", searched.empty()
                                               ? std::string("(no folders)")
                                               : fmt::format("{}", fmt::join(searched, ", ")));
  throw PluginError(message);
}

std::vector<const PluginRecord*> PluginRegistry::named(std::string_view name) const {
  std::vector<const PluginRecord*> out;
  for (const PluginRecord& p : plugins()) {
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
  const PluginCallNote note(fmt::format("creating an object of {} plugin '{}' ({})",
                                        to_string(plugin.kind()), plugin.name(),
                                        plugin.path.filename().string()));
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
  std::shared_ptr<Kernel> kernel = create_object<Kernel>(plugin, PluginKind::Kernel, params);
  if (plugin.has_flag(flags::exact_map) && kernel->feature_map() == nullptr) {
    throw PluginError(fmt::format(
        "kernel plugin '{}' ({}) declares flags::exact_map but its feature_map() returns none; "
        "return the map, or drop the flag",
        plugin.name(), plugin.path.string()));
  }
  if (!plugin.has_flag(flags::fitted)) {
    // Fitted on a second object: the one returned stays as the plugin made it.
    const std::shared_ptr<Kernel> probe = create_object<Kernel>(plugin, PluginKind::Kernel, params);
    if (detail::overrides_compute_fit(*probe)) {
      throw PluginError(fmt::format(
          "kernel plugin '{}' ({}) overrides compute_fit() but does not declare "
          "flags::fitted, so kexp would never fit it and every cell would use it unfitted; "
          "add flags::fitted to its PluginInfo flags, or remove compute_fit()",
          plugin.name(), plugin.path.string()));
    }
  }
  if (plugin.has_flag(flags::sequences) && !plugin.has_flag(flags::fitted)) {
    throw PluginError(fmt::format(
        "kernel plugin '{}' ({}) declares flags::sequences but not flags::fitted; a sequence "
        "kernel learns the alphabet's size in fit(): add flags::fitted",
        plugin.name(), plugin.path.string()));
  }
  return kernel;
}

std::shared_ptr<Solver> create_solver(const PluginRecord& plugin, const Params& params) {
  return create_object<Solver>(plugin, PluginKind::Solver, params);
}

std::shared_ptr<Dataset> create_dataset(const PluginRecord& plugin, const Params& params) {
  return create_object<Dataset>(plugin, PluginKind::Dataset, params);
}

void check_dataset_alphabet(const PluginRecord& plugin, const std::vector<std::string>& alphabet) {
  const bool declared = plugin.has_flag(flags::sequences);
  if (declared != alphabet.empty()) return;
  throw DataError(fmt::format(
      "dataset plugin '{}' ({}) {} flags::sequences but returned {} alphabet; a sequence "
      "dataset declares the flag and fills Data::alphabet, a vector dataset does neither",
      plugin.name(), plugin.path.string(), declared ? "declares" : "does not declare",
      alphabet.empty() ? "no" : "an"));
}

}  // namespace kexp::core
