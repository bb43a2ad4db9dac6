// The LAPACK routines solvers share, in place: a blocked Cholesky factorization and its
// solves, a shifted one that names what failed, triangular solves, the loan of K's lower
// triangle, the log-determinant, and the reduction of a symmetric matrix to a band
// (dsytrd_sy2sb) with its band solves for many shifts.
#include "kexp/linalg.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/execution_target.hpp"
#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"
#include "sdk/blocked_cholesky.hpp"

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

namespace kexp::linalg {

namespace {

// cholesky_in_place's blocked factorization (sdk/blocked_cholesky.hpp): the columns of a
// diagonal block, the width of a strip of the trailing matrix updated by one call, and the
// order from which it is used instead of OpenBLAS's dpotrf. Below it, dpotrf's buffers are
// small beside A (about 8 MB at n = 4000, A 128 MB) and dpotrf was up to 18% faster; from
// 6000 on, the two took the same time within the noise (0.96–1.01).
constexpr int kCholeskyBlock = 256;
constexpr int kCholeskyStrip = 1024;
constexpr int kCholeskyStripsFrom = 6000;

/// Refuses a factor with an entry on its diagonal that is not finite, since some LAPACKs report
/// success on a NaN.
template <typename Matrix>
void require_finite_factor(const Matrix& L) {
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

}  // namespace

namespace detail {

// OpenBLAS's dpotrf updates the whole trailing matrix in one call, and the packing
// buffers of that call grow with n (18 MB touched at n = 8000); on strips of 1024 columns
// they stay near 5 MB, at the same speed (kernel_ridge_bench's CholeskyOverDpotrf).
static_assert(sizeof(arma::blas_int) == sizeof(int),
              "the LAPACK and BLAS routines here are declared with 32-bit integers");

int blocked_cholesky(double* a, int n, int block, int strip) {
  if (block < 1 || strip < 1) {
    throw InvalidArgument(
        fmt::format("blocked Cholesky: block {} and strip {} must be at least 1", block, strip));
  }
  const char lower = 'L', right = 'R', transpose = 'T', none = 'N';
  const double one = 1.0, minus_one = -1.0;
  const auto at = [a, n](int i, int j) {
    return a + static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * n;
  };
  for (int k = 0; k < n; k += block) {
    int kb = std::min(block, n - k);
    int info = 0;
    char uplo = lower;
    arma::lapack::potrf(&uplo, &kb, at(k, k), &n, &info);
    if (info != 0) return info < 0 ? info : k + info;
    int rest = n - k - kb;
    if (rest == 0) break;
    dtrsm_(&right, &lower, &transpose, &none, &rest, &kb, &one, at(k, k), &n, at(k + kb, k), &n, 1,
           1, 1, 1);
    for (int c = k + kb; c < n; c += strip) {
      int width = std::min(strip, n - c);
      arma::blas::syrk(&lower, &none, &width, &kb, &minus_one, at(c, k), &n, &one, at(c, c), &n);
      int below = n - c - width;
      if (below > 0) {
        arma::blas::gemm(&none, &transpose, &below, &width, &kb, &minus_one, at(c + width, k), &n,
                         at(c, k), &n, &one, at(c + width, c), &n);
      }
    }
  }
  return 0;
}

}  // namespace detail

int cholesky_in_place(arma::mat& A) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(
        fmt::format("Cholesky needs a square matrix, got {} × {}", A.n_rows, A.n_cols));
  }
  char lower = 'L';
  auto n = static_cast<arma::blas_int>(A.n_rows);
  arma::blas_int info = 0;
  if (n < kCholeskyStripsFrom) {
    if (n > 0) arma::lapack::potrf(&lower, &n, A.memptr(), &n, &info);
  } else {
    info = detail::blocked_cholesky(A.memptr(), n, kCholeskyBlock, kCholeskyStrip);
  }
  if (info < 0) throw NumericError(fmt::format("dpotrf: argument {} is invalid", -info));
  // A NaN or an infinity in A leaves one on L's diagonal (an infinite Lⱼⱼ, or Lᵢᵢ =
  // √(aᵢᵢ − ∞) below an infinite Lᵢⱼ), and some LAPACKs report success: a solve with such
  // a factor gives finite garbage (zeros), so it is refused here.
  if (info == 0) require_finite_factor(A);
  return info;
}

