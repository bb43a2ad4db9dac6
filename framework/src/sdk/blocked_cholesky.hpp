// The blocked Cholesky factorization behind kexp::linalg::cholesky_in_place for large
// matrices, with its block and strip sizes as arguments, so that tests can make every
// branch of it run on small matrices.
#pragma once

#include "kexp/export.hpp"

namespace kexp::linalg::detail {

/// A = LLᵀ in place on the lower triangle of the n × n column-major matrix `a` (leading
/// dimension n), as LAPACK's blocked right-looking dpotrf: for each block of `block`
/// columns, dpotrf on its diagonal block, dtrsm for the panel below it, and the trailing
/// matrix less the panel's outer product, by dsyrk and dgemm on strips of at most `strip`
/// columns. The strict upper triangle is not touched. Returns dpotrf's info for A: 0, or
/// the order k > 0 of the first leading minor that is not positive definite.
KEXP_API int blocked_cholesky(double* a, int n, int block, int strip);

}  // namespace kexp::linalg::detail
