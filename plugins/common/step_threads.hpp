// The threads of an iterative solver whose every step is short (SMO: a column of K and a few
// passes over n values, tens of microseconds), on kexp's OpenMP threads.
//
// A parallel region per step pays where the threads have cores to themselves. Where the
// cores are shared with other work, a region waits for each of its threads, and a thread the
// system has not scheduled holds it up for a scheduler tick while the others spin: on two
// cores with one busy elsewhere, svc at n = 10⁴ took 22 s on two threads against 0.5 s on
// one. So the solver runs its own regions with a thread count it chooses as it goes
// (StepThreads: stretches of steps timed on one thread and on all, the faster kept, the
// other tried again now and then), and holds the SDK's own regions (the Gram path inside
// each column) to one thread meanwhile (SdkOnOneThread), so that no region inside a step
// asks for more threads than the step chose.
#pragma once

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>

#include "kexp/parallel.hpp"

namespace kexp_solvers {

/// Holds kexp::thread_count() at one for its lifetime and gives back the count it found.
class SdkOnOneThread {
 public:
  SdkOnOneThread() : threads_(kexp::thread_count()) { kexp::set_thread_count(1); }
  ~SdkOnOneThread() { kexp::set_thread_count(threads_); }
  SdkOnOneThread(const SdkOnOneThread&) = delete;
  SdkOnOneThread& operator=(const SdkOnOneThread&) = delete;
  /// kexp's threads before it held them.
  [[nodiscard]] int threads() const { return threads_; }

 private:
  int threads_;
};

/// f(lo, hi, part) on `parts` contiguous parts of [0, n): on as many threads in one region
/// (what f throws is rethrown here, as kexp::parallel_for does), or here for one part.
template <class F>
void in_parts(std::size_t n, std::size_t parts, const F& f) {
  if (parts <= 1) {
    f(0, n, 0);
    return;
  }
  kexp::ExceptionCapture capture;
  const auto count = static_cast<long>(parts);
#pragma omp parallel for schedule(static) num_threads(static_cast <int>(parts))
  for (long p = 0; p < count; ++p) {
    if (capture.failed()) continue;
    const auto q = static_cast<std::size_t>(p);
    capture.run([&] { f(n * q / parts, n * (q + 1) / parts, q); });
  }
  capture.rethrow_if_any();
}

/// Whether `threads` threads meet quickly: 8 empty parallel regions, each within 20 µs. Where
/// the threads have cores to themselves a region takes a microsecond or two; where a core is
/// busy with other work, one that waits for a thread takes up to a scheduler tick, and the
/// test stops at the first such.
inline bool regions_are_quick(int threads) {
  for (int k = 0; k < 8; ++k) {
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads)
    {
      // nothing: the cost of meeting
    }
    if (std::chrono::steady_clock::now() - start > std::chrono::microseconds(20)) return false;
  }
  return true;
}

/// The thread count of the next steps: one or all, whichever ran the last stretch of steps
/// faster. A trial of all is made only where a stretch on one thread took 20 ms at least and
/// the threads meet quickly (regions_are_quick); one that runs slower than one thread is cut
/// short once it is twice as slow, and after a trial lost or not made the next waits four
/// times as long.
class StepThreads {
 public:
  explicit StepThreads(int most) : most_(most > 1 ? most : 1) {}

  /// Threads for the current step.
  [[nodiscard]] int threads() const { return current_; }

  /// Counts a step; at the end of a stretch (or of a trial that runs too slow), times it and
  /// sets the next steps' threads. True when the count changed.
  bool stepped() {
    if (most_ == 1) return false;
    ++steps_;
    const bool trial = phase_ == Phase::all;
    if (steps_ < kStretch && !(trial && steps_ % kCheck == 0)) return false;
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    if (steps_ < kStretch) {
      // a trial of all the threads, part of the way: cut short when twice as slow as one
      if (seconds < 2.0 * one_ * steps_ / kStretch) return false;
      return settle(false);
    }
    if (phase_ == Phase::one) {  // one thread timed: try all next, where they meet quickly
      one_ = seconds;
      // steps this short (under 80 µs) leave threads too little to share: no trial
      if (one_ < kWorthTrying || !regions_are_quick(most_)) return settle(false);
      phase_ = Phase::all;
      restart(std::chrono::steady_clock::now());
      current_ = most_;
      return true;
    }
    if (trial) return settle(seconds < one_);
    restart(now);
    if (--left_ > 0) return false;
    phase_ = Phase::one;  // time both again
    const int before = current_;
    current_ = 1;
    return current_ != before;
  }

 private:
  enum class Phase { one, all, keep };
  static constexpr int kStretch = 256;  ///< steps timed together
  static constexpr int kCheck = 4;      ///< a trial checks its pace every so many steps
  static constexpr int kKept = 16;      ///< stretches between two trials, at first
  static constexpr int kMostKept = 1024;
  static constexpr double kWorthTrying = 0.02;  ///< seconds of a stretch on one thread

  void restart(std::chrono::steady_clock::time_point now) {
    start_ = now;
    steps_ = 0;
  }

  /// After a trial of all the threads: keep them if they were faster, else one; the next
  /// trial comes after kKept stretches, or twice as many as the last wait after a loss.
  bool settle(bool all_faster) {
    restart(std::chrono::steady_clock::now());
    phase_ = Phase::keep;
    wait_ = all_faster ? kKept : std::min(4 * wait_, kMostKept);
    left_ = wait_;
    const int before = current_;
    current_ = all_faster ? most_ : 1;
    return current_ != before;
  }

  int most_;
  int current_ = 1;
  Phase phase_ = Phase::one;
  int steps_ = 0, left_ = 0, wait_ = kKept / 4;
  double one_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace kexp_solvers
