// The memory note of a cell: its growth against the estimate the budget counted.
#include "exec/metrics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(MemoryNote, AGrowthOverTwiceTheEstimateAndTheSlackIsNoted) {
  constexpr double MB = 1e6;
  // 1 kB claimed, 110 MB grown: the case of a solver that builds K it did not declare
  EXPECT_THAT(memory_note(110 * MB, 1000),
              AllOf(HasSubstr("grew by 110 MB"), HasSubstr("more than twice the 0.001 MB"),
                    HasSubstr("Solver::memory_bytes")));
  // twice is not over twice; within the slack is allocator noise
  EXPECT_EQ(memory_note(400 * MB, 200 * MB), "");
  EXPECT_NE(memory_note(401 * MB, 200 * MB), "");
  EXPECT_EQ(memory_note(kMemorySlackBytes, 0), "");
  EXPECT_NE(memory_note(kMemorySlackBytes + 1, 0), "");
  EXPECT_EQ(memory_note(30 * MB, 1 * MB), "");
  // no estimate, or memory that shrank
  EXPECT_EQ(memory_note(500 * MB, -1), "");
  EXPECT_EQ(memory_note(-5 * MB, 1000), "");
}

}  // namespace
}  // namespace kexp::core
