// The memory estimate of a dual cell: K, and a working copy of K unless the cell is the
// last of its group to read K and may factor it in place, and what learning the kernel's
// hyperparameters holds instead of K, by hand.
#include "run/budget.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

TEST(Budget, ADualCellCountsAWorkingCopyOfKUnlessItFactorsKInPlace) {
  PreparedData prepared;
  const double n = 300, m = 100, d = 4;
  prepared.X_train.zeros(4, 300);
  prepared.X_test.zeros(4, 100);
  const DataDims data = dims_of(prepared);
  const auto kernel = test::make_kernel("gaussian");
  Cell cell;
  cell.form = Form::Dual;
  const double inputs = 8 * d * (n + m);
  const MemoryEstimate copy = estimate_memory(cell, data, *kernel);
  EXPECT_DOUBLE_EQ(copy.bytes, 8 * (2 * n * n + n * m + m) + inputs);
  EXPECT_THAT(copy.what, HasSubstr("the n × n Gram matrix and a working copy"));
  const MemoryEstimate in_place = estimate_memory(cell, data, *kernel, -1, true);
  EXPECT_DOUBLE_EQ(in_place.bytes, 8 * (n * n + n * m + m) + inputs);
  EXPECT_THAT(in_place.what, HasSubstr("the n × n Gram matrix (factored in place)"));
  // mixed precision factors a float32 copy of K + λI beside K
  const MemoryEstimate mixed = estimate_memory(cell, data, *kernel, -1, true, false, false, true);
  EXPECT_DOUBLE_EQ(mixed.bytes, 8 * (n * n + n * m + m) + 4 * n * n + inputs);
  EXPECT_THAT(mixed.what, HasSubstr("(factored in place), its float32 copy"));
  // learning σ and the noise: no K, but C and one slice of ∂K, then the learned cross
  // block and L⁻¹K(X, X*), whatever the cell's place
  for (const bool last : {false, true}) {
    const MemoryEstimate learning = estimate_memory(cell, data, *kernel, -1, last, true);
    EXPECT_DOUBLE_EQ(learning.bytes, 8 * (2 * n * n + 2 * n * m + m) + inputs);
    EXPECT_THAT(learning.what,
                HasSubstr("to learn 2 hyperparameters, C = K + noise·I, 1 slice of ∂K"));
    EXPECT_THAT(learning.what, HasSubstr("never reads the Gram matrix"));
  }
  // a solver that reaches the kernel holds what it says, whatever its place
  EXPECT_DOUBLE_EQ(estimate_memory(cell, data, *kernel, 1000, true).bytes, 1000 + inputs);
  // between two cells that read K, K and K(X, X*) are kept beside a cell that reads none
  const double kept = 8 * (n * n + n * m);
  const MemoryEstimate reaching = estimate_memory(cell, data, *kernel, 1000, false, false, true);
  EXPECT_DOUBLE_EQ(reaching.bytes, 1000 + inputs + kept);
  EXPECT_THAT(reaching.what, HasSubstr("beside the group's K and K(X, X*), kept for a later cell"));
  EXPECT_DOUBLE_EQ(estimate_memory(cell, data, *kernel, -1, false, true, true).bytes,
                   8 * (2 * n * n + 2 * n * m + m) + inputs + kept);
  Cell primal;
  primal.form = Form::Primal;
  const auto map = test::make_kernel("polynomial", {{"degree", "2"}});
  EXPECT_DOUBLE_EQ(estimate_memory(primal, data, *map, -1, false, false, true).bytes -
                       estimate_memory(primal, data, *map).bytes,
                   kept);
  // in float32, Φ and Φ(X*) rounded besides: D = 15 for degree 2 in d = 4
  const MemoryEstimate single = estimate_memory(primal, data, *map, -1, false, false, false, true);
  EXPECT_DOUBLE_EQ(single.bytes - estimate_memory(primal, data, *map).bytes, 4 * 15 * (n + m));
  EXPECT_THAT(single.what, HasSubstr("Φ, Φ(X*) with their float32 copies"));
}

}  // namespace
}  // namespace kexp::core
