// What one run of a cell (a cell and a repeat) gives: its status and every figure it
// measured, as plain values. reporting/results_row turns it into a row of results.csv.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/timing.hpp"
#include "kexp/solver.hpp"

namespace kexp::core {

/// device_name of a cell whose device code path ran on the host backend (`device: host`).
inline constexpr const char* kHostBackendName = "host backend";

struct CellResult {
  /// Timeout: killed when it ran past its time limit (run/time_budget.hpp).
  enum class Status { Ok, Failed, Refused, Timeout };
  Status status = Status::Ok;
  std::string error;  ///< why it failed or was refused
  /// Where its solver's device code path ran: the GPU's name (`device: cuda`), or
  /// kHostBackendName (`device: host`); empty on the CPU path.
  std::string device_name;

  std::size_t n_train = 0, n_test = 0, d = 0;
  std::optional<std::size_t> feature_dim;  ///< primal: D

  /// Wall time of each phase, measured repeatedly (exec/timing.hpp). K (dual) or Φ
  /// (primal) is built once per group and its timing repeated in every cell of the
  /// group; predict includes building the group's test inputs (K(X, X*) or Φ(X*)).
  std::optional<PhaseTiming> gram, features, fit, predict;
  /// A kernel that learns (flags::fitted): fitting it on the training part, once per
  /// group, its timing repeated in every cell of the group like K's.
  std::optional<PhaseTiming> kernel_fit;
  std::optional<double> train_rmse, test_rmse, test_accuracy;
  /// Model selection: the error on the held-out part of each validation split, mean and
  /// sample standard deviation over the splits (no deviation for a single split), and
  /// the wall time of all the splits' fits and predictions.
  std::optional<double> validation_rmse, validation_rmse_std, validation_accuracy,
      validation_accuracy_std, validation_seconds;
  std::optional<double> flops;         ///< analytic: the kernel's or map's and the solver's
  std::optional<double> matrix_bytes;  ///< K or Φ and its test block, and the solver's own
  std::int64_t peak_rss_bytes = -1;
  /// A warning when the cell's resident memory grew far beyond what the budget counted
  /// for it (exec/metrics.hpp, memory_note); empty otherwise.
  std::string memory_notes;
  /// Set when a solver that reaches the kernel reported fewer flops than the SDK counted
  /// for its kernel evaluations; `flops` then holds the counted figure.
  std::string flops_notes;
  std::optional<long> iterations;
  std::optional<bool> converged;
  /// The earlier cell of the group that is this one's counterpart in the other form,
  /// and the largest difference between the two's test predictions.
  std::optional<std::string> paired_with;
  std::optional<double> prediction_max_diff;
  /// For a solver that ran in precision single or mixed: the largest difference between
  /// its test predictions and those of the earlier cell of the group that is the same
  /// solver with the same parameters in precision double.
  std::optional<double> precision_max_diff;
  std::vector<std::pair<std::string, double>> metrics;  ///< the solver's own
  /// What a solver that learns the kernel learned (SolverReport::learned).
  std::vector<std::pair<std::string, double>> learned;
  std::vector<double> loss_curve;
  Prediction prediction;  ///< on the test set
};

}  // namespace kexp::core