void cholesky_shifted_in_place(arma::mat& A, double shift, const ShiftedMatrixNames& names) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(fmt::format("Cholesky of {} needs a square matrix, got {} × {}",
                                      names.matrix, A.n_rows, A.n_cols));
  }
  A.diag() += shift;
  const int info = cholesky_in_place(A);
  if (info != 0) {
    throw NumericError(fmt::format(
        "{} is not positive definite (leading minor {} of {}, {} = {}): use a larger {}, or a "
        "valid (PSD) kernel",
        names.matrix, info, A.n_rows, names.shift, shift, names.parameter));
  }
}

void cholesky_solve(const arma::mat& L, arma::mat& B) {
  if (L.n_rows != B.n_rows) {
    throw InvalidArgument(
        fmt::format("Cholesky solve: factor is {} × {}, right-hand side has {} rows", L.n_rows,
                    L.n_cols, B.n_rows));
  }
  char lower = 'L';
  auto n = static_cast<arma::blas_int>(L.n_rows);
  const auto nrhs = static_cast<arma::blas_int>(B.n_cols);
  arma::blas_int info = 0;
  // dpotrs only reads the factor; Armadillo's wrapper takes it as non-const.
  if (n > 0 && nrhs > 0) {
    arma::lapack::potrs(&lower, &n, &nrhs, const_cast<double*>(L.memptr()), &n, B.memptr(), &n,
                        &info);
  }
  if (info != 0) throw NumericError(fmt::format("dpotrs failed (info {})", info));
}

Precision precision_named(const std::string& name) { return parse_precision(name); }

