// output.kernel_matrix through the kexp program: the K it writes equals k(x_i, x_j)
// recomputed from the data file, is symmetric, K(X, X*) likewise, only dual cells that
// hold K write one, numpy reads the files, and a K too large, or a value it does not
// know, is refused before anything runs.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"
#include "util/files.hpp"

namespace kexp::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

/// A .npy file of doubles (as kexp writes them: '<f8', fortran_order) as a matrix.
arma::mat read_npy(const fs::path& file) {
  const std::string bytes = core::read_text_file(file);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  const std::size_t length =
      static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  const std::string header = bytes.substr(10, length);
  EXPECT_THAT(header, HasSubstr("'descr': '<f8', 'fortran_order': True"));
  unsigned long rows = 0, cols = 0;
  const auto shape = header.find("'shape': (");
  EXPECT_EQ(std::sscanf(header.c_str() + shape, "'shape': (%lu, %lu)", &rows, &cols), 2);
  arma::mat m(rows, cols);
  EXPECT_EQ(bytes.size(), 10 + length + 8 * m.n_elem);
  std::memcpy(m.memptr(), bytes.data() + 10 + length, 8 * m.n_elem);
  return m;
}

/// Points (x1, x2) and a target, as the rows of a CSV file.
arma::mat points(int count, double shift) {
  arma::mat X(2, static_cast<arma::uword>(count));
  for (int i = 0; i < count; ++i) {
    X(0, static_cast<arma::uword>(i)) = std::sin(0.7 * i + shift);
    X(1, static_cast<arma::uword>(i)) = 0.1 * i - shift;
  }
  return X;
}

std::string csv_of(const arma::mat& X) {
  std::string text = "x1,x2,y\n";
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    text += fmt::format("{:.17g},{:.17g},{:.17g}\n", X(0, i), X(1, i), X(0, i) * X(1, i));
  }
  return text;
}

double gaussian(const arma::vec& x, const arma::vec& z, double sigma) {
  return std::exp(-arma::accu(arma::square(x - z)) / (2 * sigma * sigma));
}

TEST(KernelMatrix, WrittenKIsTheKernelOfTheDataForDualCellsOnly) {
  TempDir dir;
  const arma::mat X = points(12, 0.0), Xs = points(5, 0.3);
  dir.write("train.csv", csv_of(X));
  dir.write("test.csv", csv_of(Xs));
  dir.write("exp.yaml", R"(experiment: kernel-matrix
seed: 4
dataset: {plugin: csv, train: train.csv, test: test.csv, target: y}
kernels:
  - {plugin: gaussian, sigma: 0.7}
  - {plugin: polynomial, degree: 2}
solvers:
  - {plugin: kernel_ridge, lambda: 0.1}
  - {plugin: primal_ridge, lambda: 0.1}
  - {plugin: cg_ridge, lambda: 0.1}
output: {kernel_matrix: with_test}
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  const std::size_t cell = column(t, "cell"), solver = column(t, "solver"),
                    kernel = column(t, "kernel");
  std::string gaussian_cell;
  std::set<std::string> expected;
  for (const auto& row : t.rows) {
    if (row[solver] != "kernel_ridge") continue;  // primal_ridge and cg_ridge hold no K
    for (const char* suffix : {"-0-K.npy", "-0-K-test.npy", "-0-K.gp"}) {
      expected.insert(row[cell] + suffix);
    }
    if (row[kernel] == "gaussian") gaussian_cell = row[cell];
  }
  std::set<std::string> written;
  for (const auto& entry : fs::directory_iterator(dir.path() / "out" / "kernels")) {
    if (entry.path().extension() != ".svg") written.insert(entry.path().filename().string());
  }
  EXPECT_EQ(written, expected);
  ASSERT_FALSE(gaussian_cell.empty());

  const fs::path K_file = dir.path() / "out" / "kernels" / (gaussian_cell + "-0-K.npy");
  const arma::mat K = read_npy(K_file);
  ASSERT_EQ(K.n_rows, 12U);
  ASSERT_EQ(K.n_cols, 12U);
  EXPECT_TRUE(K.is_symmetric(0.0));
  for (arma::uword i = 0; i < 12; ++i) {
    for (arma::uword j = 0; j < 12; ++j) {
      EXPECT_NEAR(K(i, j), gaussian(X.col(i), X.col(j), 0.7), 1e-12) << i << ", " << j;
    }
  }
  const arma::mat Kx = read_npy(dir.path() / "out" / "kernels" / (gaussian_cell + "-0-K-test.npy"));
  ASSERT_EQ(Kx.n_rows, 12U);
  ASSERT_EQ(Kx.n_cols, 5U);
  for (arma::uword i = 0; i < 12; ++i) {
    for (arma::uword j = 0; j < 5; ++j) {
      EXPECT_NEAR(Kx(i, j), gaussian(X.col(i), Xs.col(j), 0.7), 1e-12) << i << ", " << j;
    }
  }

  // numpy reads it as written, where numpy is installed: with the python3 on the PATH, or
  // Debian's own where another one comes first (pyenv).
  std::string python;
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    if (std::system(fmt::format("{} -c 'import numpy' 2>/dev/null", candidate).c_str()) == 0) {
      python = candidate;
      break;
    }
  }
  if (python.empty()) {
    GTEST_SKIP() << "python3 with numpy is not installed: the files were not read by numpy";
  }
  const std::string load = fmt::format(
      "{} -c \"import numpy as np; K = np.load('{}'); "
      "print(K.shape, K.dtype, '%.17g' % K[3, 5], bool((K == K.T).all()))\"",
      python, K_file.string());
  const fs::path printed = dir.path() / "numpy.txt";
  const int status = std::system(fmt::format("{} > '{}' 2>&1", load, printed.string()).c_str());
  ASSERT_EQ(status, 0) << core::read_text_file(printed);
  EXPECT_EQ(core::read_text_file(printed), fmt::format("(12, 12) float64 {:.17g} True\n", K(3, 5)));
}

