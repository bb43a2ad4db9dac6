// The memory note of a cell: its growth against the estimate the budget counted; the RMSE
// of errors near the ends of double's range.
#include "exec/metrics.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

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

TEST(Rmse, ErrorsFarBelowOrAboveTheSquaresRangeKeepTheirSize) {
  // Errors of 3e-201 and 6.1e-201 square to zero in double; their RMSE does not.
  const arma::vec y = {1e-200, 2e-200};
  const arma::vec p = {1e-200 + 3e-201, 2e-200 - 6.1e-201};
  const double expected_tiny = std::sqrt((3.0 * 3.0 + 6.1 * 6.1) / 2) * 1e-201;
  EXPECT_NEAR(rmse(y, p) / expected_tiny, 1.0, 1e-12);
  // errors of 1e200 square to infinity
  const arma::vec big = {1e200, -1e200, 0.0};
  EXPECT_NEAR(rmse(big, arma::vec(3, arma::fill::zeros)) / (1e200 * std::sqrt(2.0 / 3.0)), 1.0,
              1e-14);
  // ordinary values: the textbook formula, to rounding
  const arma::vec a = {1.0, 2.0, 4.0}, b = {1.5, 1.0, 4.0};
  EXPECT_NEAR(rmse(a, b), std::sqrt((0.25 + 1.0) / 3.0), 1e-15);
  EXPECT_EQ(rmse(a, a), 0.0);
  // an error that overflows stays infinite, so that the cell says why
  const arma::vec huge = {1.7e308}, minus = {-1.7e308};
  EXPECT_TRUE(std::isinf(rmse(huge, minus)));
}

TEST(Accuracy, CountsSignsForTwoClassesAndLabelsForMore) {
  const arma::vec y = {1, -1, 1, -1};
  EXPECT_DOUBLE_EQ(*task_accuracy(Task::Classification, y, {0.5, -2, 0, 3}), 0.75);
  // more classes: the label predicted must be the label
  const arma::vec labels = {0, 2, 1, 2};
  EXPECT_DOUBLE_EQ(*task_accuracy(Task::Multiclass, labels, {0, 2, 2, 2}), 0.75);
  EXPECT_DOUBLE_EQ(*task_accuracy(Task::Multiclass, labels, {0.1, 2, 1, 2}), 0.75);
  EXPECT_FALSE(task_accuracy(Task::Regression, y, y).has_value());
  EXPECT_TRUE(std::isnan(label_accuracy(labels, {1, 2})));
}

}  // namespace
}  // namespace kexp::core