namespace {

/// A + shift·I rounded to float32 and factored in float32 (LAPACK spotrf), from A's lower
/// triangle; also ‖A + shift·I‖∞ in float64, summed in the same pass.
struct Float32Factor {
  arma::fmat L;
  double norm_inf = 0;
  int info = 0;  ///< spotrf's: > 0, the leading minor that is not positive definite
};

Float32Factor factor_in_float32(const arma::mat& A, double shift) {
  const arma::uword n = A.n_rows;
  Float32Factor f;
  f.L.set_size(n, n);
  // Fresh pages: in 4 KiB pages their first touch took as long as the copy itself
  advise_huge_pages(f.L.memptr(), f.L.n_elem * sizeof(float));
  // Row sums of |A + shift·I| from its lower triangle: column j adds to rows j..n−1 and,
  // by symmetry, to row j. Each thread sums the columns it rounds into a vector of its own.
  // (On one thread, with row j's sum carried through memory, this copy took a third of
  // the float32 Cholesky's time at n = 8000.)
  const int threads = thread_count();
  std::vector<std::vector<double>> partial(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    std::vector<double>& rows = partial[static_cast<std::size_t>(omp_get_thread_num())];
    rows.assign(n, 0.0);
    // Static chunks: the same columns go into each thread's sums in every run, so that
    // ‖A + shift·I‖∞, and with it the refinement's stopping test, is the same to the bit.
#pragma omp for schedule(static, 16)
    for (long c = 0; c < static_cast<long>(n); ++c) {
      const auto j = static_cast<arma::uword>(c);
      const double diagonal = A(j, j) + shift;
      f.L(j, j) = static_cast<float>(diagonal);
      double column_sum = std::abs(diagonal);
      const double* column = A.colptr(j);
      float* into = f.L.colptr(j);
      double* row = rows.data();
      for (arma::uword i = j + 1; i < n; ++i) {
        into[i] = static_cast<float>(column[i]);
        const double a = std::abs(column[i]);
        row[i] += a;
        column_sum += a;
      }
      row[j] += column_sum;
    }
  }
  for (arma::uword i = 0; i < n; ++i) {
    double sum = 0;
    for (const auto& rows : partial) sum += rows.empty() ? 0.0 : rows[i];
    f.norm_inf = std::max(f.norm_inf, sum);
  }
  char lower = 'L';
  const auto size = static_cast<int>(n);
  if (n > 0) spotrf_(&lower, &size, f.L.memptr(), &size, &f.info, 1);
  if (f.info < 0) throw NumericError(fmt::format("spotrf: argument {} is invalid", -f.info));
  if (f.info == 0) require_finite_factor(f.L);
  return f;
}

/// x ← (LLᵀ)⁻¹x for one float32 column, by blocks of 256: STRSV on each diagonal block and
/// SGEMV on the panel below it, which OpenBLAS runs on all its threads. spotrs on one
/// column is two STRSVs over all of L on one thread, bound by one core's memory bandwidth:
/// at n = 8000 it took 0.05 s, a third of a refinement step's time.
void cholesky_solve_column_float32(const arma::fmat& L, float* x) {
  constexpr int kBlock = 256;
  const auto n = static_cast<int>(L.n_rows);
  const int one = 1;
  const float minus_one = -1.0F, plus_one = 1.0F;
  char lower = 'L', no = 'N', transposed = 'T', non_unit = 'N';
  const auto at = [&](int i, int j) {
    return L.memptr() + static_cast<std::size_t>(j) * static_cast<std::size_t>(n) + i;
  };
  for (int k = 0; k < n; k += kBlock) {  // L y = x
    const int b = std::min(kBlock, n - k), rest = n - k - b;
    strsv_(&lower, &no, &non_unit, &b, at(k, k), &n, x + k, &one, 1, 1, 1);
    if (rest > 0) {
      sgemv_(&no, &rest, &b, &minus_one, at(k + b, k), &n, x + k, &one, &plus_one, x + k + b, &one,
             1);
    }
  }
  for (int k = (n - 1) / kBlock * kBlock; k >= 0; k -= kBlock) {  // Lᵀ z = y
    const int b = std::min(kBlock, n - k), rest = n - k - b;
    if (rest > 0) {
      sgemv_(&transposed, &rest, &b, &minus_one, at(k + b, k), &n, x + k + b, &one, &plus_one,
             x + k, &one, 1);
    }
    strsv_(&lower, &transposed, &non_unit, &b, at(k, k), &n, x + k, &one, 1, 1, 1);
  }
}

/// X ← (LLᵀ)⁻¹X in float32 (LAPACK spotrs; one column by blocks), X given and returned in
/// float64.
void solve_in_float32(const arma::fmat& L, arma::mat& X) {
  arma::fmat Xf = arma::conv_to<arma::fmat>::from(X);
  char lower = 'L';
  const auto size = static_cast<int>(L.n_rows);
  const auto columns = static_cast<int>(X.n_cols);
  int info = 0;
  if (size > 0 && columns == 1) {
    cholesky_solve_column_float32(L, Xf.memptr());
  } else if (size > 0 && columns > 0) {
    spotrs_(&lower, &size, &columns, L.memptr(), &size, Xf.memptr(), &size, &info, 1);
  }
  if (info != 0) throw NumericError(fmt::format("spotrs failed (info {})", info));
  X = arma::conv_to<arma::mat>::from(Xf);
}

/// The error of a float32 factorization that found a leading minor not positive definite.
NumericError not_positive_in_float32(int minor, arma::uword n, double shift,
                                     const ShiftedMatrixNames& names) {
  return NumericError(fmt::format(
      "{} is not positive definite in single precision (leading minor {} of {}, {} = {}): "
      "use precision: mixed (float32 where it holds, float64 where not), a larger {}, or a "
      "valid (PSD) kernel",
      names.matrix, minor, n, names.shift, shift, names.parameter));
}

}  // namespace

ShiftedFactor::ShiftedFactor(arma::mat& A, double shift, Precision precision,
                             const ShiftedMatrixNames& names)
    : A_(&A), shift_(shift), precision_(precision), names_(names) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(fmt::format("Cholesky of {} needs a square matrix, got {} × {}",
                                      names.matrix, A.n_rows, A.n_cols));
  }
  if (precision == Precision::Double) {
    cholesky_shifted_in_place(A, shift, names);
    return;
  }
  Float32Factor f = factor_in_float32(A, shift);
  if (f.info > 0) {
    if (precision == Precision::Single) {
      throw not_positive_in_float32(f.info, A.n_rows, shift, names);
    }
    factor_in_float64();
    return;
  }
  float32_ = std::move(f.L);
  norm_inf_ = f.norm_inf;
}

