// Through the kexp program: plugin folders that hold libraries which misbehave when they
// are opened (an entry symbol that is data, static constructors that exit, abort, crash or
// hang) or entries that cannot be followed (a symbolic link in a loop). Every command
// goes on with the other plugins and names the bad library and what it did; a run that
// needs it exits 2 naming it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/plugins.hpp"

namespace kexp {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string fixture(const std::string& name) {
  return "--plugin-path '" + (test::fixture_dir() / name).string() + "'";
}

/// A probe may take this long in these tests: the hanging library is killed after it.
const std::string kShortProbe = "KEXP_PLUGIN_PROBE_SECONDS=1";

constexpr const char* kRunWith = R"(experiment: isolation
dataset:
  plugin: cubic
  n: 30
kernels:
  - plugin: KERNEL
solvers:
  - plugin: kernel_ridge
)";

test::CommandResult run_with_kernel(const test::TempDir& dir, const std::string& kernel,
                                    const std::string& args) {
  std::string config = kRunWith;
  config.replace(config.find("KERNEL"), 6, kernel);
  dir.write("exp.yaml", config);
  return test::run_kexp("run exp.yaml --out out " + args, dir.path(), kShortProbe);
}

struct Misbehaviour {
  const char* folder;
  const char* library;
  const char* what;  ///< as the warning says it
};

const Misbehaviour kMisbehaviours[] = {
    {"garbage_entry", "libkexp_kernel_garbage_entry.so", "was killed by SIGSEGV (signal 11)"},
    {"constructor_exit", "libkexp_fixture_constructor_exit.so", "exited with code 0"},
    {"constructor_abort", "libkexp_fixture_constructor_abort.so",
     "was killed by SIGABRT (signal 6)"},
    {"constructor_segfault", "libkexp_fixture_constructor_segfault.so",
     "was killed by SIGSEGV (signal 11)"},
    {"constructor_hang", "libkexp_fixture_constructor_hang.so",
     "did not finish within 1 s and was killed"},
};

TEST(PluginLoadingIsolation, PluginsListsTheOthersAndNamesTheLibraryAndWhatItDid) {
  for (const Misbehaviour& m : kMisbehaviours) {
    SCOPED_TRACE(m.folder);
    const auto r = test::run_kexp("plugins " + fixture(m.folder), {}, kShortProbe);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, AllOf(HasSubstr("gaussian"), HasSubstr("kernel_ridge")));
    EXPECT_THAT(r.err, AllOf(HasSubstr(m.library), HasSubstr(m.what),
                             HasSubstr("take it off the plugin path")));
  }
}

TEST(PluginLoadingIsolation, ARunOfBuiltInsGoesOnAndARunNamingAnUnknownPluginExitsTwo) {
  for (const Misbehaviour& m : kMisbehaviours) {
    SCOPED_TRACE(m.folder);
    const test::TempDir dir;
    // Found by its file name among the built-ins: the bad library is never opened.
    const auto ok = run_with_kernel(dir, "gaussian", fixture(m.folder));
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    // An unknown name opens every library of the path to look for it.
    const test::TempDir other;
    const auto unknown = run_with_kernel(other, "gausian", fixture(m.folder));
    EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
    EXPECT_THAT(unknown.err, AllOf(HasSubstr("no kernel plugin named 'gausian'"),
                                   HasSubstr(m.library), HasSubstr(m.what)));
    EXPECT_FALSE(fs::exists(other.path() / "out"));
  }
}

TEST(PluginLoadingIsolation, ARunThatNeedsTheBadPluginExitsTwoNamingIt) {
  const test::TempDir dir;
  const auto r =
      run_with_kernel(dir, "fixture_constructor_segfault", fixture("constructor_segfault"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("libkexp_fixture_constructor_segfault.so"),
                           HasSubstr("was killed by SIGSEGV")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(PluginLoadingIsolation, ASymbolicLinkInALoopIsSkippedWithAWarningNamingIt) {
  const test::TempDir dir;
  const fs::path folder = dir.path() / "plugins";
  fs::create_directories(folder);
  fs::create_symlink("b.so", folder / "a.so");
  fs::create_symlink("a.so", folder / "b.so");
  fs::create_symlink("loop", folder / "loop");
  const std::string path = "--plugin-path '" + folder.string() + "'";

  const auto list = test::run_kexp("plugins " + path);
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_THAT(list.out, HasSubstr("gaussian"));
  EXPECT_THAT(list.err,
              AllOf(HasSubstr((folder / "a.so").string()), HasSubstr((folder / "loop").string()),
                    HasSubstr("cannot be followed")));

  const auto run = run_with_kernel(dir, "gaussian", path);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr((folder / "b.so").string()));
}

}  // namespace
}  // namespace kexp
