// Time: the least a cell can take, and the time a cell may take (--max-cell-time).
//
// A cell's flops are its K or Φ (the kernel's gram_flops, the map's flops) and at most its
// solver's fit (Solver::fit_flops_bound: every iteration, restart and evaluation its
// parameters allow), once for the fit and once for each validation split. At the machine's
// DGEMM rate, which no phase of a cell passes, they give a time the cell cannot beat: a
// cell whose time passes the limit is refused before it runs, with the figures, rather
// than run until someone kills it. Only a cell that could not finish is refused, since
// every figure errs towards a shorter time.
#pragma once

#include <optional>
#include <string>

#include "exec/data.hpp"
#include "kexp/kernel.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

/// The time a cell may take when --max-cell-time is not given: a day.
inline constexpr double kDefaultMaxCellSeconds = 86400;

/// A rate of floating-point operations and where it came from.
struct FlopRate {
  double flops_per_second = 0;
  std::string source;  ///< "DGEMM on 1 thread, measured by `kexp machine`"
};

/// DGEMM's rate on `threads`: from `kexp machine`'s measurement of this machine when there
/// is one (util/machine.hpp), else measured now on a small product (a few milliseconds).
FlopRate dgemm_rate_for(int threads);

/// A flop rate that every machine kexp runs on passes (one core of 2010 did ten times as
/// much): a cell whose flops take less than the limit at this rate needs no measured rate
/// to pass it.
inline constexpr double kSlowestFlopRate = 1e9;

/// The flops of one run of a cell, at least those of its K or Φ.
struct TimeEstimate {
  double flops = 0;
  /// Kernel values or features the cell computes outside its solver (K and K(X*, X), or
  /// Φ and Φ(X*)): a kernel's flop count may leave out what each value costs besides.
  double entries = 0;
  bool bounded = false;  ///< the solver gave its fit's bound; otherwise only K or Φ count
  std::string what;      ///< what the flops are, in words
};

/// The estimate for `cell` run by `solver` on data of sizes `data` with `kernel`; none for
/// a primal cell whose map cannot be built (the memory estimate refuses it).
TimeEstimate estimate_time(const Cell& cell, const Variant& solver, const DataDims& data,
                           const Kernel& kernel);

/// The message of a cell refused before it started because its estimate at `rate` passes
/// `max_seconds`, or nothing when it does not.
std::optional<std::string> time_refusal(const TimeEstimate& estimate, const FlopRate& rate,
                                        double max_seconds);

/// The time a running cell may take before it is killed (status `timeout`): a generous
/// multiple of its estimate at the slowest rate, never below a floor, and never above
/// --max-cell-time. It is enforced where the cell runs in a process of its own.
struct CellTimeLimit {
  double seconds = 0;  ///< 0: none
  std::string basis;   ///< how it was set, in words, for the row that passes it
};

/// 10 times the estimate at kSlowestFlopRate, its flops counted at no less than 50 per
/// entry, at least 5 minutes (1 hour when the solver states no bound on its fit), at most
/// `max_seconds` when that is > 0.
CellTimeLimit running_time_limit(const TimeEstimate& estimate, double max_seconds);

/// "0.4 s", "3.2 h", "12 days": two significant figures, in the largest unit that fits.
std::string seconds_text(double seconds);

}  // namespace kexp::core
