// Conjugate gradients for A x = b (A symmetric positive definite, given as a product
// v ↦ A v) from x = 0, judged by the true residual (Hestenes and Stiefel 1952).
//
// The recurrence's residual r ← r − α A p drifts from the true b − A x over many
// iterations, and on an ill-conditioned A ends far below it. So when the recurrence says
// ‖r‖ ≤ tolerance·‖b‖, the true residual is computed (one more product); when it is
// above the tolerance, conjugate gradients start again from it, as long as each start
// lowers it, and the best x is kept. `converged` is the true residual within the
// tolerance. The solvers cg_ridge (A = K + λI) and falkon (its preconditioned system)
// share it.
#pragma once

#include <armadillo>
#include <cmath>

namespace kexp_solvers {

struct ConjugateGradients {
  arma::vec x;          ///< the best iterate
  arma::vec Ax;         ///< A x of it, from its residual check
  double residual = 0;  ///< its true ‖b − A x‖ / ‖b‖ (0 for b = 0)
  long iterations = 0;  ///< products A p of the recurrence
  long checks = 0;      ///< products A x of the residual checks
  bool converged = false;
};

template <class Apply>
ConjugateGradients conjugate_gradients(const Apply& apply, const arma::vec& b, double tolerance,
                                       long iterations) {
  ConjugateGradients out;
  out.x.zeros(b.n_elem);
  out.Ax.zeros(b.n_elem);
  const double b_norm = arma::norm(b);
  out.converged = b_norm == 0;
  out.residual = b_norm == 0 ? 0.0 : 1.0;  // ‖b − A·0‖ / ‖b‖
  arma::vec x = out.x, r = b, p = b;
  double rr = arma::dot(r, r);
  while (!out.converged) {
    bool small = false;  // the recurrence's residual is within the tolerance
    while (!small && out.iterations < iterations) {
      const arma::vec Ap = apply(p);
      const double alpha = rr / arma::dot(p, Ap);
      x += alpha * p;
      r -= alpha * Ap;
      const double rr_next = arma::dot(r, r);
      ++out.iterations;
      small = std::sqrt(rr_next) <= tolerance * b_norm;
      p = r + (rr_next / rr) * p;
      rr = rr_next;
    }
    arma::vec Ax = apply(x);
    ++out.checks;
    r = b - Ax;
    rr = arma::dot(r, r);
    const double residual = std::sqrt(rr) / b_norm;
    const bool better = residual < out.residual;
    if (better || std::isnan(residual)) {  // a NaN is reported, never hidden
      out.residual = residual;
      out.x = x;
      out.Ax = std::move(Ax);
    }
    if (!better) break;  // this start did not lower it
    out.converged = out.residual <= tolerance;
    if (out.iterations >= iterations) break;
    p = r;
  }
  return out;
}

}  // namespace kexp_solvers
