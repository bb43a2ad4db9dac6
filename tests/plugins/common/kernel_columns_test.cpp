// The column cache of the SMO solvers: least recently used columns dropped at the budget,
// two full columns always kept, columns extended and cut as positions are exchanged; and
// kernel columns from the kernel's Gram path equal to k evaluated pair by pair.
#include <gtest/gtest.h>

#include <armadillo>

#include "common/kernel_columns.hpp"
#include "support/plugins.hpp"

namespace kexp_solvers {
namespace {

void fill(double* data, std::size_t from, std::size_t to, double slot) {
  for (std::size_t k = from; k < to; ++k) data[k] = slot * 1000 + static_cast<double>(k);
}

TEST(ColumnCache, KeepsTheColumnsReadLastWithinItsBytes) {
  // 10 slots of 10 entries, 3 columns' worth of bytes
  ColumnCache cache(10, 10, 3 * 10 * 8.0);
  double* data = nullptr;
  for (std::size_t s : {0, 1, 2}) {
    EXPECT_EQ(cache.request(s, 10, &data), 0U);  // all to compute
    fill(data, 0, 10, static_cast<double>(s));
  }
  EXPECT_EQ(cache.request(0, 10, &data), 10U);  // cached: slot 0 is now the most recent
  EXPECT_EQ(data[7], 7.0);
  EXPECT_EQ(cache.request(3, 10, &data), 0U);  // drops slot 1, the least recently used
  fill(data, 0, 10, 3);
  EXPECT_EQ(cache.request(2, 10, &data), 10U);
  EXPECT_EQ(data[4], 2004.0);
  EXPECT_EQ(cache.request(1, 10, &data), 0U) << "slot 1 should have been dropped";
  EXPECT_DOUBLE_EQ(cache.entries_requested(), 70.0);
  EXPECT_DOUBLE_EQ(cache.entries_computed(), 50.0);
  EXPECT_DOUBLE_EQ(cache.peak_bytes(), 3 * 10 * 8.0);
}

TEST(ColumnCache, HoldsTwoFullColumnsWhateverItsBudget) {
  ColumnCache cache(5, 100, 8.0);
  EXPECT_DOUBLE_EQ(cache.capacity_bytes(), 2 * 100 * 8.0);
  double *a = nullptr, *b = nullptr;
  cache.request(0, 100, &a);
  fill(a, 0, 100, 1);
  cache.request(1, 100, &b);
  EXPECT_EQ(a[99], 1099.0) << "the first column of a step must survive the second";
}

TEST(ColumnCache, ExtendsAColumnAndFollowsExchangedPositions) {
  ColumnCache cache(6, 6, 1e6);
  double* data = nullptr;
  EXPECT_EQ(cache.request(0, 4, &data), 0U);
  fill(data, 0, 4, 0);
  EXPECT_EQ(cache.request(0, 6, &data), 4U);  // only the two entries it lacks
  fill(data, 4, 6, 0);
  EXPECT_EQ(data[2], 2.0);
  cache.request(1, 3, &data);  // slot 1 holds positions 0..2
  fill(data, 0, 3, 1);
  // exchange positions 1 and 4: slot 1's column becomes slot 4's; column 0 (length 6)
  // swaps its entries; the moved column (length 3) no longer has position 1's value and is
  // cut to [0, 1)
  cache.swap_positions(1, 4);
  EXPECT_EQ(cache.request(0, 6, &data), 6U);
  EXPECT_EQ(data[1], 4.0);
  EXPECT_EQ(data[4], 1.0);
  EXPECT_EQ(cache.request(4, 3, &data), 1U);
  EXPECT_EQ(data[0], 1000.0);
  EXPECT_EQ(cache.request(1, 3, &data), 0U) << "slot 1 now holds slot 4's empty column";
  // positions 0 and 5 exchange the columns of those slots too
  cache.swap_positions(0, 5);
  EXPECT_EQ(cache.request(5, 6, &data), 6U) << "slot 5 holds what slot 0 held";
  EXPECT_EQ(data[0], 5.0);  // and position 0 now holds what position 5 held
}

TEST(KernelColumn, EqualsTheKernelPairByPair) {
  const auto k = kexp::test::make_kernel("gaussian", {{"sigma", "0.7"}});
  arma::arma_rng::set_seed(1);
  const arma::mat X = arma::randn<arma::mat>(4, 600);
  arma::vec out(600 - 37);
  kernel_column(*k, X, 37, out.n_elem, X.colptr(5), out.memptr());
  for (arma::uword r = 0; r < out.n_elem; r += 41) {
    EXPECT_NEAR(out[r], k->evaluate(X.col(37 + r), X.col(5)), 1e-14);
  }
}

}  // namespace
}  // namespace kexp_solvers
