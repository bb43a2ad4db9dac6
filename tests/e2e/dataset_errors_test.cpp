// Bad data through the kexp program: every case exits 2 with a message naming the file,
// line and column, and writes no result folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/plugins.hpp"
#include "support/test_paths.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class DatasetErrors : public ::testing::Test {
 protected:
  TempDir dir;

  /// Writes exp/config.yaml with `dataset` as its dataset block (indented YAML lines) and
  /// runs it; relative data paths are thus taken from exp/, not from the working folder.
  CommandResult run(const std::string& dataset) const {
    dir.write("exp/config.yaml", "experiment: bad-data\nseed: 3\ndataset:\n" + dataset +
                                     "kernels:\n  - plugin: gaussian\n    sigma: 1.0\n"
                                     "solvers:\n  - plugin: kernel_ridge\n    lambda: 0.01\n");
    return run_kexp(
        std::string("run exp/config.yaml --out out --plugin-path '") + KEXP_TEST_PLUGIN_DIR + "'",
        dir.path());
  }

  /// Expects exit 2, `message` on stderr and no result folder.
  void expect_refused(const CommandResult& r, const std::string& message) const {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(message));
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << "a result folder was written";
  }

  static std::string csv(const std::string& train, const std::string& extra = "") {
    return "  plugin: csv\n  train: " + train + "\n" + extra;
  }
  static std::string libsvm(const std::string& train, const std::string& extra = "") {
    return "  plugin: libsvm\n  train: " + train + "\n" + extra;
  }
};

