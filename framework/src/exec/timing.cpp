// A phase's measurements summed up (median, range, count), two phases joined one after
// the other, whether to measure a phase again under the experiment's timing settings, and
// the notes that flag a phase as too short or too noisy to compare.
#include "exec/timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kexp::core {

PhaseTiming PhaseTiming::of(std::vector<double> seconds) {
  PhaseTiming t;
  if (seconds.empty()) return t;
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  t.median = n % 2 == 1 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  t.min = seconds.front();
  t.max = seconds.back();
  t.count = static_cast<int>(n);
  return t;
}

PhaseTiming PhaseTiming::then(const PhaseTiming& next) const {
  return {median + next.median, min + next.min, max + next.max, std::min(count, next.count)};
}

double PhaseTiming::spread() const { return median > 0 ? (max - min) / median : 0.0; }

bool measure_again(const TimingSpec& timing, const std::vector<double>& seconds) {
  if (static_cast<int>(seconds.size()) >= timing.max_measurements) return false;
  double total = 0;
  for (const double s : seconds) total += s;
  return total < timing.min_seconds;
}

std::string timing_notes(const std::vector<std::pair<std::string, const PhaseTiming*>>& phases) {
  std::string notes;
  const auto add = [&](const std::string& note) { notes += (notes.empty() ? "" : " / ") + note; };
  for (const auto& [name, t] : phases) {
    if (t == nullptr || t->count == 0) continue;
    if (t->median < kNoiseFloorSeconds) {
      add(fmt::format("{} below {:g} ms", name, kNoiseFloorSeconds * 1e3));
    } else if (t->count >= 3 && t->spread() > kNoisySpread) {
      add(fmt::format("{} noisy: spread {:.0f}% over {}", name, 100 * t->spread(), t->count));
    }
  }
  return notes;
}

}  // namespace kexp::core