void ShiftedFactor::factor_in_float64() {
  fell_back_ = true;
  float32_.reset();
  arma::mat& A = *A_;
  const arma::vec diagonal = A.diag();
  try {
    cholesky_shifted_in_place(A, shift_, names_);
  } catch (...) {
    A.diag() = diagonal;
    throw;
  }
}

/// Mixed refines as LAPACK dsposv does (its stopping test and its ITERMAX), with the
/// residual by dsymv or dsymm on A's lower triangle, where dsposv's dsymm packs A again on
/// every step, and the fallback by cholesky_shifted_in_place, kexp's float64 path.
int ShiftedFactor::solve(arma::mat& B) {
  const arma::mat& A = *A_;
  const arma::uword n = A.n_rows;
  if (B.n_rows != n) {
    throw InvalidArgument(
        fmt::format("solve: A + shift·I is {} × {} and B {} × {}", n, n, B.n_rows, B.n_cols));
  }
  if (float32_.is_empty()) {  // Double, Mixed after a fallback, or n = 0
    if (n > 0) cholesky_solve(A, B);
    return 0;
  }
  if (precision_ == Precision::Single) {
    solve_in_float32(float32_, B);
    return 0;
  }
  const double tolerance =
      norm_inf_ * std::numeric_limits<double>::epsilon() * std::sqrt(static_cast<double>(n));
  arma::mat X = B;
  solve_in_float32(float32_, X);
  arma::mat R(n, B.n_cols);
  char lower = 'L', left = 'L';
  const auto size = static_cast<int>(n);
  const auto columns = static_cast<int>(B.n_cols);
  const int one = 1;
  const double minus_one = -1.0, plus_one = 1.0;
  // R = B − (A + shift·I)X, and whether every column is as accurate as float64 makes it.
  const auto residual_small = [&] {
    R = B - shift_ * X;
    if (columns == 1) {
      dsymv_(&lower, &size, &minus_one, A.memptr(), &size, X.memptr(), &one, &plus_one, R.memptr(),
             &one, 1);
    } else if (columns > 1) {
      dsymm_(&left, &lower, &size, &columns, &minus_one, A.memptr(), &size, X.memptr(), &size,
             &plus_one, R.memptr(), &size, 1, 1);
    }
    bool small = true;
    for (arma::uword c = 0; c < B.n_cols && small; ++c) {
      small = arma::norm(R.col(c), "inf") <= arma::norm(X.col(c), "inf") * tolerance;
    }
    return small;
  };
  for (int step = 0; step <= kMaxRefinementSteps && X.is_finite(); ++step) {
    if (residual_small()) {
      B = std::move(X);
      return step;
    }
    if (step == kMaxRefinementSteps) break;
    solve_in_float32(float32_, R);
    X += R;
  }
  factor_in_float64();
  cholesky_solve(A, B);
  return kMaxRefinementSteps;
}

void ShiftedFactor::lower_solve(arma::mat& B) const {
  if (B.n_rows != A_->n_rows) {
    throw InvalidArgument(fmt::format("lower_solve: A + shift·I is {} × {} and B {} × {}",
                                      A_->n_rows, A_->n_rows, B.n_rows, B.n_cols));
  }
  if (float32_.is_empty()) {
    lower_triangular_solve(*A_, B, false);
    return;
  }
  arma::fmat Bf = arma::conv_to<arma::fmat>::from(B);
  char left = 'L', lower = 'L', no = 'N', non_unit = 'N';
  const auto size = static_cast<int>(Bf.n_rows), columns = static_cast<int>(Bf.n_cols);
  const float one = 1.0F;
  if (size > 0 && columns > 0) {
    strsm_(&left, &lower, &no, &non_unit, &size, &columns, &one, float32_.memptr(), &size,
           Bf.memptr(), &size, 1, 1, 1, 1);
  }
  B = arma::conv_to<arma::mat>::from(Bf);
}

double ShiftedFactor::log_det() const {
  if (float32_.is_empty()) return cholesky_log_det(*A_);
  double sum = 0;
  for (arma::uword i = 0; i < float32_.n_rows; ++i) {
    sum += std::log(static_cast<double>(float32_(i, i)));
  }
  return 2.0 * sum;
}

