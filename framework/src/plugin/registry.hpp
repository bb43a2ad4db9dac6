// Plugin discovery and loading.
//
// Every shared library in a plugin folder must be a kexp plugin. Each is opened with
// RTLD_NOW | RTLD_LOCAL (an unresolved symbol is an error at load, naming it), its
// descriptor's ABI version and build fingerprint are checked before anything else is
// read, and names must be unique within a kind. An object a plugin creates holds a
// reference to the library, so the library stays loaded while the object lives.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kexp/plugin.hpp"

namespace boost::dll {
class shared_library;
}

namespace kexp::core {

/// A loaded plugin library and its descriptor.
struct PluginRecord {
  std::filesystem::path path;
  const PluginDescriptor* descriptor = nullptr;
  std::shared_ptr<boost::dll::shared_library> library;

  [[nodiscard]] PluginKind kind() const { return descriptor->kind; }
  [[nodiscard]] const PluginInfo& info() const { return descriptor->info; }
  [[nodiscard]] std::string_view name() const { return descriptor->info.name; }
  [[nodiscard]] bool has_flag(std::uint32_t flag) const { return (info().flags & flag) != 0; }
};

/// Opens one library and checks its entry symbol, ABI version and fingerprint.
/// Throws PluginError saying what is wrong and what to do.
PluginRecord load_plugin(const std::filesystem::path& file);

/// Where plugins are looked for, in order: the command line's --plugin-path, then
/// KEXP_PLUGIN_PATH (':'-separated), then the experiment's plugin_path, then the
/// default folder next to the `kexp` program (<prefix>/<libdir>/kexp/plugins).
struct PluginSearchPath {
  std::vector<std::filesystem::path> command_line;
  std::vector<std::filesystem::path> config;
  bool use_environment = true;
  bool use_default = true;

  [[nodiscard]] std::vector<std::filesystem::path> folders() const;
};

/// The default plugin folder of this `kexp` program.
std::filesystem::path default_plugin_folder();

class PluginRegistry {
 public:
  /// Loads every plugin in the folders. Throws PluginError on the first library that
  /// is not a loadable kexp plugin and on two plugins of one kind with the same name.
  static PluginRegistry discover(const std::vector<std::filesystem::path>& folders);

  /// Adds a loaded plugin; throws PluginError when its kind and name are taken.
  void add(PluginRecord record);

  /// The plugin of this kind and name; throws PluginError listing the plugins of that
  /// kind and the nearest name.
  [[nodiscard]] const PluginRecord& find(PluginKind kind, std::string_view name) const;

  /// All plugins with this name, of any kind.
  [[nodiscard]] std::vector<const PluginRecord*> named(std::string_view name) const;

  [[nodiscard]] const std::vector<PluginRecord>& plugins() const { return plugins_; }
  [[nodiscard]] const std::vector<std::filesystem::path>& folders() const { return folders_; }

 private:
  std::vector<PluginRecord> plugins_;
  std::vector<std::filesystem::path> folders_;
};

/// Creates the plugin's object from validated parameters. The returned pointer keeps the
/// library loaded. Wraps an exception from the plugin's factory in a PluginError that
/// names the plugin.
std::shared_ptr<Kernel> create_kernel(const PluginRecord& plugin, const Params& params);
std::shared_ptr<Solver> create_solver(const PluginRecord& plugin, const Params& params);
std::shared_ptr<Dataset> create_dataset(const PluginRecord& plugin, const Params& params);

}  // namespace kexp::core
