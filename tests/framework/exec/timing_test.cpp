// Timing a phase: the median, range and count of repeated measurements, when another
// measurement is due, and the notes a row gets for a phase below the noise floor or
// a noisy one.
#include "exec/timing.hpp"

#include <gtest/gtest.h>

namespace kexp::core {
namespace {

TEST(PhaseTiming, MedianRangeAndCountOfTheMeasurements) {
  const PhaseTiming odd = PhaseTiming::of({0.5, 0.1, 0.3});
  EXPECT_DOUBLE_EQ(odd.median, 0.3);
  EXPECT_DOUBLE_EQ(odd.min, 0.1);
  EXPECT_DOUBLE_EQ(odd.max, 0.5);
  EXPECT_EQ(odd.count, 3);
  EXPECT_DOUBLE_EQ(odd.spread(), (0.5 - 0.1) / 0.3);
  const PhaseTiming even = PhaseTiming::of({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  const PhaseTiming once = PhaseTiming::of({0.2});
  EXPECT_DOUBLE_EQ(once.median, 0.2);
  EXPECT_DOUBLE_EQ(once.spread(), 0.0);
  EXPECT_EQ(PhaseTiming::of({}).count, 0);
}

TEST(PhaseTiming, PhasesOneAfterTheOtherAdd) {
  const PhaseTiming t = PhaseTiming::of({1, 2, 3}).then(PhaseTiming::of({10, 30}));
  EXPECT_DOUBLE_EQ(t.median, 2 + 20);
  EXPECT_DOUBLE_EQ(t.min, 1 + 10);
  EXPECT_DOUBLE_EQ(t.max, 3 + 30);
  EXPECT_EQ(t.count, 2);
}

TEST(Timing, MeasuresAgainUntilTheMinimumTimeOrTheMaximumCount) {
  const TimingSpec spec{0.05, 4};
  EXPECT_TRUE(measure_again(spec, {0.01}));
  EXPECT_TRUE(measure_again(spec, {0.01, 0.02, 0.01}));             // 0.04 < 0.05, 3 < 4
  EXPECT_FALSE(measure_again(spec, {0.01, 0.02, 0.03}));            // 0.06 ≥ 0.05
  EXPECT_FALSE(measure_again(spec, {0.001, 0.001, 0.001, 0.001}));  // 4 measurements
  EXPECT_FALSE(measure_again(spec, {0.2}));                         // one long measurement
  EXPECT_FALSE(measure_again(TimingSpec{0, 7}, {1e-9}));            // min_seconds 0: once
  EXPECT_FALSE(measure_again(TimingSpec{10, 1}, {1e-9}));           // max 1: once
}

TEST(Timing, MeasureCallsTheFunctionOncePerMeasurement) {
  int calls = 0;
  // A function far faster than a second: measured the maximum number of times.
  const PhaseTiming t = measure(TimingSpec{1.0, 5}, [&] { ++calls; });
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(t.count, 5);
  EXPECT_LE(t.min, t.median);
  EXPECT_LE(t.median, t.max);
  calls = 0;
  EXPECT_EQ(measure(TimingSpec{0, 5}, [&] { ++calls; }).count, 1);
  EXPECT_EQ(calls, 1);
}

TEST(Timing, NotesNameThePhasesBelowTheFloorAndTheNoisyOnes) {
  const PhaseTiming fast = PhaseTiming::of({2e-4, 3e-4, 2.5e-4});
  const PhaseTiming steady = PhaseTiming::of({0.10, 0.11, 0.105});
  const PhaseTiming noisy = PhaseTiming::of({0.10, 0.30, 0.12, 0.11});
  const PhaseTiming noisy_twice = PhaseTiming::of({0.10, 0.30});
  EXPECT_EQ(timing_notes({{"gram", &steady}, {"fit", &steady}}), "");
  EXPECT_EQ(timing_notes({{"gram", &fast}, {"fit", &steady}, {"predict", nullptr}}),
            "gram below 1 ms");
  EXPECT_EQ(timing_notes({{"fit", &noisy}, {"predict", &fast}}),
            "fit noisy: spread 174% over 4 / predict below 1 ms");
  EXPECT_EQ(timing_notes({{"fit", &noisy_twice}}), "");  // two measurements tell no spread
}

}  // namespace
}  // namespace kexp::core
