// Sequential minimal optimization for the dual problems of support vector machines (svc,
// svr):
//
//   min_α  ½ αᵀQα + pᵀα   subject to   0 ≤ αᵢ ≤ U   and, with a free bias, yᵀα = 0,
//
// with Q_ij = y_i y_j (k(x_i, x_j) + offset) + δ_ij·shift and y_i = ±1. C-SVC has p = −1,
// U = C; ε-SVR has 2n variables (α and α*, Q's blocks ±K) with p = ε ∓ y; the squared
// losses have U = ∞ and shift = 1/(2C); a regularized bias is offset = 1 (the kernel
// k + 1) with no equality constraint.
//
// With the equality constraint (the bias b = −ρ free, as LIBSVM's) each step changes two
// variables: i the most violating of I_up, j the one of I_low that decreases the
// objective most to second order (WSS3: Fan, Chen & Lin, Working set selection using
// second order information for training support vector machines, JMLR 6, 2005). It stops
// when m(α) − M(α) ≤ tolerance (the largest violation of the KKT conditions, LIBSVM's
// −e). Without it each step changes one variable, the one whose exact step decreases the
// objective most (G_i²/Q_ii for an unclipped step), and it stops when the projected
// gradients lie within tolerance of 0: max(0, max PG) − min(0, min PG) ≤ tolerance, as
// LIBLINEAR's dual coordinate descent.
//
// Both shrink (Joachims 1999; LIBSVM's rule, every min(l, 1000) steps: a variable at a
// bound whose gradient pushes it further out than the largest violation leaves the active
// set; once the violation is within 10·tolerance every variable comes back once, and before
// stopping the whole gradient is rebuilt and checked). Where Q_ii + Q_jj − 2y_iy_jQ_ij ≤ 0
// (an indefinite kernel, or two equal points) the step's curvature is taken as τ = 10⁻¹²
// (Chen, Fan & Lin, A study on SMO-type decomposition methods for support vector
// machines, IEEE TNN 17, 2006), so the objective still decreases and the method still
// ends. After `iterations` steps it stops with converged false.
//
// The variables are kept in an order of their own (the active ones first, contiguous), and
// the matrix follows through QMatrix::swap. The passes over the active variables and the
// columns run on one thread or on all of kexp's, whichever the last stretch of steps ran
// faster on (common/step_threads.hpp); kexp's own regions stay on one meanwhile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kexp_solvers {

/// The matrix Q of a dual SVM problem, read by columns in the solver's order of the
/// variables.
class QMatrix {
 public:
  virtual ~QMatrix() = default;
  /// Column i over positions [0, len); the pointer stays valid through the next call.
  virtual const double* column(std::size_t i, std::size_t len) = 0;
  /// Q_ii for every position.
  [[nodiscard]] virtual const double* diagonal() const = 0;
  /// Exchanges positions i and j.
  virtual void swap(std::size_t i, std::size_t j) = 0;
  /// The threads the next columns may be computed on (common/step_threads.hpp).
  virtual void use_threads(int /*threads*/) {}
};

struct SmoSettings {
  double tolerance = 1e-3;
  bool shrinking = true;
  std::int64_t iterations = 10000000;  ///< the most steps
  bool equality = true;                ///< yᵀα = 0 (a free bias)
  double upper = 1.0;                  ///< U, the upper bound of every αᵢ (may be +∞)
};

struct SmoSolution {
  std::vector<double> alpha;     ///< α in the caller's order
  std::vector<double> gradient;  ///< Qα + p in the caller's order
  double rho = 0;                ///< the bias is −ρ (0 without the equality constraint)
  double objective = 0;          ///< ½αᵀQα + pᵀα
  std::int64_t iterations = 0;
  bool converged = true;
  /// Steps whose curvature was not positive (the τ rule).
  std::int64_t nonpositive_curvature = 0;
  /// The flops of the gradient's updates and reconstructions (2 per entry of a column).
  double update_flops = 0;
};

/// Solves the problem from α = 0 (feasible for both forms). `y` and `p` have one entry per
/// variable, in the caller's order, which Q's first order is.
SmoSolution solve_smo(QMatrix& Q, const std::vector<double>& p, const std::vector<std::int8_t>& y,
                      const SmoSettings& settings);

}  // namespace kexp_solvers
