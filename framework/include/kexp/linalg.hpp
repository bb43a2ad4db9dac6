// The LAPACK routines solvers share, on Armadillo matrices, working in place so that a
// solver need not copy an n × n Gram matrix.
#pragma once

#include <armadillo>
#include <functional>

#include "kexp/export.hpp"

namespace kexp::linalg {

/// Cholesky factorization A = LLᵀ in place (LAPACK dpotrf, lower triangle; the strict
/// upper triangle is left as it was). Returns 0 on success, or k > 0 when the leading
/// minor of order k is not positive definite.
KEXP_API int cholesky_in_place(arma::mat& A);

/// Solves (LLᵀ) X = B in place for B, with L from cholesky_in_place (LAPACK dpotrs).
KEXP_API void cholesky_solve(const arma::mat& L, arma::mat& B);

/// log det(A) from its Cholesky factor L: 2 Σ log Lᵢᵢ.
KEXP_API double cholesky_log_det(const arma::mat& L);

/// Copies the strict upper triangle of the square A onto its strict lower triangle
/// (Aᵢⱼ = Aⱼᵢ for i > j), block by block. After cholesky_in_place, which writes only the
/// lower triangle and the diagonal, this and the saved diagonal give back an exactly
/// symmetric A as it was, with no n × n copy.
KEXP_API void symmetrize_from_upper(arma::mat& A);

/// Eigendecomposition of a symmetric matrix, A = QΛQᵀ, from its lower triangle (LAPACK
/// dsyevr). A is used as workspace and left destroyed. On return `eigenvalues` holds Λ in
/// ascending order and `eigenvectors` the orthonormal Q, n × n, a column per eigenvalue.
/// Costs about as much as 15 to 25 Cholesky factorizations of the same matrix
/// (n = 2000 to 4000); it pays when many shifted systems (A + λI)x = b share one A.
KEXP_API void symmetric_eigen(arma::mat& A, arma::vec& eigenvalues, arma::mat& eigenvectors);

/// Largest eigenvalue of a symmetric positive semi-definite operator v ↦ Av on Rⁿ, by
/// power iteration from a fixed start vector (the same for every caller, so that two
/// operators with the same spectrum give the same estimate to rounding). Stops when the
/// Rayleigh quotient changes by less than `tolerance` relatively, or after
/// `max_iterations` products; `iterations` receives the number of products taken. The
/// result is the last Rayleigh quotient, a lower bound on λ_max that converges to it.
KEXP_API double largest_eigenvalue(
    const std::function<void(const arma::vec& v, arma::vec& Av)>& apply, arma::uword n,
    double tolerance, int max_iterations, int& iterations);

}  // namespace kexp::linalg
