// The crossover of primal and dual times in n with the range their measurements imply,
// and when the measurements do not settle it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reporting/summary_tables.hpp"

namespace kexp::core::summary {
namespace {

using ::testing::HasSubstr;

TimeRange at(double median, double spread = 0.0, bool below = false) {
  return {median, median * (1 - spread), median * (1 + spread), below};
}

TEST(MeasuredCrossover, FromTheMediansWithTheRangeTheSpreadImplies) {
  // primal ∝ n, dual ∝ n²: the medians cross at n = 300 (0.3 = 300²/3e5).
  const std::vector<double> n = {100, 200, 400, 800};
  std::vector<TimeRange> primal, dual;
  for (double x : n) {
    primal.push_back(at(x / 1000, 0.05));
    dual.push_back(at(x * x / 3e5, 0.05));
  }
  const auto c = measured_crossover(n, primal, dual);
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->unresolved.empty()) << c->unresolved;
  // interpolated in (log n, log t) between 200 and 400, where both are power laws: exact
  EXPECT_NEAR(c->n, 300, 1e-9);
  EXPECT_TRUE(c->bounded);
  EXPECT_LT(c->low, c->n);
  EXPECT_GT(c->high, c->n);
  // ±5 % on each side moves the crossing of t ∝ n and t ∝ n² by a factor (1.05/0.95)
  EXPECT_NEAR(c->high / c->low, std::pow(1.05 / 0.95, 2), 1e-9);
}

TEST(MeasuredCrossover, OverlappingRangesEitherSideAreNotResolved) {
  const std::vector<double> n = {100, 200, 400};
  const std::vector<TimeRange> primal = {at(0.010, 0.5), at(0.020, 0.5), at(0.040, 0.5)};
  const std::vector<TimeRange> dual = {at(0.009, 0.5), at(0.021, 0.5), at(0.050, 0.5)};
  const auto c = measured_crossover(n, primal, dual);
  ASSERT_TRUE(c.has_value());
  EXPECT_THAT(c->unresolved, HasSubstr("overlap within their measured range at n = 100 and 200"));
}

TEST(MeasuredCrossover, TimesBelowTheNoiseFloorAreNotResolved) {
  const std::vector<double> n = {10, 20, 40};
  const std::vector<TimeRange> primal = {at(2e-4, 0, true), at(3e-4, 0, true), at(4e-4, 0, true)};
  const std::vector<TimeRange> dual = {at(1e-4, 0, true), at(4e-4, 0, true), at(9e-4, 0, true)};
  const auto c = measured_crossover(n, primal, dual);
  ASSERT_TRUE(c.has_value());
  EXPECT_THAT(c->unresolved, HasSubstr("not resolved: times below 1 ms at n = 10 or 20"));
}

TEST(MeasuredCrossover, NothingWhenTheMediansDoNotCross) {
  const std::vector<double> n = {100, 200};
  EXPECT_FALSE(measured_crossover(n, {at(1), at(2)}, {at(3), at(4)}).has_value());
}

}  // namespace
}  // namespace kexp::core::summary