TEST(KernelMatrix, TheDryRunStatesTheDiskTheFilesTakeAndCellsWithoutKAreSaid) {
  TempDir dir;
  // 6400 points, 20 % for testing: K of 5120 training points, K(X, X*) 5120 × 1280, two
  // repeats; cg_ridge builds no K.
  dir.write("exp.yaml", R"(experiment: sized
repeats: 2
dataset: {plugin: cubic, n: 6400, d: 2}
kernels: [{plugin: gaussian, sigma: 1}]
solvers: [{plugin: kernel_ridge, lambda: 0.1}, {plugin: cg_ridge, lambda: 0.1}]
output:
  kernel_matrix: with_test
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --dry-run", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // 2 · 8 · (5120² + 5120 · 1280) bytes = 524 MB, and two heat maps of about 1 MB
  EXPECT_THAT(r.out, HasSubstr("output.kernel_matrix: 4 files, 526 MB on disk"));
  EXPECT_THAT(r.err, HasSubstr("writes no K for the cells of solvers[1] (cg_ridge)"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(KernelMatrix, FilesThatWouldNotFitTheDiskAreRefusedBeforeAnythingRuns) {
  // A small file system of its own would take root; a K larger than any disk does it: 4·10⁶
  // training points, a K of 128 TB.
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: too-large
dataset: {plugin: cubic, n: 5000000, d: 2}
kernels: [{plugin: gaussian, sigma: 1}]
solvers: [{plugin: kernel_ridge, lambda: 0.1}]
output:
  kernel_matrix: true
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --max-memory 900000G", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("exp.yaml:6:18: output.kernel_matrix would write 1 file of"),
                           HasSubstr("and its disk has"), HasSubstr("free")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(KernelMatrix, AValueItDoesNotKnowIsAConfigError) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: bad
dataset: {plugin: cubic, n: 50}
kernels: [{plugin: gaussian, sigma: 1}]
solvers: [{plugin: kernel_ridge, lambda: 0.1}]
output: {kernel_matrix: test}
)");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("output.kernel_matrix must be true (K of the training points), "
                               "with_test (K and K(X, X*)) or false, got 'test'"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

}  // namespace
}  // namespace kexp::test
