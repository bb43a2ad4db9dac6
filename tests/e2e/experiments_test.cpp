// The curated experiments in experiments/: every experiments/<name>/experiment.yaml must
// stay a valid config, so each is expanded with `kexp run --dry-run` (every plugin found,
// every parameter checked against its schema, the sweep expanded) and must exit 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "support/plugins.hpp"
#include "support/test_paths.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;

fs::path experiments_dir() { return fs::path(KEXP_TEST_SOURCE_DIR).parent_path() / "experiments"; }

/// The experiments/<name>/experiment.yaml files, sorted by name.
std::vector<fs::path> experiment_files() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(experiments_dir(), ec)) {
    const fs::path config = entry.path() / "experiment.yaml";
    if (entry.is_directory() && fs::is_regular_file(config)) files.push_back(config);
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CuratedExperiments, ThereAreSome) { EXPECT_FALSE(experiment_files().empty()); }

class CuratedExperiment : public ::testing::TestWithParam<fs::path> {};

TEST_P(CuratedExperiment, DryRunExpandsItsSweep) {
  const fs::path config = GetParam();
  TempDir dir;
  const CommandResult r = run_kexp(
      "run '" + config.string() + "' --dry-run --plugin-path '" + KEXP_TEST_PLUGIN_DIR + "'",
      dir.path());
  EXPECT_EQ(r.exit_code, 0) << config << "\n" << r.out << r.err;
  EXPECT_FALSE(r.out.empty()) << config;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "a dry run wrote into its working directory";
}

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.parent_path().filename().string();
  std::replace_if(
      name.begin(), name.end(),
      [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0; }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Experiments, CuratedExperiment, ::testing::ValuesIn(experiment_files()),
                         test_name);

}  // namespace
}  // namespace kexp::test
