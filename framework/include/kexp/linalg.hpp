// The LAPACK routines solvers share, on Armadillo matrices, working in place so that a
// solver need not copy an n × n Gram matrix.
#pragma once

#include <armadillo>

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

}  // namespace kexp::linalg
