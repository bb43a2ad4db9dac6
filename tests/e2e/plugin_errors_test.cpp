// Through the kexp program: every way a plugin can be missing or broken exits 2 with a
// message that says what and where, and writes no results.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kexp/plugin.hpp"
#include "support/plugins.hpp"
#include "support/test_paths.hpp"

namespace kexp {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

constexpr const char* kConfig = R"(experiment: plugins
dataset:
  plugin: cubic
  n: 40
kernels:
  - plugin: KERNEL
solvers:
  - plugin: kernel_ridge
)";

struct Outcome {
  test::CommandResult result;
  bool wrote_results;
};

Outcome run_with(const std::string& kernel, const std::string& extra_args) {
  test::TempDir dir;
  std::string config = kConfig;
  config.replace(config.find("KERNEL"), 6, kernel);
  dir.write("exp.yaml", config);
  const fs::path out = dir.path() / "out";
  Outcome o{test::run_kexp("run exp.yaml --out out " + extra_args, dir.path()), fs::exists(out)};
  return o;
}

std::string fixture(const std::string& name) {
  return "--plugin-path '" + (test::fixture_dir() / name).string() + "'";
}

TEST(PluginErrors, UnknownNameListsTheAvailableAndTheNearest) {
  const Outcome o = run_with("gausian", "");
  EXPECT_EQ(o.result.exit_code, 2);
  EXPECT_THAT(o.result.err,
              AllOf(HasSubstr("exp.yaml:6:5"), HasSubstr("no kernel plugin named 'gausian'"),
                    HasSubstr("did you mean 'gaussian'?"), HasSubstr("available kernel plugins:")));
  EXPECT_FALSE(o.wrote_results);
}

