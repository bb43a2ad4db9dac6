// Test support: plugins loaded from the build's plugin folder through the real loader,
// with parameters checked against their schema exactly as the runner does.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "kexp/kexp.hpp"
#include "plugin/registry.hpp"

namespace kexp::test {

/// The registry of every plugin kexp builds (loaded once per test program).
const core::PluginRegistry& registry();

/// Parameters as they would be written in YAML: name → text.
using TextParams = std::map<std::string, std::string>;

/// Checks `params` against the plugin's schema (defaults filled, bounds checked; throws
/// ConfigError as a config would) and returns the typed values.
Params checked_params(const core::PluginRecord& plugin, const TextParams& params);

std::shared_ptr<Kernel> make_kernel(const std::string& name, const TextParams& params = {});
std::shared_ptr<Solver> make_solver(const std::string& name, const TextParams& params = {});
std::shared_ptr<Dataset> make_dataset(const std::string& name, const TextParams& params = {});

/// Folder of the test fixtures' plugins (tests/fixtures), built with the tests.
std::filesystem::path fixture_dir();

/// A fresh empty temporary folder, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// Writes `content` to path()/name and returns the file's path.
  std::filesystem::path write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

/// Result of running the kexp program.
struct CommandResult {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// Runs the built `kexp` program with `args` (a shell-quoted string) in `cwd`.
CommandResult run_kexp(const std::string& args, const std::filesystem::path& cwd = {},
                       const std::string& env = "");

}  // namespace kexp::test
