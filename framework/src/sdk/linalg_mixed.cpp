// The factorization of a shifted matrix A + shift·I in float64, float32, or float32
// refined to float64 accuracy (mixed), with the fallback to float64 where float32 cannot
// (kexp/linalg.hpp: ShiftedFactor, solve_shifted).
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
#include "sdk/lapack.hpp"

namespace kexp::linalg {

using internal::require_finite_factor;

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

}  // namespace kexp::linalg