TEST(PluginErrors, TheFilesMistakesAndItsEntriesAgainstThePluginsAreReportedTogether) {
  // A user from scikit-learn: a typo in a top-level key, 'rbf', 'gamma' and 'alpha', and a
  // value out of range; one run names all five, each at its place, and writes nothing.
  test::TempDir dir;
  dir.write("exp.yaml", R"(experiment: sklearn-words
repats: 2
dataset:
  plugin: cubic
  n: 40
kernels:
  - plugin: rbf
  - plugin: gaussian
    gamma: 0.5
solvers:
  - plugin: kernel_ridge
    alpha: 0.1
  - plugin: kernel_ridge
    lambda: -1
)");
  const test::CommandResult r = test::run_kexp("run exp.yaml --out out", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("5 errors in the experiment"));
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:2:1: unknown top-level key 'repats'"));
  EXPECT_THAT(r.err,
              HasSubstr("exp.yaml:7:5: no kernel plugin named 'rbf'; did you mean 'gaussian'?"));
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:9:12: kernels[1].gamma: kernel plugin 'gaussian' has no "
                               "parameter 'gamma'; did you mean 'sigma'?"));
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:12:12: solvers[0].alpha: solver plugin 'kernel_ridge' "
                               "has no parameter 'alpha'; did you mean 'lambda'?"));
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:14:13: solvers[1].lambda must be"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(PluginErrors, AValueThatCannotBeReadIsOneErrorNotAChainOfThem) {
  // n's generator is wrong: it is reported once, not again as a zip group naming an
  // unwritten parameter; csv's required 'train' written wrongly is not "required".
  test::TempDir dir;
  dir.write("exp.yaml", R"(experiment: chain
dataset:
  plugin: cubic
  n: {linspace: [1, 2]}
  d: [2, 3]
  zip: [n, d]
kernels:
  - plugin: gaussian
    gamma: 1
solvers:
  - plugin: kernel_ridge
)");
  const test::CommandResult r = test::run_kexp("run exp.yaml --out out", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("2 errors in the experiment"));
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:4:17: dataset.n.linspace takes three numbers"));
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:9:12: kernels[0].gamma"));
  EXPECT_THAT(r.err, Not(HasSubstr("zip")));

  dir.write("csv.yaml", R"(experiment: chain
dataset:
  plugin: csv
  train: {file: a.csv}
kernels:
  - plugin: gaussian
    gamma: 1
solvers:
  - plugin: kernel_ridge
)");
  const test::CommandResult csv = test::run_kexp("run csv.yaml --out out", dir.path());
  EXPECT_EQ(csv.exit_code, 2);
  EXPECT_THAT(csv.err, HasSubstr("2 errors in the experiment"));
  EXPECT_THAT(csv.err, Not(HasSubstr("is required")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(PluginErrors, UnknownDatasetIsPlacedInTheFile) {
  test::TempDir dir;
  std::string config = kConfig;
  config.replace(config.find("KERNEL"), 6, "linear");
  config.replace(config.find("cubic"), 5, "cubik");
  dir.write("exp.yaml", config);
  const auto r = test::run_kexp("run exp.yaml --out out", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("exp.yaml:3:3"), HasSubstr("no dataset plugin named 'cubik'"),
                           HasSubstr("did you mean 'cubic'?")));
}

TEST(PluginErrors, LibraryWithoutEntrySymbolIsSkippedWithAWarning) {
  // A run looks its plugins up by file name and never opens the helper library.
  const Outcome run = run_with("gaussian", fixture("no_entry"));
  EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_THAT(run.result.err, Not(HasSubstr("not_a_plugin.so")));
  EXPECT_TRUE(run.wrote_results);
  // Listing every plugin opens it, says it is not a plugin, and goes on.
  const auto list = test::run_kexp("plugins " + fixture("no_entry"));
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_THAT(list.err, AllOf(HasSubstr("kexp: warning: skipping"), HasSubstr("not_a_plugin.so"),
                              HasSubstr("not a kexp plugin (it has no entry symbol "
                                        "'kexp_plugin_v1')")));
  EXPECT_THAT(list.out, HasSubstr("kernel   gaussian"));
}

TEST(PluginErrors, ARunOpensOnlyTheLibrariesItNeeds) {
  // unresolved/ holds a library that cannot be loaded at all: a run of other plugins
  // does not open it, and `kexp plugins` lists it as invalid with its problem.
  const Outcome run = run_with("gaussian", fixture("unresolved"));
  EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
  const auto list = test::run_kexp("plugins " + fixture("unresolved"));
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_THAT(list.out, AllOf(HasSubstr("invalid"), HasSubstr("libkexp_fixture_unresolved.so"),
                              HasSubstr("kexp_fixture_symbol_that_does_not_exist"),
                              HasSubstr("kernel   gaussian"), HasSubstr("opened ")));
}

TEST(PluginErrors, MissingPluginFolderIsAWarningNamingIt) {
  const Outcome o = run_with("gaussian", "--plugin-path /nonexistent/kexp-plugins");
  EXPECT_EQ(o.result.exit_code, 0) << o.result.err;
  EXPECT_THAT(o.result.err,
              AllOf(HasSubstr("kexp: warning: plugin folder /nonexistent/kexp-plugins "
                              "does not exist")));
}

TEST(PluginErrors, AbiMismatch) {
  const Outcome o = run_with("future_kernel", fixture("bad_abi"));
  EXPECT_EQ(o.result.exit_code, 2);
  EXPECT_THAT(o.result.err,
              AllOf(HasSubstr(fmt::format("built for kexp plugin ABI {}", kAbiVersion + 41)),
                    HasSubstr(fmt::format("this kexp uses ABI {}", kAbiVersion))));
  EXPECT_FALSE(o.wrote_results);
}

TEST(PluginErrors, FingerprintMismatch) {
  const Outcome o = run_with("foreign_kernel", fixture("bad_fingerprint"));
  EXPECT_EQ(o.result.exit_code, 2);
  EXPECT_THAT(o.result.err,
              AllOf(HasSubstr("has build fingerprint 'kexp 0.0.0; libc++ abi=9; armadillo 1.0'"),
                    HasSubstr("this kexp has 'kexp ")));
  EXPECT_FALSE(o.wrote_results);
}

TEST(PluginErrors, UnresolvedSymbolIsNamedAtLoad) {
  const Outcome o = run_with("unresolved_kernel", fixture("unresolved"));
  EXPECT_EQ(o.result.exit_code, 2);
  EXPECT_THAT(o.result.err, HasSubstr("undefined symbol: kexp_fixture_symbol_that_does_not_exist"));
  EXPECT_FALSE(o.wrote_results);
}

TEST(PluginErrors, FactoryThatThrows) {
  const Outcome o = run_with("throwing_kernel", fixture("throwing"));
  EXPECT_EQ(o.result.exit_code, 2);
  EXPECT_THAT(o.result.err,
              HasSubstr("kernel plugin 'throwing_kernel' could not be created: this kernel "
                        "refuses to be built"));
  EXPECT_FALSE(o.wrote_results);
}

TEST(PluginErrors, AUserPluginNamedAsABuiltInIsToldToRenameIt) {
  // The fixture declares 'gaussian', as kexp's own kernel does: before, both `run` and
  // `kexp plugins` said "remove one", and `plugins` called kexp's own kernel invalid.
  const Outcome o = run_with("gaussian", fixture("duplicate"));
  EXPECT_EQ(o.result.exit_code, 2);
  const auto told = AllOf(HasSubstr("'gaussian' is the name of a built-in kernel plugin of kexp"),
                          HasSubstr("plugins/libkexp_kernel_gaussian.so), and your plugin"),
                          HasSubstr("duplicate/libkexp_kernel_gaussian.so declares it too: "
                                    "rename yours"),
                          HasSubstr("libkexp_kernel_my_gaussian.so"));
  EXPECT_THAT(o.result.err, told);
  EXPECT_FALSE(o.wrote_results);
  const auto listed = test::run_kexp("plugins " + fixture("duplicate"));
  EXPECT_THAT(listed.out, told);
}

TEST(PluginErrors, EnvironmentPathIsSearched) {
  test::TempDir dir;
  dir.write("exp.yaml", std::string(kConfig).replace(std::string(kConfig).find("KERNEL"), 6,
                                                     "throwing_kernel"));
  const auto r =
      test::run_kexp("run exp.yaml --out out", dir.path(),
                     "KEXP_PLUGIN_PATH='" + (test::fixture_dir() / "throwing").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("could not be created"));
}

TEST(PluginErrors, ConfigPluginPathIsRelativeToTheConfig) {
  test::TempDir dir;
  std::string config =
      std::string(kConfig).replace(std::string(kConfig).find("KERNEL"), 6, "throwing_kernel");
  config += "plugin_path: [fixtures]\n";
  dir.write("sub/exp.yaml", config);
  fs::create_symlink(test::fixture_dir() / "throwing", dir.path() / "sub" / "fixtures");
  const auto r = test::run_kexp("run sub/exp.yaml --out out", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("could not be created"));
}

TEST(Introspection, PluginsListsKindNameVersionPath) {
  const auto r = test::run_kexp("plugins");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("kernel   gaussian"), HasSubstr("solver   kernel_ridge"),
                           HasSubstr("dataset  cubic"), HasSubstr("libkexp_kernel_gaussian.so")));
}

