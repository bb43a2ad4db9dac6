// A result folder's config.yaml runs the same cells again from anywhere: files named in
// the experiment (a csv dataset's train:) are found through its base_dir.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "support/plugins.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

TEST(ResolvedConfig, FilesNamedInTheConfigAreFoundFromTheResultFolder) {
  TempDir dir;
  std::string rows = "x1,x2,y\n";
  for (int i = 0; i < 40; ++i) {
    const double a = 0.05 * i, b = 1.0 - 0.03 * i;
    rows += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(a * a - b) + "\n";
  }
  dir.write("project/data/train.csv", rows);
  dir.write("project/exp.yaml", R"(experiment: csv-rerun
seed: 3
dataset: {plugin: csv, train: data/train.csv}
kernels: [{plugin: gaussian, sigma: [0.5, 1.0]}]
solvers: [{plugin: kernel_ridge, lambda: 0.01}]
)");
  const auto first = run_kexp("run project/exp.yaml --quiet --out first", dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  // base_dir names the original folder, relative to the result folder: no path of the
  // machine, and it runs from a copy of both folders anywhere
  const core::CsvTable a = core::read_csv(dir.path() / "first" / "results.csv");
  std::ifstream resolved(dir.path() / "first" / "config.yaml");
  const std::string text((std::istreambuf_iterator<char>(resolved)),
                         std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("base_dir: ../project"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr(dir.path().string())));
  EXPECT_THAT(text, HasSubstr("train: data/train.csv"));

  // Run the resolved config from elsewhere: same cells (ids), same numbers.
  std::filesystem::create_directories(dir.path() / "elsewhere");
  const auto again =
      run_kexp("run ../first/config.yaml --quiet --out ../second", dir.path() / "elsewhere");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const core::CsvTable b = core::read_csv(dir.path() / "second" / "results.csv");
  ASSERT_EQ(a.rows.size(), 2U);
  ASSERT_EQ(b.rows.size(), a.rows.size());
  const std::size_t cell = *a.column("cell"), rmse = *a.column("test_rmse");
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i][cell], b.rows[i][cell]);
    EXPECT_EQ(a.rows[i][rmse], b.rows[i][rmse]);
  }
}

TEST(ResolvedConfig, BaseDirIsRelativeToTheConfigFile) {
  TempDir dir;
  dir.write("data/train.csv", "a,y\n1,2\n2,3\n3,5\n4,4\n5,6\n6,8\n7,7\n8,9\n9,11\n10,10\n");
  dir.write("configs/exp.yaml", R"(experiment: base
base_dir: ..
dataset: {plugin: csv, train: data/train.csv}
kernels: [{plugin: linear}]
solvers: [{plugin: kernel_ridge}]
)");
  const auto r = run_kexp("run configs/exp.yaml --quiet --out out", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  dir.write("configs/wrong.yaml", R"(experiment: base
dataset: {plugin: csv, train: data/train.csv}
kernels: [{plugin: linear}]
solvers: [{plugin: kernel_ridge}]
)");
  const auto wrong = run_kexp("run configs/wrong.yaml --quiet --out out2", dir.path());
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("configs/data/train.csv"));
}

TEST(ResolvedConfig, OutputDirIsRelativeToTheConfigFileAsEveryPath) {
  TempDir dir;
  dir.write("project/exp.yaml", R"(experiment: where
dataset: {plugin: cubic, n: 40}
kernels: [{plugin: linear}]
solvers: [{plugin: kernel_ridge}]
output: {dir: ../results/where}
)");
  std::filesystem::create_directories(dir.path() / "elsewhere");
  // From any working directory, the folder is the one the file names.
  const auto r = run_kexp("run ../project/exp.yaml --quiet", dir.path() / "elsewhere");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "results" / "where" / "results.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "elsewhere" / "results"));
  // The resolved config names that folder from its base_dir: a dry run of it, from
  // anywhere, would write into the very same folder.
  const auto again = run_kexp("run results/where/config.yaml --dry-run", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("results would go to results/where"));
  // Without output.dir: results/<experiment> in the working directory.
  dir.write("project/plain.yaml", R"(experiment: plain
dataset: {plugin: cubic, n: 40}
kernels: [{plugin: linear}]
solvers: [{plugin: kernel_ridge}]
)");
  ASSERT_EQ(run_kexp("run ../project/plain.yaml --quiet", dir.path() / "elsewhere").exit_code, 0);
  EXPECT_TRUE(
      std::filesystem::exists(dir.path() / "elsewhere" / "results" / "plain" / "results.csv"));
}

}  // namespace
}  // namespace kexp::test