TEST_F(DatasetErrors, AGoodFileRunsAndWritesItsResults) {
  std::string rows = "a,b,y\n";
  for (int i = 0; i < 20; ++i)
    rows += std::to_string(i) + "," + std::to_string(i % 3) + "," + std::to_string(2 * i) + "\n";
  dir.write("exp/data/train.csv", rows);
  const CommandResult r = run(csv("data/train.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "results.csv"));
}

TEST_F(DatasetErrors, MissingFile) {
  // placed at the dataset block of the experiment file, which names the file
  expect_refused(run(csv("data/none.csv")),
                 "kexp: error: exp/config.yaml:4:3: exp/data/none.csv: the file does not exist "
                 "(train: data/none.csv; a relative path is taken from the config file's folder)");
}

TEST_F(DatasetErrors, EmptyFile) {
  dir.write("exp/e.csv", "");
  expect_refused(run(csv("e.csv")), "exp/e.csv: the file is empty");
}

TEST_F(DatasetErrors, RaggedRows) {
  dir.write("exp/r.csv", "a,y\n1,2\n3\n");
  expect_refused(run(csv("r.csv")), "exp/r.csv:3: this row has 1 fields, line 1 has 2");
}

TEST_F(DatasetErrors, NonNumericField) {
  dir.write("exp/t.csv", "a,y\n1,2\n3,four\n");
  expect_refused(run(csv("t.csv")), "exp/t.csv:3:3: field 2 'four' is not a number");
}

TEST_F(DatasetErrors, NanIsAnErrorUnlessDropIsAsked) {
  std::string rows = "a,y\n";
  for (int i = 0; i < 10; ++i) rows += std::to_string(i) + "," + std::to_string(i * i) + "\n";
  rows += "inf,1\n";
  dir.write("exp/n.csv", rows);
  expect_refused(run(csv("n.csv")), "exp/n.csv:12:1: field 1 is inf (not finite)");
  const CommandResult r = run(csv("n.csv", "  on_nonfinite: drop\n"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kexp: dataset csv: dropped 1 of 11 rows of exp/n.csv"));
  EXPECT_TRUE(fs::exists(dir.path() / "out" / "results.csv"));
}

TEST_F(DatasetErrors, TargetColumnThatDoesNotExist) {
  dir.write("exp/h.csv", "a,y\n1,2\n");
  expect_refused(run(csv("h.csv", "  target: price\n")),
                 "exp/h.csv:1: target column 'price' does not exist; the columns are 'a', 'y'");
}

TEST_F(DatasetErrors, TestFileOfAnotherWidth) {
  dir.write("exp/train.csv", "a,b,y\n1,2,3\n");
  dir.write("exp/test.csv", "a,y\n1,3\n");
  expect_refused(run(csv("train.csv", "  test: test.csv\n")),
                 "exp/test.csv:1: the test file has 2 columns, the training file "
                 "exp/train.csv has 3");
}

TEST_F(DatasetErrors, LibsvmIndexOutOfOrderOrNotANumber) {
  dir.write("exp/o.txt", "1 2:1 1:2\n");
  expect_refused(run(libsvm("o.txt")), "exp/o.txt:1:7: index 1 is not greater than");
  dir.write("exp/x.txt", "1 1:1\n0 one:2\n");
  expect_refused(run(libsvm("x.txt")), "exp/x.txt:2:3: index 'one' is not a whole number");
}

TEST_F(DatasetErrors, DevicesAndPipesAreNotRead) {
  expect_refused(run(csv("/dev/zero")),
                 "/dev/zero: is a character device, not a regular file (train: "
                 "/dev/zero); data is read only from regular files");
  expect_refused(run(libsvm("/dev/urandom")),
                 "/dev/urandom: is a character device, not a regular file");
  fs::create_directories(dir.path() / "exp");
  ASSERT_EQ(::mkfifo((dir.path() / "exp" / "pipe.csv").c_str(), 0600), 0);
  expect_refused(run(csv("pipe.csv")), "exp/pipe.csv: is a named pipe (FIFO), not a regular file");
}

TEST_F(DatasetErrors, FileLargerThanMaxFileBytes) {
  dir.write("exp/b.csv", "a,y\n1,2\n");
  expect_refused(run(csv("b.csv", "  max_file_bytes: 4\n")),
                 "kexp: error: exp/config.yaml:4:3: exp/b.csv: the file has 8 bytes, more than "
                 "max_file_bytes, 4 "
                 "bytes; set max_file_bytes in the dataset block");
}

TEST_F(DatasetErrors, RepeatedColumnName) {
  dir.write("exp/d.csv", "x,y,y\n1,2,3\n");
  expect_refused(run(csv("d.csv", "  target: y\n")),
                 "kexp: error: exp/d.csv:1:5: column 3 is named 'y' like column 2");
}

TEST_F(DatasetErrors, LibsvmIndexBeyondMaxFeatures) {
  dir.write("exp/big.txt", "1 1:1\n-1 10000001:1\n");
  expect_refused(run(libsvm("big.txt")),
                 "kexp: error: exp/big.txt:2:4: index 10000001 is beyond max_features, 100000");
  dir.write("exp/int.txt", "1 2147483648:1\n");
  expect_refused(run(libsvm("int.txt")),
                 "kexp: error: exp/int.txt:1:3: index 2147483648 is beyond max_features");
}

TEST_F(DatasetErrors, SizesOutOfRange) {
  expect_refused(run("  plugin: cubic\n  n: 0\n"),
                 "exp/config.yaml:5:6: dataset.n must be in [2, 100000000], got 0");
  expect_refused(run("  plugin: friedman1\n  d: 3\n"),
                 "exp/config.yaml:5:6: dataset.d must be in [5, 100000], got 3");
}

TEST_F(DatasetErrors, TestFractionOutsideZeroOne) {
  expect_refused(run("  plugin: sine\n  test_fraction: 0\n"),
                 "dataset.test_fraction must be in (0, 1), got 0");
  expect_refused(run("  plugin: circles\n  test_fraction: 1\n"),
                 "dataset.test_fraction must be in (0, 1), got 1");
}

// The control case with real data: the shipped example runs, and Gaussian kernel ridge
// predicts the diabetes target far better than its mean does (standard deviation 77.0).
TEST(ShippedData, DiabetesExampleRunsWithASensibleTestError) {
  TempDir dir;
  const fs::path config =
      fs::path(KEXP_TEST_SOURCE_DIR).parent_path() / "configs" / "diabetes.yaml";
  const CommandResult r = run_kexp(
      "run '" + config.string() + "' --out out --plugin-path '" + KEXP_TEST_PLUGIN_DIR + "'",
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir.path() / "out" / "results.csv");
  std::string line;
  std::getline(in, line);
  auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    std::stringstream ss(text);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    return fields;
  };
  const std::vector<std::string> header = split(line);
  const auto column = static_cast<std::size_t>(
      std::find(header.begin(), header.end(), "test_rmse") - header.begin());
  ASSERT_LT(column, header.size());
  double best = 1e300;
  int rows = 0;
  while (std::getline(in, line)) {
    best = std::min(best, std::stod(split(line).at(column)));
    ++rows;
  }
  EXPECT_EQ(rows, 45);
  EXPECT_GT(best, 35.0);
  EXPECT_LT(best, 60.0);
}

}  // namespace
}  // namespace kexp::test
