// The LAPACK routines solvers share, in place: a blocked Cholesky factorization and its
// solves, triangular solves, the loan of K's lower triangle, the log-determinant and the
// largest eigenvalue. The shifted factorization in three precisions is in
// linalg_mixed.cpp, the reduction to a band in linalg_band.cpp.
#include "kexp/linalg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/parallel.hpp"
#include "sdk/blocked_cholesky.hpp"
#include "sdk/lapack.hpp"

namespace kexp::linalg {

using internal::require_finite_factor;

namespace {

// cholesky_in_place's blocked factorization (sdk/blocked_cholesky.hpp): the columns of a
// diagonal block, the width of a strip of the trailing matrix updated by one call, and the
// order from which it is used instead of OpenBLAS's dpotrf. Below it, dpotrf's buffers are
// small beside A (about 8 MB at n = 4000, A 128 MB) and dpotrf was up to 18% faster; from
// 6000 on, the two took the same time within the noise (0.96–1.01).
constexpr int kCholeskyBlock = 256;
constexpr int kCholeskyStrip = 1024;
constexpr int kCholeskyStripsFrom = 6000;

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
