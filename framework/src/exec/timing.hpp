// Timing a phase of a cell (the Gram matrix or features, fit, predict) as a benchmark
// library does: measured again and again until the measurements add up to a minimum
// time or reach a maximum count, then reported as the median with its range and count,
// so that one slow measurement on a busy machine does not decide a comparison.
#pragma once

#include <string>
#include <vector>

#include "config/experiment.hpp"
#include "util/measure.hpp"

namespace kexp::core {

/// A phase shorter than this is at the scale of the timer, the scheduler and the caches:
/// its figure is reported but flagged, and a crossover between such phases is not
/// resolved.
constexpr double kNoiseFloorSeconds = 1e-3;
/// A phase whose measurements spread wider than this fraction of their median is flagged
/// as noisy (when there are at least three).
constexpr double kNoisySpread = 0.5;

/// The measurements of one phase.
struct PhaseTiming {
  double median = 0, min = 0, max = 0;
  int count = 0;

  /// From the measured seconds (at least one).
  [[nodiscard]] static PhaseTiming of(std::vector<double> seconds);
  /// Two phases one after the other (building the test inputs, then predicting): the
  /// medians, minima and maxima add; the count is the smaller.
  [[nodiscard]] PhaseTiming then(const PhaseTiming& next) const;
  /// (max − min) / median; 0 for one measurement.
  [[nodiscard]] double spread() const;
};

/// Whether a phase measured `seconds` so far is measured again: while they add up to
/// less than timing.min_seconds and there are fewer than timing.max_measurements.
[[nodiscard]] bool measure_again(const TimingSpec& timing, const std::vector<double>& seconds);

/// Measures first() once, then, while measure_again(), the call that prepare() returns:
/// prepare() runs untimed and sets up what a further measurement needs (a new solver, a
/// fresh copy of its inputs), so that only first() has effects that count.
template <class First, class Prepare>
PhaseTiming measure(const TimingSpec& timing, const First& first, const Prepare& prepare) {
  std::vector<double> seconds;
  const auto timed = [&](auto&& call) {
    const Stopwatch watch;
    call();
    seconds.push_back(watch.seconds());
  };
  timed(first);
  while (measure_again(timing, seconds)) timed(prepare());
  return PhaseTiming::of(std::move(seconds));
}

/// Measures f() at least once, and again while measure_again().
template <class F>
PhaseTiming measure(const TimingSpec& timing, const F& f) {
  return measure(timing, f, [&f] { return [&f] { f(); }; });
}

/// What a row says of its times: each phase below the noise floor ("fit below 1 ms") or
/// noisy ("predict noisy: spread 80% over 5"), joined by " / " (no comma or
/// semicolon, so that naive CSV readers keep it one field). Empty when every phase is
/// above the floor and steady. `phases` pairs a phase's name with its timing.
[[nodiscard]] std::string timing_notes(
    const std::vector<std::pair<std::string, const PhaseTiming*>>& phases);

}  // namespace kexp::core
