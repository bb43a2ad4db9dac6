// The plugin loader: discovery, the descriptor checks, and every way a library can fail.
#include "plugin/registry.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/plugins.hpp"
#include "support/test_paths.hpp"

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// What listing every plugin of a fixture's folder says about its library: the problem
// of a broken plugin, or the warning for a library that is not a plugin.
std::string load_error(const std::string& fixture) {
  const PluginRegistry r = PluginRegistry::discover({test::fixture_dir() / fixture});
  (void)r.plugins();
  std::string out;
  for (const PluginProblem& p : r.problems()) out += p.message + "\n";
  for (const std::string& w : r.warnings()) out += w + "\n";
  return out.empty() ? "(no error)" : out;
}

TEST(PluginRegistry, DiscoversTheBuiltPluginsWithTheirDescriptors) {
  const PluginRegistry& r = test::registry();
  const PluginRecord& gaussian = r.find(PluginKind::Kernel, "gaussian");
  EXPECT_EQ(gaussian.descriptor->abi_version, kAbiVersion);
  EXPECT_STREQ(gaussian.descriptor->fingerprint, KEXP_BUILD_FINGERPRINT);
  EXPECT_TRUE(gaussian.has_flag(flags::psd_always));
  ASSERT_GE(gaussian.info().param_count, 1U);
  EXPECT_STREQ(gaussian.info().params[0].name, "sigma");
  EXPECT_TRUE(gaussian.path.is_absolute());
  EXPECT_EQ(r.find(PluginKind::Solver, "kernel_ridge").kind(), PluginKind::Solver);
  EXPECT_EQ(r.find(PluginKind::Dataset, "cubic").kind(), PluginKind::Dataset);
}

TEST(PluginRegistry, CreatedObjectsWorkAndKeepTheirLibraryLoaded) {
  std::shared_ptr<Kernel> kernel;
  {
    // A registry of its own, dropped before the kernel is used: the kernel's deleter
    // must hold the library.
    const PluginRegistry own = PluginRegistry::discover({KEXP_TEST_PLUGIN_DIR});
    kernel = test::make_kernel("gaussian", {{"sigma", "2"}});
    const PluginRecord& p = own.find(PluginKind::Kernel, "gaussian");
    kernel = create_kernel(p, test::checked_params(p, {{"sigma", "2"}}));
  }
  const arma::vec x = {0.0, 0.0}, z = {1.0, 1.0};
  // exp(−2 / (2·4)) = exp(−1/4)
  EXPECT_NEAR(kernel->evaluate(x, z), std::exp(-0.25), 1e-15);
}

TEST(PluginRegistry, UnknownNameListsWhatIsAvailableAndTheNearest) {
  try {
    (void)test::registry().find(PluginKind::Kernel, "gausian");
    FAIL() << "no error";
  } catch (const PluginError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("no kernel plugin named 'gausian'"),
                                HasSubstr("did you mean 'gaussian'?"),
                                HasSubstr("available kernel plugins: "), HasSubstr("gaussian")));
  }
}

TEST(PluginRegistry, LibraryWithoutEntrySymbolIsRefused) {
  EXPECT_THAT(load_error("no_entry"), AllOf(HasSubstr("skipping "),
                                            HasSubstr("not_a_plugin.so: "
                                                      "not a kexp plugin"),
                                            HasSubstr("kexp_plugin_v1")));
}

TEST(PluginRegistry, AbiMismatchPrintsBothVersions) {
  EXPECT_THAT(load_error("bad_abi"),
              AllOf(HasSubstr(fmt::format("built for kexp plugin ABI {}", kAbiVersion + 41)),
                    HasSubstr(fmt::format("this kexp uses ABI {}", kAbiVersion))));
}

TEST(PluginRegistry, FingerprintMismatchPrintsBoth) {
  EXPECT_THAT(load_error("bad_fingerprint"),
              AllOf(HasSubstr("'kexp 0.0.0; libc++ abi=9; armadillo 1.0'"),
                    HasSubstr(std::string("'") + KEXP_BUILD_FINGERPRINT + "'")));
}

TEST(PluginRegistry, UnresolvedSymbolFailsAtLoadNamingIt) {
  EXPECT_THAT(
      load_error("unresolved"),
      AllOf(HasSubstr("cannot load plugin"), HasSubstr("kexp_fixture_symbol_that_does_not_exist")));
}