ShiftedSolve solve_shifted(arma::mat& A, double shift, arma::mat& B, Precision precision,
                           const ShiftedMatrixNames& names) {
  if (A.n_rows != A.n_cols || B.n_rows != A.n_rows) {
    throw InvalidArgument(fmt::format("solve_shifted: A is {} × {} and B {} × {}", A.n_rows,
                                      A.n_cols, B.n_rows, B.n_cols));
  }
  // Single and Mixed give A's diagonal back, also after Mixed's fallback to float64.
  const arma::vec diagonal = precision == Precision::Double ? arma::vec() : arma::vec(A.diag());
  ShiftedFactor factor(A, shift, precision, names);
  ShiftedSolve out;
  out.refinement_steps = factor.solve(B);
  out.fell_back = factor.fell_back();
  if (precision == Precision::Single) out.bytes = 4.0 * static_cast<double>(A.n_elem + B.n_elem);
  if (precision == Precision::Mixed) {
    out.bytes = 4.0 * static_cast<double>(A.n_elem) + 16.0 * static_cast<double>(B.n_elem);
    if (out.fell_back) A.diag() = diagonal;
  }
  return out;
}

ShiftedSolve solve_shifted_single_in_place(arma::fmat& A, double shift, arma::mat& B,
                                           const ShiftedMatrixNames& names) {
  if (A.n_rows != A.n_cols || B.n_rows != A.n_rows) {
    throw InvalidArgument(fmt::format("solve_shifted_single_in_place: A is {} × {} and B {} × {}",
                                      A.n_rows, A.n_cols, B.n_rows, B.n_cols));
  }
  const auto s = static_cast<float>(shift);
  for (arma::uword i = 0; i < A.n_rows; ++i) A(i, i) += s;
  char lower = 'L';
  const auto size = static_cast<int>(A.n_rows);
  int info = 0;
  if (size > 0) spotrf_(&lower, &size, A.memptr(), &size, &info, 1);
  if (info < 0) throw NumericError(fmt::format("spotrf: argument {} is invalid", -info));
  if (info > 0) throw not_positive_in_float32(info, A.n_rows, shift, names);
  require_finite_factor(A);
  solve_in_float32(A, B);
  return {0, false, 4.0 * static_cast<double>(B.n_elem)};
}

void lower_triangular_solve(const arma::mat& L, arma::mat& B, bool transpose) {
  if (L.n_rows != L.n_cols || B.n_rows != L.n_rows) {
    throw InvalidArgument(fmt::format("lower_triangular_solve: L is {} × {} and B {} × {}",
                                      L.n_rows, L.n_cols, B.n_rows, B.n_cols));
  }
  char lower = 'L', trans = transpose ? 'T' : 'N', unit = 'N';
  auto n = static_cast<arma::blas_int>(L.n_rows);
  auto nrhs = static_cast<arma::blas_int>(B.n_cols);
  arma::blas_int info = 0;
  if (n > 0 && nrhs > 0) {
    arma::lapack::trtrs(&lower, &trans, &unit, &n, &nrhs, L.memptr(), &n, B.memptr(), &n, &info);
  }
  if (info != 0) {
    throw NumericError(fmt::format(
        "a triangular solve met a zero on the diagonal of its factor (dtrtrs info {})", info));
  }
}

void multiply_by_columns(const arma::mat& A, const arma::mat& B, arma::mat& C) {
  if (A.n_cols != B.n_rows) {
    throw InvalidArgument(
        fmt::format("multiply_by_columns: A is {} × {} and B {} × {}; A·B needs "
                    "as many columns of A as rows of B",
                    A.n_rows, A.n_cols, B.n_rows, B.n_cols));
  }
  constexpr arma::uword kColumns = 256;
  C.set_size(A.n_rows, B.n_cols);
  const kexp::detail::SingleThreadedBlas single;
  parallel_for((B.n_cols + kColumns - 1) / kColumns,
               [&](std::size_t t) {
                 const arma::uword first = t * kColumns;
                 const arma::uword count = std::min(kColumns, B.n_cols - first);
                 const arma::mat tile(const_cast<double*>(B.colptr(first)), B.n_rows, count,
                                      /*copy_aux_mem=*/false, /*strict=*/true);
                 arma::mat out(C.colptr(first), C.n_rows, count, /*copy_aux_mem=*/false,
                               /*strict=*/true);
                 out = A * tile;
               },
               Schedule::Dynamic, 1);
}

