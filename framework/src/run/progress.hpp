// The progress line of a run, on stderr, rewritten in place, only when stderr is a
// terminal:
//
//   12/40 runs, 1 failed, 2.9 runs/min, 4m10s elapsed, ETA 9m30s; running friedman1
//   n=8000 | gaussian | kernel_ridge
//
// Cells go from small to large n, so the estimate weighs each run by its estimated cost
// (run_cost: the flops of its Gram matrix or features and of a factorization) and not by
// its count: the time so far per unit of cost finished, times the cost left.
#pragma once

#include <cstddef>
#include <string>

#include "exec/data.hpp"
#include "kexp/kernel.hpp"
#include "kexp/solver.hpp"
#include "util/measure.hpp"

namespace kexp::core {

/// What a run costs beyond its matrices, in the units of run_cost: its phases measured
/// until they add up to timing.min_seconds, its metrics and its row. About the time of
/// 1e9 flops on a machine of tens of GFLOP/s.
inline constexpr double kRunOverheadFlops = 1e9;

/// The estimated cost of one run, in flops: kRunOverheadFlops, plus K (n² d) and
/// K(X, X*) (n m d) and a factorization of K (n³/3) for a dual cell, or Φ and Φ(X*)
/// (D (n + m) d), ΦΦᵀ (D² n) and its factorization (D³/3) for a primal one; each
/// validation split (`splits`, fitting `n_fit` points) adds its own factorization. A
/// weight, not a prediction of flops: an iterative solver costs otherwise, but in
/// proportion across its own sweep.
double run_cost(Form form, double n, double m, double d, double D, std::size_t splits,
                double n_fit);

/// The run_cost of one run of a cell in `form` on `data` (its dataset's first repeat) with
/// `kernel`, whose map gives a primal cell's D; 0 for a primal cell whose map cannot be
/// built for the data (it is refused).
double run_cost(Form form, const DataDims& data, const Kernel& kernel);

/// Where a run stands.
struct ProgressState {
  std::size_t finished = 0, total = 0, failed = 0;
  double cost_done = 0, cost_total = 0;  ///< run_cost of the finished runs, of all
  double elapsed = 0;                    ///< seconds
  std::string running;                   ///< the cell that runs now, or empty
};

/// The text of the line.
std::string progress_line(const ProgressState& s);

/// "42s", "4m10s", "2h05m".
std::string duration_text(double seconds);

class Progress {
 public:
  /// `total` runs whose run_cost adds up to `cost_total`; `quiet`: never show the line.
  Progress(std::size_t total, double cost_total, bool quiet);

  /// A run starts: `label` names its cell (dataset, kernel, solver, n).
  void started(const std::string& label);

  /// After each run: how many have finished so far, how many of them failed, and the
  /// run_cost of the finished ones.
  void update(std::size_t finished, std::size_t failed, double cost_done);

  /// Prints a message on a line of its own, ending the progress line first.
  void message(const std::string& text);

  /// Ends the progress line, if shown.
  void close();

 private:
  void show();

  ProgressState state_;
  bool enabled_;
  bool shown_ = false;
  Stopwatch clock_;
};

}  // namespace kexp::core
