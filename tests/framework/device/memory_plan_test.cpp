// Device memory of the GPU work and falkon's block sizes, against figures worked by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kexp/device.hpp"

namespace kexp::device {
namespace {

using ::testing::HasSubstr;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

TEST(DeviceMemory, KernelRidgeHoldsKXAndThreeVectors) {
  // n = 1000, d = 10: 8·(10⁶ + 10⁴ + 3000) + 4096
  EXPECT_EQ(ridge_bytes(1000, 10, 4096.0), 8.0 * 1013000.0 + 4096.0);
  // n = 4·10⁴: K alone is 12.8 GB
  EXPECT_GT(ridge_bytes(40000, 10, 0), 12.8e9);
}

TEST(DeviceMemory, FalkonHoldsXTheCentresAndThreeMByMMatrices) {
  // n = 10⁶, m = 10⁴, d = 10: 8·(10⁷ + 3·10⁶ + 10⁵ + 3·10⁸ + 8·10⁴)
  EXPECT_EQ(nystrom_fixed_bytes(1000000, 10000, 10), 8.0 * 313180000.0);
}

TEST(DeviceMemory, TheLeastHeldAddsOneBlockAtItsSmallest) {
  // falkon: the fixed part and 256 rows of m + 2 doubles; fewer rows when n is smaller
  EXPECT_EQ(nystrom_least_bytes(1000000, 10000, 10),
            nystrom_fixed_bytes(1000000, 10000, 10) + 8.0 * 256 * 10002);
  EXPECT_EQ(nystrom_least_bytes(100, 10, 3), nystrom_fixed_bytes(100, 10, 3) + 8.0 * 100 * 12);
  // a product at 1000 points from 200: (d + 2)(n + m) doubles, and 256 rows of n + 2
  EXPECT_EQ(product_least_bytes(200, 1000, 3), 8.0 * (5 * 1200 + 256 * 202));
  EXPECT_EQ(product_least_bytes(200, 10, 3), 8.0 * (5 * 210 + 10 * 202));
}

TEST(DeviceMemory, BlocksOfKnmTakeTheShareOfFreeMemoryInWholeGranules) {
  // all n rows fit: 1000 rows of m + 2 = 102 doubles is 816 000 bytes
  EXPECT_EQ(nystrom_block_rows(1000, 100, 1e6, 1.0), 1000U);
  // half of 1 MB holds 612 rows of 816 bytes, rounded down to 512
  EXPECT_EQ(nystrom_block_rows(100000, 100, 1e6, 0.5), 512U);
  // not even 256 rows: none
  EXPECT_EQ(nystrom_block_rows(100000, 100, 200000, 1.0), 0U);
  // fewer than 256 rows in all, and they fit
  EXPECT_EQ(nystrom_block_rows(100, 100, 81600, 1.0), 100U);
  // an H100's 80 GB at 0.8, m = 10⁴: 64 GB / 80 016 bytes = 799 840 rows → 799 744
  EXPECT_EQ(nystrom_block_rows(1000000, 10000, 80e9, 0.8), 799744U);
  // the same rule for the columns of a product
  EXPECT_EQ(product_block_columns(1000, 100, 1e6, 0.5), 512U);
}

TEST(DeviceMemory, ARefusalGivesTheNeedAndTheFreeAndTotalMemory) {
  EXPECT_FALSE(memory_refusal(1.0 * kGiB, 2.0 * kGiB, 80.0 * kGiB, "K"));
  const auto refusal = memory_refusal(100.0 * kGiB, 70.5 * kGiB, 80.0 * kGiB, "K of 10⁵ × 10⁵");
  ASSERT_TRUE(refusal);
  EXPECT_THAT(*refusal, HasSubstr("about 100.00 GiB of GPU memory (K of 10⁵ × 10⁵)"));
  EXPECT_THAT(*refusal, HasSubstr("70.50 GiB free of 80.00 GiB"));
  EXPECT_THAT(*refusal, HasSubstr("device: cpu"));
}

}  // namespace
}  // namespace kexp::device
