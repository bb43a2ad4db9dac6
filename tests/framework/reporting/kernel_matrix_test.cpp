// The .npy bytes of a matrix against the format written out by hand; the heat map's data
// ordered by target and averaged over blocks, against values computed by hand; a K given
// as its lower triangle written whole and symmetric.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "reporting/kernel_matrix.hpp"
#include "support/plugins.hpp"
#include "util/files.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

/// The doubles after the header of a .npy file.
std::vector<double> npy_values(const std::string& bytes) {
  const std::size_t header =
      10 + (static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8));
  std::vector<double> values((bytes.size() - header) / 8);
  std::memcpy(values.data(), bytes.data() + header, 8 * values.size());  // little-endian host
  return values;
}

TEST(NpyBytes, HeaderAsNumpyWritesItThenTheColumns) {
  const arma::mat m = {{1.0, 2.0, 3.0}, {4.0, 5.0, -0.5}};  // 2 × 3
  const std::string bytes = npy_bytes(m);
  ASSERT_GE(bytes.size(), 10U);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_length =
      static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_length) % 64, 0U);
  const std::string header = bytes.substr(10, header_length);
  EXPECT_EQ(header.substr(0, 60), "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }  ");
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.size(), 10 + header_length + 6 * 8);
  // Column-major: 1, 4, 2, 5, 3, -0.5.
  EXPECT_EQ(npy_values(bytes), (std::vector<double>{1, 4, 2, 5, 3, -0.5}));
  // 1.0 as little-endian IEEE 754: 00 .. 00 f0 3f
  EXPECT_EQ(bytes.substr(10 + header_length, 8), std::string("\0\0\0\0\0\0\xf0\x3f", 8));
}

/// The rows of the heat map's inline data.
std::vector<std::vector<double>> heat_data(const std::string& script) {
  const std::size_t begin = script.find("$K << EOD\n");
  const std::size_t end = script.find("EOD\n", begin + 10);
  std::istringstream lines(script.substr(begin + 10, end - begin - 10));
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    rows.emplace_back();
    for (double v = 0; fields >> v;) rows.back().push_back(v);
  }
  return rows;
}

TEST(KernelHeatMap, SamplesOrderedByTarget) {
  // K(i, j) = 10 i + j, targets 3, 1, 2, 0: the order is 3, 1, 2, 0.
  arma::mat K(4, 4);
  for (arma::uword i = 0; i < 4; ++i) {
    for (arma::uword j = 0; j < 4; ++j) K(i, j) = 10.0 * i + j;
  }
  const std::string script =
      kernel_heat_map_script(K, arma::vec{3, 1, 2, 0}, KernelHeatMap{"k", "K <&>", false});
  const auto rows = heat_data(script);
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[0], (std::vector<double>{33, 31, 32, 30}));
  EXPECT_EQ(rows[1], (std::vector<double>{13, 11, 12, 10}));
  EXPECT_EQ(rows[3], (std::vector<double>{3, 1, 2, 0}));
  EXPECT_THAT(script, HasSubstr("set output 'k.svg'"));
  EXPECT_THAT(script, HasSubstr("ordered by target"));
  EXPECT_THAT(script, HasSubstr("set yrange [4:0]"));
  EXPECT_THAT(kernel_heat_map_script(K, arma::vec{1, 1, -1, -1}, KernelHeatMap{"k", "", true}),
              HasSubstr("ordered by label"));
}

TEST(KernelHeatMap, LargeMatricesAveragedOverBlocks) {
  // n = 2 × kHeatMapCells, targets in order: each cell averages a 2 × 2 block of
  // K(i, j) = i + j, so cell (a, b) is (2a + 0.5) + (2b + 0.5).
  const arma::uword n = 2 * kHeatMapCells;
  arma::mat K(n, n);
  for (arma::uword i = 0; i < n; ++i) {
    for (arma::uword j = 0; j < n; ++j) K(i, j) = static_cast<double>(i + j);
  }
  const arma::vec y = arma::regspace(0, static_cast<double>(n) - 1);
  const std::string script = kernel_heat_map_script(K, y, KernelHeatMap{"k", "t", false});
  const auto rows = heat_data(script);
  ASSERT_EQ(rows.size(), kHeatMapCells);
  ASSERT_EQ(rows[0].size(), kHeatMapCells);
  EXPECT_DOUBLE_EQ(rows[0][0], 1.0);
  EXPECT_DOUBLE_EQ(rows[3][7], 2 * 3 + 2 * 7 + 1.0);
  EXPECT_DOUBLE_EQ(rows[199][199], 2 * 199 + 2 * 199 + 1.0);
  EXPECT_THAT(script, HasSubstr("a block of about 2 × 2 points"));
}

TEST(WriteGramMatrix, ALowerTriangleIsWrittenWholeAndSymmetric) {
  test::TempDir dir;
  const ResultFolder folder(dir.path());
  arma::mat K = {{1.0, -7.0, -7.0}, {0.5, 2.0, -7.0}, {0.25, 0.75, 3.0}};  // upper: garbage
  const auto file = write_gram_matrix(folder, "c1-0", K, /*lower_only=*/true, arma::vec{1, 2, 3},
                                      KernelHeatMap{"", "K", false});
  EXPECT_EQ(file, dir.path() / "kernels" / "c1-0-K.npy");
  EXPECT_EQ(npy_values(read_text_file(file)),
            (std::vector<double>{1, 0.5, 0.25, 0.5, 2, 0.75, 0.25, 0.75, 3}));
  const auto cross = write_cross_gram_matrix(folder, "c1-0", arma::mat{{1.0, 2.0}});
  EXPECT_EQ(cross, dir.path() / "kernels" / "c1-0-K-test.npy");
  EXPECT_EQ(npy_values(read_text_file(cross)), (std::vector<double>{1, 2}));
}

}  // namespace
}  // namespace kexp::core
