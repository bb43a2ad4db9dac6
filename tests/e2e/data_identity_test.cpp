// A result folder knows which data its rows came from: the manifest records the sha256
// of every file the experiment's parameters name, `--resume` refuses to continue a
// folder whose data file has changed since (before, it kept 3 rows on the old data beside
// 5 on the new, exit 0), and `kexp merge` refuses shards run on different data.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: identity
seed: 5
dataset: {plugin: csv, train: data.csv, target: y, test_fraction: 0.25}
kernels:
  - {plugin: gaussian, sigma: [0.5, 1, 2, 4]}
solvers:
  - {plugin: kernel_ridge, lambda: [0.01, 0.1]}
)";

/// 40 rows of y = sin(x₁) + x₂/(1 + shift), x on a grid.
std::string data(double shift) {
  std::string text = "x1,x2,y\n";
  for (int i = 0; i < 40; ++i) {
    const double a = 0.1 * i, b = 0.05 * (i % 7);
    text += std::to_string(a) + "," + std::to_string(b) + "," +
            std::to_string(std::sin(a) + b / (1 + shift)) + "\n";
  }
  return text;
}

std::string read(const fs::path& file) {
  std::stringstream s;
  s << std::ifstream(file).rdbuf();
  return s.str();
}

TEST(DataIdentity, ResumeRefusesAFolderWhoseDataFileChanged) {
  const TempDir dir;
  dir.write("exp.yaml", kConfig);
  dir.write("data.csv", data(0));
  // A run stopped after its first cells: --shard 0/2 writes half of them.
  const auto first = run_kexp("run exp.yaml --out out --quiet --shard 0/2", dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto manifest = nlohmann::json::parse(read(dir.path() / "out/manifest.json"));
  ASSERT_EQ(manifest["inputs"].size(), 1U);
  EXPECT_EQ(manifest["inputs"][0]["key"], "dataset.train");
  EXPECT_EQ(manifest["inputs"][0]["written"], "data.csv");
  EXPECT_EQ(manifest["inputs"][0]["sha256"].get<std::string>().size(), 64U);

  // The same file: the resume goes on.
  const auto same = run_kexp("run exp.yaml --resume out --quiet", dir.path());
  EXPECT_EQ(same.exit_code, 0) << same.err;

  // The data file regenerated: refused, naming the file and both hashes, nothing written.
  const std::string csv_before = read(dir.path() / "out/results.csv");
  dir.write("data.csv", data(1));
  const auto changed = run_kexp("run exp.yaml --resume out --quiet", dir.path());
  EXPECT_EQ(changed.exit_code, 2);
  EXPECT_THAT(changed.err, AllOf(HasSubstr("--resume out: "),
                                 HasSubstr("data.csv (dataset.train) "
                                           "has changed: sha256 "),
                                 HasSubstr("would come from different files")));
  EXPECT_EQ(read(dir.path() / "out/results.csv"), csv_before);
}

TEST(DataIdentity, MergeRefusesShardsRunOnDifferentData) {
  const TempDir dir;
  dir.write("exp.yaml", kConfig);
  dir.write("data.csv", data(0));
  ASSERT_EQ(run_kexp("run exp.yaml --out a --quiet --shard 0/2", dir.path()).exit_code, 0);
  dir.write("data.csv", data(1));
  ASSERT_EQ(run_kexp("run exp.yaml --out b --quiet --shard 1/2", dir.path()).exit_code, 0);
  const auto merged = run_kexp("merge a b --out m", dir.path());
  EXPECT_EQ(merged.exit_code, 2);
  EXPECT_THAT(merged.err, AllOf(HasSubstr("kexp merge: a and b were run on different files for "
                                          "dataset.train (data.csv)"),
                                HasSubstr("merge only shards run on the same data")));
  EXPECT_FALSE(fs::exists(dir.path() / "m"));
}

}  // namespace
}  // namespace kexp::test
