#include "kexp/linalg.hpp"

#include <fmt/format.h>

#include <cmath>

#include "kexp/error.hpp"

extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info);
}

namespace kexp::linalg {

int cholesky_in_place(arma::mat& A) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(
        fmt::format("Cholesky needs a square matrix, got {} × {}", A.n_rows, A.n_cols));
  }
  const int n = static_cast<int>(A.n_rows);
  int info = 0;
  if (n > 0) dpotrf_("L", &n, A.memptr(), &n, &info);
  if (info < 0) throw NumericError(fmt::format("dpotrf: argument {} is invalid", -info));
  return info;
}

void cholesky_solve(const arma::mat& L, arma::mat& B) {
  if (L.n_rows != B.n_rows) {
    throw InvalidArgument(
        fmt::format("Cholesky solve: factor is {} × {}, right-hand side has {} rows", L.n_rows,
                    L.n_cols, B.n_rows));
  }
  const int n = static_cast<int>(L.n_rows);
  const int nrhs = static_cast<int>(B.n_cols);
  int info = 0;
  if (n > 0 && nrhs > 0) dpotrs_("L", &n, &nrhs, L.memptr(), &n, B.memptr(), &n, &info);
  if (info != 0) throw NumericError(fmt::format("dpotrs failed (info {})", info));
}

double cholesky_log_det(const arma::mat& L) {
  double sum = 0;
  for (arma::uword i = 0; i < L.n_rows; ++i) sum += std::log(L(i, i));
  return 2.0 * sum;
}

}  // namespace kexp::linalg
