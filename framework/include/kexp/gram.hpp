// Fast Gram blocks for kernels that are a function of the squared distance
// (k = f(‖x − z‖²): gaussian, laplacian) or of the inner product (k = f(xᵀz): linear,
// polynomial, sigmoid, cubic).
//
// K is computed in square blocks. For each block the inner products XᵀZ come from one
// BLAS call (DGEMM) written straight into K; the squared distance
// ‖x‖² + ‖z‖² − 2xᵀz (clamped at zero, exactly zero on the diagonal when X is Z) and the
// transform f are applied while the block is still in cache. When X is Z only the blocks
// of one triangle are computed and each is mirrored while hot. Blocks are shared among
// threads (OpenMP), with BLAS itself kept to one thread inside each block.
#pragma once

#include <algorithm>
#include <armadillo>
#include <cstddef>

#include "kexp/export.hpp"

namespace kexp {

/// Number of threads kexp uses for its own parallel loops (Gram blocks).
KEXP_API int thread_count();
/// Sets it; n ≤ 0 restores the default (all cores, or OMP_NUM_THREADS).
KEXP_API void set_thread_count(int n);

namespace detail {

/// C = Aᵀ B for column-major A (k × m, leading dimension lda), B (k × n, ldb),
/// C (m × n, ldc), by DGEMM on the calling thread only.
KEXP_API void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const double* A, std::size_t lda,
                      const double* B, std::size_t ldb, double* C, std::size_t ldc);

/// Holds BLAS at one thread for its lifetime, so that threads over blocks do not
/// oversubscribe the cores; restores the previous count.
class KEXP_API SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int previous_;
};

inline constexpr std::size_t kGramBlock = 256;

/// Computes K (sized n × m) block by block. `finish(block, i0, j0, rows, cols, ld)`
/// turns the inner products in a block (at K + i0 + j0·ld) into kernel values.
/// `symmetric`: X is Z, and only blocks with i0 ≤ j0 are computed, then mirrored.
template <class Finish>
void blocked_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K, bool symmetric,
                  Finish finish) {
  const std::size_t n = X.n_cols;
  const std::size_t m = Z.n_cols;
  const std::size_t d = X.n_rows;
  const std::size_t B = kGramBlock;
  const std::size_t row_blocks = (n + B - 1) / B;
  const std::size_t col_blocks = (m + B - 1) / B;
  const std::size_t ld = K.n_rows;
  double* const k = K.memptr();
  const long total = static_cast<long>(row_blocks * col_blocks);

  SingleThreadedBlas single;
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count())
  for (long t = 0; t < total; ++t) {
    const std::size_t bj = static_cast<std::size_t>(t) / row_blocks;
    const std::size_t bi = static_cast<std::size_t>(t) % row_blocks;
    if (symmetric && bi > bj) continue;
    const std::size_t i0 = bi * B;
    const std::size_t j0 = bj * B;
    const std::size_t rows = std::min(B, n - i0);
    const std::size_t cols = std::min(B, m - j0);
    double* block = k + i0 + j0 * ld;
    if (d == 0) {
      for (std::size_t j = 0; j < cols; ++j) std::fill_n(block + j * ld, rows, 0.0);
    } else {
      gemm_tn(rows, cols, d, X.memptr() + i0 * d, d, Z.memptr() + j0 * d, d, block, ld);
    }
    finish(block, i0, j0, rows, cols, ld);
    if (symmetric && bi != bj) {
      double* mirror = k + j0 + i0 * ld;
      for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i) mirror[j + i * ld] = block[i + j * ld];
    }
  }
}

}  // namespace detail

namespace gram {

/// Kᵢⱼ = f(‖xᵢ − zⱼ‖²), K sized n × m by the caller.
template <class F>
void from_squared_distances(const arma::mat& X, const arma::mat& Z, arma::mat& K, F f) {
  const arma::rowvec xx = arma::sum(arma::square(X), 0);
  const arma::rowvec zz = arma::sum(arma::square(Z), 0);
  detail::blocked_gram(X, Z, K, false,
                       [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                           std::size_t cols, std::size_t ld) {
                         for (std::size_t j = 0; j < cols; ++j) {
                           double* col = block + j * ld;
                           const double zn = zz[j0 + j];
                           const double* xn = xx.memptr() + i0;
#pragma omp simd
                           for (std::size_t i = 0; i < rows; ++i) {
                             const double s = xn[i] + zn - 2.0 * col[i];
                             col[i] = f(s > 0.0 ? s : 0.0);
                           }
                         }
                       });
}

/// Kᵢⱼ = f(‖xᵢ − xⱼ‖²), symmetric, with f(0) on the diagonal; K sized n × n.
template <class F>
void from_squared_distances(const arma::mat& X, arma::mat& K, F f) {
  const arma::rowvec xx = arma::sum(arma::square(X), 0);
  const double on_diagonal = f(0.0);
  detail::blocked_gram(X, X, K, true,
                       [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                           std::size_t cols, std::size_t ld) {
                         for (std::size_t j = 0; j < cols; ++j) {
                           double* col = block + j * ld;
                           const double zn = xx[j0 + j];
                           const double* xn = xx.memptr() + i0;
#pragma omp simd
                           for (std::size_t i = 0; i < rows; ++i) {
                             const double s = xn[i] + zn - 2.0 * col[i];
                             col[i] = f(s > 0.0 ? s : 0.0);
                           }
                           if (i0 == j0) col[j] = on_diagonal;
                         }
                       });
}

/// Kᵢⱼ = f(xᵢᵀzⱼ), K sized n × m by the caller.
template <class F>
void from_inner_products(const arma::mat& X, const arma::mat& Z, arma::mat& K, F f) {
  detail::blocked_gram(X, Z, K, false,
                       [&](double* block, std::size_t, std::size_t, std::size_t rows,
                           std::size_t cols, std::size_t ld) {
                         for (std::size_t j = 0; j < cols; ++j) {
                           double* col = block + j * ld;
#pragma omp simd
                           for (std::size_t i = 0; i < rows; ++i) col[i] = f(col[i]);
                         }
                       });
}

/// Kᵢⱼ = f(xᵢᵀxⱼ), symmetric; K sized n × n.
template <class F>
void from_inner_products(const arma::mat& X, arma::mat& K, F f) {
  detail::blocked_gram(X, X, K, true,
                       [&](double* block, std::size_t, std::size_t, std::size_t rows,
                           std::size_t cols, std::size_t ld) {
                         for (std::size_t j = 0; j < cols; ++j) {
                           double* col = block + j * ld;
#pragma omp simd
                           for (std::size_t i = 0; i < rows; ++i) col[i] = f(col[i]);
                         }
                       });
}

}  // namespace gram
}  // namespace kexp