TEST(Introspection, DescribePrintsTypesDefaultsBoundsAndDocs) {
  const auto r = test::run_kexp("describe gaussian");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              AllOf(HasSubstr("exp(−‖x − z‖² / (2σ²))"), HasSubstr("sigma"), HasSubstr("real"),
                    HasSubstr("1.0"), HasSubstr("> 0, log scale"), HasSubstr("bandwidth σ")));
  const auto dataset = test::run_kexp("describe cubic");
  EXPECT_THAT(dataset.out, AllOf(HasSubstr("test_fraction"), HasSubstr("in (0, 1)")));
  const auto unknown = test::run_kexp("describe gausian");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("did you mean 'gaussian'?"));
}

TEST(Introspection, DescribeSaysHowAKernelRunsInFloat32AndOnTheGpu) {
  // the Gaussian has a formula and a device form; the spectrum kernel (sequences) neither
  const auto gaussian = test::run_kexp("describe gaussian");
  EXPECT_THAT(gaussian.out,
              AllOf(HasSubstr("float32 and GPU (default parameters): by its formula"),
                    HasSubstr("device: cuda runs it by its formula, the same program")));
  const auto spectrum = test::run_kexp("describe spectrum");
  EXPECT_EQ(spectrum.exit_code, 0) << spectrum.err;
  EXPECT_THAT(spectrum.out,
              AllOf(HasSubstr("no formula"), HasSubstr("gram_converted = 1"),
                    HasSubstr("device: cuda is refused (no formula, no device form)")));
  // solvers and datasets have no such line
  EXPECT_THAT(test::run_kexp("describe kernel_ridge").out, Not(HasSubstr("float32 and GPU")));
}

TEST(Run, QuickstartWritesOneRowPerCellAndRepeat) {
  // The quickstart's sweep over n, cut to two small sizes so that the test stays quick
  // under the sanitizers; its shape and its primal-dual pairing are the file's own.
  test::TempDir dir;
  const auto r = test::run_kexp(std::string("run '") + KEXP_TEST_SOURCE_DIR +
                                    "/../configs/quickstart.yaml' --out out --quiet"
                                    " --set dataset.n=100,200",
                                dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f :
       {"config.yaml", "manifest.json", "results.csv", "results.jsonl", "summary.md"}) {
    EXPECT_TRUE(fs::exists(dir.path() / "out" / f)) << f;
  }
  std::ifstream csv(dir.path() / "out" / "results.csv");
  std::string line;
  int rows = -1;
  int primal = 0;
  while (std::getline(csv, line)) {
    ++rows;
    if (rows > 0) {
      EXPECT_THAT(line, AnyOf(HasSubstr(",ok,cubic,polynomial,primal_ridge,primal,"),
                              HasSubstr(",ok,cubic,polynomial,kernel_ridge,dual,")));
      primal += line.find(",primal_ridge,primal,") != std::string::npos ? 1 : 0;
    }
  }
  EXPECT_EQ(rows, 12);  // 2 n × 2 solvers × 3 repeats
  EXPECT_EQ(primal, 6);
  std::ifstream summary_file(dir.path() / "out" / "summary.md");
  std::stringstream summary;
  summary << summary_file.rdbuf();
  EXPECT_THAT(summary.str(), HasSubstr("primal_ridge / kernel_ridge, polynomial"));
}

}  // namespace
}  // namespace kexp