void symmetrize_from_upper(arma::mat& A) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(fmt::format("symmetrize_from_upper needs a square matrix, got {} × {}",
                                      A.n_rows, A.n_cols));
  }
  const arma::uword n = A.n_rows;
  constexpr arma::uword kBlock = 64;  // a block and its mirror stay in cache
  double* a = A.memptr();
  // Each column of blocks below the diagonal on a thread of its own: they write apart.
  const std::size_t columns = (n + kBlock - 1) / kBlock;
  parallel_for(
      columns,
      [&](std::size_t c) {
        const arma::uword j0 = c * kBlock, j1 = std::min(n, j0 + kBlock);
        for (arma::uword i0 = j0; i0 < n; i0 += kBlock) {
          const arma::uword i1 = std::min(n, i0 + kBlock);
          for (arma::uword j = j0; j < j1; ++j) {
            for (arma::uword i = std::max(i0, j + 1); i < i1; ++i) a[i + j * n] = a[j + i * n];
          }
        }
      },
      Schedule::Dynamic);
}

LowerTriangleLoan::LowerTriangleLoan(arma::mat& K, bool give_back) : K_(K), give_back_(give_back) {
  if (give_back_) diagonal_ = K.diag();
}

LowerTriangleLoan::~LowerTriangleLoan() {
  if (!give_back_ || K_.n_rows != K_.n_cols) return;
  symmetrize_from_upper(K_);
  K_.diag() = diagonal_;
}

double cholesky_log_det(const arma::mat& L) {
  double sum = 0;
  for (arma::uword i = 0; i < L.n_rows; ++i) sum += std::log(L(i, i));
  return 2.0 * sum;
}

BandReduction::BandReduction(arma::mat& A, arma::uword bandwidth) : n_(A.n_rows) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(
        fmt::format("band reduction needs a square matrix, got {} × {}", A.n_rows, A.n_cols));
  }
  if (bandwidth == 0) throw InvalidArgument("band reduction needs a bandwidth of at least 1");
  bandwidth_ = n_ > 1 ? std::min(bandwidth, n_ - 1) : 0;
  const int n = static_cast<int>(n_), kd = static_cast<int>(bandwidth_), ldab = kd + 1;
  band_.set_size(bandwidth_ + 1, n_);
  if (n_ == 0) return;
  arma::vec tau(n_, arma::fill::zeros);
  int lwork = -1, info = 0;
  double work_size = 0;
  dsytrd_sy2sb_("L", &n, &kd, A.memptr(), &n, band_.memptr(), &ldab, tau.memptr(), &work_size,
                &lwork, &info, 1);
  if (info != 0) throw NumericError(fmt::format("dsytrd_sy2sb workspace query: info {}", info));
  lwork = std::max(1, static_cast<int>(work_size));
  std::vector<double> work(static_cast<std::size_t>(lwork));
  workspace_bytes_ = 8.0 * static_cast<double>(lwork + n);  // WORK and TAU
  dsytrd_sy2sb_("L", &n, &kd, A.memptr(), &n, band_.memptr(), &ldab, tau.memptr(), work.data(),
                &lwork, &info, 1);
  if (info != 0) throw NumericError(fmt::format("dsytrd_sy2sb failed (info {})", info));
  // Panel i (a multiple of b) holds the Householder vectors of the QR factorization of
  // A(i+b : n, i : i+b) below its b-th subdiagonal, with their unit diagonal and zeros
  // above it already written in; there are none when n ≤ b + 1 (B is then A itself).
  if (n_ <= bandwidth_ + 1) return;
  for (arma::uword i = 0; i + bandwidth_ < n_; i += bandwidth_) {
    const arma::uword first = i + bandwidth_, rows = n_ - first;
    const arma::uword k = std::min(rows, bandwidth_);
    Panel panel{first, A.submat(first, i, n_ - 1, i + k - 1), arma::mat(k, k, arma::fill::zeros)};
    const int m = static_cast<int>(rows), kk = static_cast<int>(k);
    dlarft_("F", "C", &m, &kk, panel.V.memptr(), &m, tau.memptr() + i, panel.T.memptr(), &kk, 1, 1);
    panels_.push_back(std::move(panel));
  }
}

