// Solver: the interface a solver plugin implements.
//
// A solver works in one form, declared in its plugin flags:
//   primal — trains θ ∈ R^D on the feature matrix Φ (D × n) of the kernel's map;
//   dual   — trains β ∈ R^n on the Gram matrix K (n × n), predicting with K(X, X*).
// A dual solver that also declares flags::kernel_inputs reaches the kernel instead: it
// gets the kernel and the training (and test) points, never a finished K, and computes
// what it needs itself — products K v streamed in blocks (kexp::gram::product), the
// blocks it chooses (Nyström centres) — so that n is no longer capped by n² memory.
// The runner builds Φ or K, times every phase and measures memory itself; a solver
// reports only what the runner cannot see: the analytic flop count of its work, the
// matrices it allocates, iterations and its own metrics.
#pragma once

#include <armadillo>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kexp/dataset.hpp"
#include "kexp/export.hpp"
#include "kexp/kernel.hpp"

namespace kexp {

enum class Form : std::uint8_t { Primal, Dual };

KEXP_API const char* to_string(Form form);

/// What the cells that share one Gram matrix or feature matrix (same data, repeat and
/// kernel; typically a sweep over a solver parameter such as λ) may hand on to each
/// other: a solver stores a factorization under a key and the next cell of the group
/// finds it. The runner drops it when the group ends.
class KEXP_API SharedState {
 public:
  [[nodiscard]] std::shared_ptr<void> get(const std::string& key) const;
  void put(const std::string& key, std::shared_ptr<void> value);

 private:
  std::map<std::string, std::shared_ptr<void>> values_;
};

/// The training set as a solver sees it. Exactly one of `gram` (dual), `features`
/// (primal) or `kernel` and `inputs` (flags::kernel_inputs, and flags::learns_kernel with
/// `optimize: true`) is set; a solver with flags::learns_kernel that does not learn gets
/// `gram` and, besides, `kernel` and `inputs`.
struct TrainingData {
  /// Dual: K(X, X), n × n, exactly symmetric. The solver may overwrite it (factor it
  /// in place) when `gram_writable` is true. Otherwise the runner keeps it for the other
  /// cells that share it: the solver must hand it back exactly as it was when fit()
  /// returns (kernel_ridge factors its lower triangle and rebuilds it from the upper
  /// one), or work on a copy, counted in SolverReport::matrix_bytes.
  arma::mat* gram = nullptr;
  bool gram_writable = false;
  /// Primal: Φ, D × n, a column per sample.
  const arma::mat* features = nullptr;
  /// y, n targets.
  const arma::vec* targets = nullptr;
  Task task = Task::Regression;
  /// Shared among the cells of this solver entry that use the same K or Φ.
  SharedState* shared = nullptr;
  /// How many cells of this solver entry share this K or Φ, and which of them this is
  /// (0-based, in run order): a solver can choose one decomposition for the whole group
  /// over one factorization per cell.
  std::size_t group_size = 1;
  std::size_t group_position = 0;
  /// Dual, for a solver that declares flags::lower_triangle and is K's only user: only
  /// the lower triangle and the diagonal of K were computed, its strict upper triangle
  /// holds no kernel values. Set only with `gram_writable`.
  bool gram_lower_only = false;
  /// flags::kernel_inputs and flags::learns_kernel: the kernel (fitted, when it learns)
  /// and the training points X, d × n. They live until the cell ends, so the solver may
  /// keep pointers to them.
  const Kernel* kernel = nullptr;
  const arma::mat* inputs = nullptr;
};

/// The points to predict at, in the solver's form.
struct TestData {
  const arma::mat* gram = nullptr;           ///< dual: K(X, X*), n × m
  const arma::vec* gram_diagonal = nullptr;  ///< dual: k(x*, x*), m
  const arma::mat* features = nullptr;       ///< primal: Φ(X*), D × m
  /// flags::kernel_inputs and flags::learns_kernel: the kernel and the test points X*,
  /// d × m.
  const Kernel* kernel = nullptr;
  const arma::mat* inputs = nullptr;
};

struct Prediction {
  arma::vec mean;   ///< m predictions (for classification, a score whose sign is the class)
  arma::vec var_f;  ///< predictive variance of f, empty when the solver has none
  arma::vec var_y;  ///< predictive variance of the target (var_f plus noise), or empty
};

/// What a solver reports of its own work.
struct SolverReport {
  double fit_flops = 0;      ///< analytic flop count of fit()
  double predict_flops = 0;  ///< analytic flop count of predict()
  /// Bytes of the matrices the solver allocates beyond its inputs (a copy, a factor).
  double matrix_bytes = 0;
  long iterations = -1;  ///< -1 when the solver does not iterate
  bool converged = true;
  /// Named results, declared by name in the plugin's `metrics` (log_marginal_likelihood,
  /// alpha, …), written as columns of results.csv.
  std::vector<std::pair<std::string, double>> metrics;
  /// flags::learns_kernel: the values the solver learned, named as their results.csv
  /// columns without the `learned.` prefix: "kernel.<hyperparameter name>" for the
  /// kernel's ("kernel.sigma", "kernel.sum[0].scale"), "solver.<parameter>" for its own
  /// ("solver.noise"). Empty when it learned nothing.
  std::vector<std::pair<std::string, double>> learned;
  /// Training loss after each iteration, for iterative solvers.
  std::vector<double> loss_curve;
  /// Predictions on the training set, when the solver has them at no extra cost (kernel
  /// ridge: Kβ = y − λβ). Needed for train_rmse when the solver factored K in place.
  arma::vec fitted;
};

class KEXP_API Solver {
 public:
  virtual ~Solver();

  /// Trains on `data`. Throws kexp::NumericError when the method cannot proceed (for
  /// example a Gram matrix that is not positive definite), with the remedy.
  virtual void fit(const TrainingData& data, SolverReport& report) = 0;

  /// Predicts at the test points after fit().
  [[nodiscard]] virtual Prediction predict(const TestData& data, SolverReport& report) const = 0;

  /// For flags::kernel_inputs, whose memory the runner cannot see: the bytes the solver
  /// will allocate for n training and m test points in d dimensions (the memory budget
  /// and the dry run count them). Negative (the default): unknown, and the runner
  /// budgets the cell as if it held K.
  [[nodiscard]] virtual double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const;

  /// The most flops fit() can take for n training points in d dimensions (a primal
  /// solver's d is D, the features), with every iteration, restart and evaluation its
  /// parameters allow; for a solver that reaches the kernel (flags::kernel_inputs, and
  /// flags::learns_kernel), `kernel` is given and its evaluations count, otherwise it is
  /// null and K or Φ is the runner's. At the machine's DGEMM rate this bounds the cell's
  /// time from below, and the runner refuses a cell whose bound passes --max-cell-time
  /// before it runs. Negative (the default): unknown, and only the cell's K or Φ counts.
  [[nodiscard]] virtual double fit_flops_bound(std::size_t n, std::size_t d,
                                               const Kernel* kernel) const;
};

}  // namespace kexp
