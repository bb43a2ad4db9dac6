// The LAPACK routines of the SDK's linear algebra that Armadillo does not wrap, private to
// the SDK, and what its three parts (linalg.cpp, linalg_mixed.cpp, linalg_band.cpp) share.
#pragma once

#include <fmt/format.h>

#include <armadillo>
#include <cmath>
#include <cstddef>

#include "kexp/error.hpp"

// Armadillo wraps dpotrf and dpotrs (arma::lapack) but not dsytrd_sy2sb, dlarft, dpbtrf or
// dpbtrs: they are declared here with the hidden lengths of their character arguments, as
// gfortran passes them.
extern "C" {
void dsytrd_sy2sb_(const char* uplo, const int* n, const int* kd, double* a, const int* lda,
                   double* ab, const int* ldab, double* tau, double* work, const int* lwork,
                   int* info, std::size_t uplo_len);
void dlarft_(const char* direct, const char* storev, const int* n, const int* k, const double* v,
             const int* ldv, const double* tau, double* t, const int* ldt, std::size_t direct_len,
             std::size_t storev_len);
void dpbtrf_(const char* uplo, const int* n, const int* kd, double* ab, const int* ldab, int* info,
             std::size_t uplo_len);
void dpbtrs_(const char* uplo, const int* n, const int* kd, const int* nrhs, const double* ab,
             const int* ldab, double* b, const int* ldb, int* info, std::size_t uplo_len);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info,
             std::size_t uplo_len);
void spotrs_(const char* uplo, const int* n, const int* nrhs, const float* a, const int* lda,
             float* b, const int* ldb, int* info, std::size_t uplo_len);
void dsymm_(const char* side, const char* uplo, const int* m, const int* n, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta,
            double* c, const int* ldc, std::size_t side_len, std::size_t uplo_len);
void dsymv_(const char* uplo, const int* n, const double* alpha, const double* a, const int* lda,
            const double* x, const int* incx, const double* beta, double* y, const int* incy,
            std::size_t uplo_len);
void strsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const float* alpha, const float* a, const int* lda, float* b,
            const int* ldb, std::size_t side_len, std::size_t uplo_len, std::size_t transa_len,
            std::size_t diag_len);
void strsv_(const char* uplo, const char* trans, const char* diag, const int* n, const float* a,
            const int* lda, float* x, const int* incx, std::size_t uplo_len, std::size_t trans_len,
            std::size_t diag_len);
void sgemv_(const char* trans, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* x, const int* incx, const float* beta, float* y,
            const int* incy, std::size_t trans_len);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b,
            const int* ldb, std::size_t side_len, std::size_t uplo_len, std::size_t transa_len,
            std::size_t diag_len);
}

namespace kexp::linalg::internal {

/// Refuses a factor with an entry on its diagonal that is not finite, since some LAPACKs report
/// success on a NaN.
template <typename Matrix>
inline void require_finite_factor(const Matrix& L) {
  for (arma::uword i = 0; i < L.n_rows; ++i) {
    if (!std::isfinite(L(i, i))) {
      throw NumericError(fmt::format(
          "the matrix to factor has entries that are not finite (NaN or infinite); its "
          "Cholesky factor has {} at diagonal entry {} of {}: check the data's scale and the "
          "parameters for an overflow",
          L(i, i), i + 1, L.n_rows));
    }
  }
}

}  // namespace kexp::linalg::internal