TEST(PluginRegistry, DuplicateNamesListBothPaths) {
  // One of the two is kexp's own (the test plugin folder is this program's): the other,
  // the user's, is to be renamed.
  const PluginRegistry r =
      PluginRegistry::discover({test::fixture_dir() / "duplicate", KEXP_TEST_PLUGIN_DIR});
  try {
    (void)r.find(PluginKind::Kernel, "gaussian");
    FAIL() << "no error";
  } catch (const PluginError& e) {
    EXPECT_THAT(e.what(),
                AllOf(HasSubstr("'gaussian' is the name of a built-in kernel plugin"),
                      HasSubstr("duplicate/libkexp_kernel_gaussian.so declares it too"),
                      HasSubstr("plugins/libkexp_kernel_gaussian.so)"), HasSubstr("rename yours")));
  }
  // Found by file name, nothing else was opened to find that out.
  EXPECT_TRUE(r.opened().empty());
}

TEST(PluginRegistry, OpensOnlyTheLibraryNamedForThePlugin) {
  const PluginRegistry r = PluginRegistry::discover({KEXP_TEST_PLUGIN_DIR});
  EXPECT_TRUE(r.opened().empty());
  const PluginRecord& p = r.find(PluginKind::Kernel, "gaussian");
  ASSERT_EQ(r.opened().size(), 1U);
  EXPECT_EQ(r.opened().front().filename(), "libkexp_kernel_gaussian.so");
  EXPECT_EQ(p.path, r.opened().front());
  EXPECT_EQ(plugin_file_name(PluginKind::Dataset, "cubic"), "libkexp_dataset_cubic.so");
}

TEST(PluginRegistry, FindsAPluginWhoseLibraryHasAnotherNameByOpeningTheRest) {
  // forms/ holds libkexp_fixture_flaky.so, which declares the solver 'fixture_flaky'.
  const PluginRegistry r = PluginRegistry::discover({test::fixture_dir() / "forms"});
  EXPECT_EQ(r.find(PluginKind::Solver, "fixture_flaky").name(), "fixture_flaky");
  EXPECT_GE(r.opened().size(), 2U);
}

TEST(PluginRegistry, MissingFolderIsAWarning) {
  const PluginRegistry r = PluginRegistry::discover({"/nonexistent/kexp"});
  ASSERT_EQ(r.warnings().size(), 1U);
  EXPECT_THAT(r.warnings().front(), HasSubstr("plugin folder /nonexistent/kexp does not exist"));
}

TEST(PluginRegistry, FactoryThatThrowsBecomesAPluginError) {
  const PluginRegistry r = PluginRegistry::discover({test::fixture_dir() / "throwing"});
  const PluginRecord& p = r.find(PluginKind::Kernel, "throwing_kernel");
  try {
    (void)create_kernel(p, Params{});
    FAIL() << "no error";
  } catch (const PluginError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("kernel plugin 'throwing_kernel' could not be created"),
                                HasSubstr("refuses to be built")));
  }
}

TEST(PluginRegistry, WrongKindIsRefused) {
  const PluginRecord& p = test::registry().find(PluginKind::Kernel, "gaussian");
  EXPECT_THROW((void)create_solver(p, Params{}), PluginError);
}

TEST(PluginRegistry, ADatasetsAlphabetMustMatchItsSequencesFlag) {
  const PluginRecord& vectors = test::registry().find(PluginKind::Dataset, "sine");
  const PluginRecord& sequences = test::registry().find(PluginKind::Dataset, "hmm");
  EXPECT_NO_THROW(check_dataset_alphabet(vectors, {}));
  EXPECT_NO_THROW(check_dataset_alphabet(sequences, {"A", "B"}));
  try {
    check_dataset_alphabet(vectors, {"A"});
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_THAT(e.what(), HasSubstr("dataset plugin 'sine' ("));
    EXPECT_THAT(e.what(), HasSubstr("does not declare flags::sequences but returned an alphabet"));
  }
  try {
    check_dataset_alphabet(sequences, {});
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_THAT(e.what(), HasSubstr("declares flags::sequences but returned no alphabet"));
  }
}

TEST(PluginSearchPath, OrderIsCommandLineEnvironmentConfigDefault) {
  test::TempDir dirs;
  const auto a = dirs.path() / "a", b = dirs.path() / "b", c = dirs.path() / "c";
  for (const auto& f : {a, b, c}) std::filesystem::create_directories(f);
  ::setenv("KEXP_PLUGIN_PATH", (b.string() + ":" + a.string()).c_str(), 1);
  PluginSearchPath search;
  search.command_line = {a};
  search.config = {c};
  const auto folders = search.folders();
  ::unsetenv("KEXP_PLUGIN_PATH");
  ASSERT_GE(folders.size(), 3U);
  EXPECT_EQ(folders[0], a);  // named twice, kept once, first
  EXPECT_EQ(folders[1], b);
  EXPECT_EQ(folders[2], c);
  EXPECT_EQ(folders.back(), default_plugin_folder());
}

}  // namespace
}  // namespace kexp::core
