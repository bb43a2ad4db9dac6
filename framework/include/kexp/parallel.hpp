// Parallel loops that an exception can leave.
//
// An exception must not leave an OpenMP parallel region: one that does ends the process
// (std::terminate). Kernels, feature maps and allocations may throw inside the SDK's
// parallel loops, so every such loop runs its body through an ExceptionCapture: the first
// exception thrown on any thread is kept, the other threads skip the iterations they have
// not started, and the exception is rethrown on the calling thread after the region. The
// capture is one try/catch around each iteration of the outer loop (no cost unless
// something throws) and one relaxed atomic load before it, never anything per entry.
//
//   kexp::parallel_for(X.n_cols, [&](std::size_t i) { fill_column(X, i, Phi); });
//
// or, for a region of one's own (per-thread scratch space, several loops):
//
//   kexp::ExceptionCapture capture;
//   #pragma omp parallel num_threads(kexp::thread_count())
//   {
//     std::vector<double> scratch;
//     capture.run([&] { scratch.resize(m); });
//   #pragma omp for schedule(static)
//     for (long i = 0; i < n; ++i) {
//       if (capture.failed()) continue;
//       capture.run([&] { fill_column(scratch, i); });
//     }
//   }
//   capture.rethrow_if_any();
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>

#include "kexp/export.hpp"

namespace kexp {

/// Number of threads kexp uses for its own parallel loops (Gram blocks, feature maps).
KEXP_API int thread_count();
/// Sets it; n ≤ 0 restores the default (all cores, or OMP_NUM_THREADS).
KEXP_API void set_thread_count(int n);

/// Keeps the first exception thrown by the functions it runs, from any thread, until the
/// calling thread rethrows it after the parallel region. Share one object among the
/// threads of a region; it is not reusable across regions.
class ExceptionCapture {
 public:
  ExceptionCapture() = default;
  ExceptionCapture(const ExceptionCapture&) = delete;
  ExceptionCapture& operator=(const ExceptionCapture&) = delete;

  /// Calls f(); whatever it throws (a std::exception or anything else) is kept if it is
  /// the first, and dropped otherwise. Never throws.
  template <class F>
  void run(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      bool expected = false;
      if (failed_.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
        first_ = std::current_exception();
      }
    }
  }

  /// Whether something has thrown: the remaining iterations can be skipped.
  [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

  /// Rethrows the first exception kept, if any. Call it on the calling thread, after the
  /// parallel region (whose end orders every thread's writes before it).
  void rethrow_if_any() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::atomic<bool> failed_{false};
  std::exception_ptr first_;
};

/// How parallel_for shares the iterations among threads: OpenMP's schedule(static) or
/// schedule(dynamic, chunk).
enum class Schedule { Static, Dynamic };

/// Runs body(i) for i = 0 … n − 1 on thread_count() threads. The first exception that
/// body throws on any thread is rethrown here once every thread has stopped; the
/// iterations not started by then are skipped. `chunk`: iterations handed out at a time
/// with Schedule::Dynamic (at least 1).
template <class Body>
void parallel_for(std::size_t n, const Body& body, Schedule schedule = Schedule::Static,
                  int chunk = 1) {
  ExceptionCapture capture;
  const auto count = static_cast<long>(n);
  if (schedule == Schedule::Static) {
#pragma omp parallel for schedule(static) num_threads(thread_count())
    for (long i = 0; i < count; ++i) {
      if (capture.failed()) continue;
      capture.run([&] { body(static_cast<std::size_t>(i)); });
    }
  } else {
    const int c = chunk > 0 ? chunk : 1;
#pragma omp parallel for schedule(dynamic, c) num_threads(thread_count())
    for (long i = 0; i < count; ++i) {
      if (capture.failed()) continue;
      capture.run([&] { body(static_cast<std::size_t>(i)); });
    }
  }
  capture.rethrow_if_any();
}

}  // namespace kexp
