// Plugin discovery and loading.
//
// Discovery lists the shared libraries of the plugin folders and opens none. A plugin is
// opened when it is asked for, found first by its file name, libkexp_<kind>_<name>.so;
// only a name no file is named for makes the registry open the other libraries of the
// folders to read their descriptors (as `kexp plugins` does). Opening a library runs its
// static constructors, so a run opens only the libraries it needs.
//
// Each library is opened with RTLD_NOW | RTLD_LOCAL (an unresolved symbol is an error at
// load, naming it), its descriptor's ABI version and build fingerprint are checked before
// anything else is read, and names must be unique within a kind. A library without kexp's
// entry symbol (a plugin's helper library) is skipped with a warning. An object a plugin
// creates holds a reference to the library, so the library stays loaded while the object
// lives. What a plugin's objects give is checked against the flags its descriptor declares:
// a kernel's feature map when it is created, a dataset's alphabet when its data is loaded.
#pragma once

#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kexp/error.hpp"
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
  /// From kexp's own plugin folder (default_plugin_folder), not a user's.
  bool built_in = false;

  [[nodiscard]] PluginKind kind() const { return descriptor->kind; }
  [[nodiscard]] const PluginInfo& info() const { return descriptor->info; }
  [[nodiscard]] std::string_view name() const { return descriptor->info.name; }
  [[nodiscard]] bool has_flag(std::uint32_t flag) const { return (info().flags & flag) != 0; }
};

/// What load_plugin throws for a library that has no kexp entry symbol: not a plugin at
/// all (a helper library beside one), as opposed to a broken plugin.
class NotAPluginError : public PluginError {
 public:
  using PluginError::PluginError;
};

/// Opens one library and checks its entry symbol, ABI version and fingerprint.
/// Throws PluginError saying what is wrong and what to do (NotAPluginError when the
/// library has no entry symbol).
PluginRecord load_plugin(const std::filesystem::path& file);

/// The file name a plugin of this kind and name is looked for under first:
/// libkexp_<kind>_<name>.so (what kexp_add_plugin(NAME KIND kind) builds).
std::string plugin_file_name(PluginKind kind, std::string_view name);

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

/// A library of the plugin folders that could not be loaded, and why.
struct PluginProblem {
  std::filesystem::path path;
  std::string message;
};

class PluginRegistry {
 public:
  using WarningSink = std::function<void(const std::string&)>;
  /// What is wrong with a descriptor, a problem a line (config/schema's
  /// descriptor_problems): a plugin with problems is refused when it is opened.
  using Validator = std::function<std::vector<std::string>(const PluginDescriptor&)>;

  /// Lists the libraries of the folders, in order, and opens none. A folder that does
  /// not exist is a warning naming it. Warnings go to `warn` (none: kept in warnings()).
  static PluginRegistry discover(const std::vector<std::filesystem::path>& folders,
                                 WarningSink warn = {});

  /// Adds a loaded plugin; throws PluginError when its kind and name are taken.
  void add(PluginRecord record);

  /// Checks every descriptor opened from now on with `validate`.
  void set_validator(Validator validate) { validate_ = std::move(validate); }

  /// The plugin of this kind and name, opened on first use: the library named for it
  /// (plugin_file_name) in the first folder that has one, else whichever library of the
  /// folders declares it. Throws PluginError when it is not found (listing the plugins of
  /// that kind, the nearest name and the folders searched), when its library is broken,
  /// and when two libraries declare it.
  [[nodiscard]] const PluginRecord& find(PluginKind kind, std::string_view name) const;

  /// All plugins with this name, of any kind (opens every library).
  [[nodiscard]] std::vector<const PluginRecord*> named(std::string_view name) const;

  /// Every plugin of the folders (opens every library; the ones that cannot be loaded
  /// are in problems()).
  [[nodiscard]] const std::deque<PluginRecord>& plugins() const;
  /// The libraries that are broken plugins or collide with another, after plugins().
  [[nodiscard]] const std::vector<PluginProblem>& problems() const { return problems_; }
  /// Every library opened so far, in the order it was opened.
  [[nodiscard]] const std::vector<std::filesystem::path>& opened() const { return opened_; }
  [[nodiscard]] const std::vector<std::filesystem::path>& folders() const { return folders_; }
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  const PluginRecord* loaded(PluginKind kind, std::string_view name) const;
  /// Opens `file` unless it was opened already; records a non-plugin as a warning.
  /// Returns the record, or nullptr for a library that is not a plugin.
  const PluginRecord* open(const std::filesystem::path& file) const;
  void open_all() const;
  void warn(const std::string& message) const;

  std::vector<std::filesystem::path> folders_;
  std::vector<std::filesystem::path> libraries_;  ///< every library, in search order
  WarningSink sink_;
  Validator validate_;
  // Opening is lazy, behind const lookups; a deque keeps the references find() returned.
  mutable std::deque<PluginRecord> plugins_;
  mutable std::vector<std::filesystem::path> opened_;
  mutable std::map<std::filesystem::path, std::string> failed_;  ///< path → why
  mutable std::vector<PluginProblem> problems_;
  mutable std::map<std::pair<PluginKind, std::string>, std::string> collisions_;
  mutable std::vector<std::string> warnings_;
  mutable bool all_opened_ = false;
};

/// Creates the plugin's object from validated parameters. The returned pointer keeps the
/// library loaded. Wraps an exception from the plugin's factory in a PluginError that
/// names the plugin.
std::shared_ptr<Kernel> create_kernel(const PluginRecord& plugin, const Params& params);
std::shared_ptr<Solver> create_solver(const PluginRecord& plugin, const Params& params);
std::shared_ptr<Dataset> create_dataset(const PluginRecord& plugin, const Params& params);

/// Checks the alphabet a dataset plugin's data came with against its flags: a sequence
/// dataset declares flags::sequences and fills Data::alphabet, a vector dataset does
/// neither. Throws DataError naming the plugin, its library and which of the two it broke.
void check_dataset_alphabet(const PluginRecord& plugin, const std::vector<std::string>& alphabet);

}  // namespace kexp::core
