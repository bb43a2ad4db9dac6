#include "support/plugins.hpp"
#include "support/test_paths.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "config/schema.hpp"

namespace kexp::test {

namespace fs = std::filesystem;

namespace {

/// The build's path, or the environment's KEXP_TEST_<what> where it is set: the tests then
/// run from a copy of the build on another machine (scripts/gpu-bundle.sh).
std::string build_path(const char* variable, const char* built) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0' ? value : built;
}

}  // namespace

const core::PluginRegistry& registry() {
  // Every shipped plugin's descriptor is checked as the kexp program checks it.
  static const core::PluginRegistry r = [] {
    core::PluginRegistry registry =
        core::PluginRegistry::discover({build_path("KEXP_TEST_PLUGIN_DIR", KEXP_TEST_PLUGIN_DIR)});
    registry.set_validator(core::descriptor_problems);
    return registry;
  }();
  return r;
}

Params checked_params(const core::PluginRecord& plugin, const TextParams& params) {
  core::ComponentSpec spec;
  spec.plugin = std::string(plugin.name());
  spec.key = "test";
  for (const auto& [name, text] : params) {
    core::ParamSetting s;
    s.name = name;
    s.key = "test." + name;
    s.values.push_back({text, SourceLocation{}, false});
    spec.params.push_back(s);
  }
  const auto resolved =
      core::resolve_params(core::schema_of(*plugin.descriptor), spec, std::string(plugin.name()));
  Params out;
  for (const auto& r : resolved) out.set(r.name, r.values.front());
  return out;
}

std::shared_ptr<Kernel> make_kernel(const std::string& name, const TextParams& params) {
  const auto& p = registry().find(PluginKind::Kernel, name);
  return core::create_kernel(p, checked_params(p, params));
}

std::shared_ptr<Solver> make_solver(const std::string& name, const TextParams& params) {
  const auto& p = registry().find(PluginKind::Solver, name);
  return core::create_solver(p, checked_params(p, params));
}

std::shared_ptr<Dataset> make_dataset(const std::string& name, const TextParams& params) {
  const auto& p = registry().find(PluginKind::Dataset, name);
  return core::create_dataset(p, checked_params(p, params));
}

fs::path fixture_dir() { return KEXP_TEST_FIXTURE_DIR; }

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / fmt::format("kexp-test-{}-{:x}", ::getpid(), rd());
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path TempDir::write(const std::string& name, const std::string& content) const {
  const fs::path file = path_ / name;
  fs::create_directories(file.parent_path());
  std::ofstream(file) << content;
  return file;
}

CommandResult run_kexp(const std::string& args, const fs::path& cwd, const std::string& env) {
  TempDir capture;
  const fs::path out = capture.path() / "out", err = capture.path() / "err";
  std::string command;
  if (!cwd.empty()) command += fmt::format("cd '{}' && ", cwd.string());
  command += fmt::format("{} '{}' {} > '{}' 2> '{}' < /dev/null", env,
                         build_path("KEXP_TEST_BINARY", KEXP_TEST_BINARY), args, out.string(),
                         err.string());
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream so, se;
  so << std::ifstream(out).rdbuf();
  se << std::ifstream(err).rdbuf();
  r.out = so.str();
  r.err = se.str();
  return r;
}

}  // namespace kexp::test