double BandReduction::bytes() const {
  double doubles = static_cast<double>(band_.n_elem);
  for (const Panel& p : panels_) doubles += static_cast<double>(p.V.n_elem + p.T.n_elem);
  return 8.0 * doubles;
}

void BandReduction::apply_qt(arma::vec& x) const {
  if (x.n_elem != n_) {
    throw InvalidArgument(fmt::format("Qᵀx: x has {} entries, Q is {} × {}", x.n_elem, n_, n_));
  }
  for (const Panel& p : panels_) {  // Qᵀ = Q_{P−1}ᵀ ⋯ Q_0ᵀ, Q_pᵀ = I − V Tᵀ Vᵀ
    auto tail = x.subvec(p.first, n_ - 1);
    const arma::vec w = p.T.t() * (p.V.t() * tail);
    tail -= p.V * w;
  }
}

void BandReduction::apply_q(arma::vec& x) const {
  if (x.n_elem != n_) {
    throw InvalidArgument(fmt::format("Qx: x has {} entries, Q is {} × {}", x.n_elem, n_, n_));
  }
  for (auto p = panels_.rbegin(); p != panels_.rend(); ++p) {  // Q_p = I − V T Vᵀ
    auto tail = x.subvec(p->first, n_ - 1);
    const arma::vec w = p->T * (p->V.t() * tail);
    tail -= p->V * w;
  }
}

int BandReduction::solve_band(double shift, arma::vec& c) const {
  if (c.n_elem != n_) {
    throw InvalidArgument(fmt::format("banded solve: right-hand side has {} entries, B is {} × {}",
                                      c.n_elem, n_, n_));
  }
  if (n_ == 0) return 0;
  arma::mat factor = band_;
  factor.row(0) += shift;  // the diagonal, in lower band storage
  const int n = static_cast<int>(n_), kd = static_cast<int>(bandwidth_), ldab = kd + 1, one = 1;
  int info = 0;
  dpbtrf_("L", &n, &kd, factor.memptr(), &ldab, &info, 1);
  if (info < 0) throw NumericError(fmt::format("dpbtrf: argument {} is invalid", -info));
  if (info > 0) return info;
  dpbtrs_("L", &n, &kd, &one, factor.memptr(), &ldab, c.memptr(), &n, &info, 1);
  if (info != 0) throw NumericError(fmt::format("dpbtrs failed (info {})", info));
  return 0;
}

int BandReduction::solve_shifted(double shift, arma::vec& x) const {
  apply_qt(x);
  const int info = solve_band(shift, x);
  if (info != 0) return info;
  apply_q(x);
  return 0;
}

double largest_eigenvalue(const std::function<void(const arma::vec& v, arma::vec& Av)>& apply,
                          arma::uword n, double tolerance, int max_iterations, int& iterations) {
  iterations = 0;
  if (n == 0) return 0;
  // A fixed start vector with no special structure, so that it is not orthogonal to the
  // leading eigenvector of any matrix one meets in practice.
  arma::vec v(n);
  for (arma::uword i = 0; i < n; ++i) v[i] = 1.0 + 0.5 * std::sin(static_cast<double>(i) + 1.0);
  v /= arma::norm(v);
  arma::vec Av(n);
  double rayleigh = 0;
  for (int k = 0; k < std::max(max_iterations, 1); ++k) {
    apply(v, Av);
    ++iterations;
    const double next = arma::dot(v, Av);
    const double norm = arma::norm(Av);
    const bool settled = k > 0 && std::abs(next - rayleigh) <= tolerance * std::abs(next);
    rayleigh = next;
    if (settled || norm == 0 || !std::isfinite(norm)) break;
    v = Av / norm;
  }
  return rayleigh;
}

}  // namespace kexp::linalg
