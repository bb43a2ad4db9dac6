// The dual support vector machines of svc and svr: their problems set up for the SMO solver
// (common/smo.hpp) on kernel columns from a cache (common/kernel_columns.hpp), one
// decision function each.
//
//   C-SVC:  min ½‖w‖² + C Σᵢ ξᵢ  (or C Σᵢ ξᵢ² with the squared hinge)
//           s.t. yᵢ(wᵀφ(xᵢ) + b) ≥ 1 − ξᵢ, ξᵢ ≥ 0
//   ε-SVR:  min ½‖w‖² + C Σᵢ max(0, |yᵢ − wᵀφ(xᵢ) − b| − ε)  (or its square)
//
// with the decision function f(x) = Σᵢ cᵢ (k(xᵢ, x) + offset) − ρ over the support vectors
// (cᵢ = yᵢαᵢ for C-SVC, αᵢ − αᵢ* for ε-SVR). The bias:
//   free         b = −ρ, not regularized: the constraint yᵀα = 0 (LIBSVM's);
//   regularized  b² is part of ‖w‖²: the kernel k + 1 (offset 1) and no constraint, which
//                is LIBLINEAR's bias feature of value 1 (`-B 1`) on the primal side;
//   none         no bias: offset 0, no constraint.
// The squared losses add 1/(2C) to Q's diagonal and lift the upper bound C (LIBLINEAR's
// L2-loss duals; Hsieh et al., ICML 2008; Ho & Lin, JMLR 13, 2012).
#pragma once

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kexp/kernel.hpp"
#include "kexp/params.hpp"

namespace kexp_solvers {

enum class Bias : std::uint8_t { Free, Regularized, None };

/// `free`, `regularized` or `none`.
Bias bias_of(const std::string& text);

struct DualSettings {
  double c = 1.0;
  double epsilon = 0.1;  ///< ε-SVR's tube
  bool squared = false;  ///< the squared hinge or squared ε-insensitive loss
  Bias bias = Bias::Free;
  double tolerance = 1e-3;
  bool shrinking = true;
  std::int64_t iterations = 10000000;
  double cache_bytes = 0;  ///< the cache of kernel columns of each problem
};

/// The settings svc and svr share, read from their parameters (c, loss, bias, tolerance,
/// shrinking, iterations; svr's epsilon where it has one): `squared_loss` names the value
/// of `loss` that is the squared one.
DualSettings dual_settings(const kexp::Params& p, const char* squared_loss);

/// The bytes of the cache of kernel columns for a problem of n points: `cache_bytes` when
/// it is set (> 0), else half the run's memory budget (kexp::memory_budget()), else 1 GiB;
/// never more than n full columns.
double cache_size(double cache_bytes, std::size_t n);

/// What the solver did, summed over the problems of one fit.
struct DualStats {
  std::int64_t iterations = 0;
  bool converged = true;
  double kernel_evaluations = 0;  ///< entries of K computed
  double entries_requested = 0;   ///< entries of K read from the cache or computed
  double kernel_flops = 0;        ///< Kernel::gram_flops of the entries computed
  double update_flops = 0;        ///< the gradient's updates (2 flops per entry of a column)
  std::int64_t nonpositive_curvature = 0;
  double objective = 0;  ///< the dual objective ½αᵀQα + pᵀα (summed over the problems)
  double peak_cache_bytes = 0;
};

/// One decision function f(x) = Σ cᵢ (k(xᵢ, x) + offset) − ρ.
struct DecisionFunction {
  std::vector<arma::uword> support;  ///< indices of the support vectors among the points
  arma::vec coef;                    ///< cᵢ, one per support vector
  double rho = 0;
  std::size_t bounded = 0;  ///< support vectors at the upper bound C
  arma::vec training;       ///< f at each point of its problem, from the gradient
};

/// C-SVC on the points X (d × n, taken: the solver permutes them) with labels y = ±1.
DecisionFunction train_classifier(const kexp::Kernel& kernel, arma::mat X,
                                  const std::vector<std::int8_t>& y, const DualSettings& s,
                                  DualStats& stats);

/// ε-SVR on the points X (d × n) with targets y.
DecisionFunction train_regression(const kexp::Kernel& kernel, const arma::mat& X,
                                  const arma::vec& y, const DualSettings& s, DualStats& stats);

/// The support vectors of one or more decision functions over the same points and their
/// coefficients, kept for predicting: one streamed product gives every decision value.
struct SupportVectors {
  arma::mat X;        ///< d × s, the support vectors of all the functions
  arma::mat coef;     ///< s × P, function p's coefficients in column p (0 where not its own)
  arma::rowvec rho;   ///< P
  double offset = 0;  ///< added to k (a regularized bias)

  /// The decision values at X* (d × m): m × P, by kexp::gram::product on kexp's threads.
  [[nodiscard]] arma::mat decisions(const kexp::Kernel& kernel, const arma::mat& X_test) const;
  /// The flops of decisions() for m points in d dimensions.
  [[nodiscard]] double decision_flops(const kexp::Kernel& kernel, std::size_t m) const;
  [[nodiscard]] double bytes() const { return 8.0 * static_cast<double>(X.n_elem + coef.n_elem); }
};

/// The support vectors of `functions`, whose `support` indices are columns of X.
SupportVectors gather_support(const arma::mat& X, const std::vector<DecisionFunction>& functions,
                              double offset);

}  // namespace kexp_solvers
