// Fast Gram blocks for kernels that are a function of the squared distance
// (k = f(‖x − z‖²): gaussian, laplacian) or of the inner product (k = f(xᵀz): linear,
// polynomial, sigmoid, cubic).
//
// K is computed in square blocks. For each block the inner products XᵀZ come from one
// BLAS call (DGEMM) written straight into K; the squared distance
// ‖x‖² + ‖z‖² − 2xᵀz (clamped at zero, exactly zero on the diagonal when X is Z) and the
// transform f are applied while the block is still in cache. When X is Z only the blocks
// of one triangle are computed and each is mirrored while hot; when the caller of
// Kernel::gram asked for the lower triangle only, the blocks of the lower triangle are
// computed and nothing is mirrored. Blocks are shared among
// threads (OpenMP), with BLAS itself kept to one thread inside each block; an exception
// thrown while filling a block is rethrown on the calling thread (kexp/parallel.hpp).
// A transform f declared noexcept runs in a vectorized (`omp simd`) loop, which an
// exception cannot leave (GCC ends the process); any other f runs in a plain loop, and
// what it throws reaches the caller like any other exception of a block. Declare the
// transforms of a kernel noexcept (`[](double s) noexcept { … }`), having checked its
// parameters in its constructor, to keep the vectorized loop.
#pragma once

#include <algorithm>
#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kexp/export.hpp"
#include "kexp/kernel.hpp"
#include "kexp/parallel.hpp"
#include "kexp/vector_math.hpp"

namespace kexp {

/// Asks the kernel to back a large matrix with transparent huge pages (Linux
/// madvise(MADV_HUGEPAGE), as numpy does for large arrays), so that filling a fresh
/// n × n matrix takes hundreds of page faults instead of hundreds of thousands. Call it
/// after sizing the matrix and before its first write; does nothing for small ones.
KEXP_API void advise_huge_pages(arma::mat& M);
/// The same for `bytes` bytes of any memory at `data` (a buffer a file is read into).
KEXP_API void advise_huge_pages(void* data, std::size_t bytes);

namespace gram {

/// The part of K(X, X) that the Kernel::gram call running on this thread asks for:
/// Triangle::Both, unless it was called with Triangle::Lower.
KEXP_API Triangle requested_triangle();

}  // namespace gram

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

/// to[j + i·ld] = from[i + j·ld] for i < rows, j < cols: a block of K(X, X) into its mirror
/// image across the diagonal, in vector registers tile by tile (the formula engine's, for
/// the CPU's instruction set).
KEXP_API void transpose_block(const double* from, double* to, std::size_t rows, std::size_t cols,
                              std::size_t ld);
KEXP_API void transpose_block(const float* from, float* to, std::size_t rows, std::size_t cols,
                              std::size_t ld);

/// The blocks of the lower triangle of the n × n K (i0 ≥ j0), in parallel; see
/// for_each_block.
template <class Matrix, class Fill>
void for_each_lower_block(std::size_t n, Matrix& K, Fill fill) {
  const std::size_t B = kGramBlock;
  const std::size_t blocks = (n + B - 1) / B;
  const std::size_t ld = K.n_rows;
  typename Matrix::elem_type* const k = K.memptr();
  parallel_for(
      blocks * blocks,
      [&](std::size_t t) {
        const std::size_t bj = t / blocks;
        const std::size_t bi = t % blocks;
        if (bi < bj) return;
        const std::size_t i0 = bi * B;
        const std::size_t j0 = bj * B;
        fill(k + i0 + j0 * ld, i0, j0, std::min(B, n - i0), std::min(B, n - j0), ld);
      },
      Schedule::Dynamic, 1);
}

/// Visits K (sized n × m; an arma::mat, or an arma::fmat of float32) block by block, in parallel:
/// `fill(block, i0, j0, rows, cols, ld)` writes the kernel values of the block at K + i0 + j0·ld.
/// `symmetric`: K is K(X, X), and only blocks with i0 ≤ j0 are filled; the lower triangle of a
/// diagonal block is copied from its upper one, and every other block is mirrored while it is in
/// cache. When only the lower triangle is asked for (gram::requested_triangle()), only blocks with
/// i0 ≥ j0 are filled and nothing is copied.
template <class Matrix, class Fill>
void for_each_block(std::size_t n, std::size_t m, Matrix& K, bool symmetric, Fill fill) {
  if (symmetric && gram::requested_triangle() == Triangle::Lower) {
    for_each_lower_block(n, K, fill);
    return;
  }
  const std::size_t B = kGramBlock;
  const std::size_t row_blocks = (n + B - 1) / B;
  const std::size_t col_blocks = (m + B - 1) / B;
  const std::size_t ld = K.n_rows;
  typename Matrix::elem_type* const k = K.memptr();
  const std::size_t total = row_blocks * col_blocks;

  // An exception from `fill` (a transform that throws, an allocation) is carried out of
  // the parallel region and rethrown here.
  parallel_for(
      total,
      [&](std::size_t t) {
        const std::size_t bj = t / row_blocks;
        const std::size_t bi = t % row_blocks;
        if (symmetric && bi > bj) return;
        const std::size_t i0 = bi * B;
        const std::size_t j0 = bj * B;
        const std::size_t rows = std::min(B, n - i0);
        const std::size_t cols = std::min(B, m - j0);
        auto* block = k + i0 + j0 * ld;
        fill(block, i0, j0, rows, cols, ld);
        if (symmetric && bi == bj) {
          // xᵢᵀxⱼ and xⱼᵀxᵢ need not be bitwise equal: the upper triangle is copied.
          for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t i = j + 1; i < rows; ++i) block[i + j * ld] = block[j + i * ld];
        }
        if (symmetric && bi != bj) transpose_block(block, k + j0 + i0 * ld, rows, cols, ld);
      },
      Schedule::Dynamic, 1);
}

/// Computes K (sized n × m) block by block: the inner products of each block by DGEMM,
/// then `finish(block, i0, j0, rows, cols, ld)` turns them into kernel values.
/// `symmetric`: X is Z (see for_each_block).
template <class Finish>
void blocked_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K, bool symmetric,
                  Finish finish) {
  const std::size_t d = X.n_rows;
  SingleThreadedBlas single;
  for_each_block(X.n_cols, Z.n_cols, K, symmetric,
                 [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                     std::size_t cols, std::size_t ld) {
                   if (d == 0) {
                     for (std::size_t j = 0; j < cols; ++j) std::fill_n(block + j * ld, rows, 0.0);
                   } else {
                     gemm_tn(rows, cols, d, X.memptr() + i0 * d, d, Z.memptr() + j0 * d, d, block,
                             ld);
                   }
                   finish(block, i0, j0, rows, cols, ld);
                 });
}

}  // namespace detail

// A loop compiled three times and chosen at load by the CPU (an ifunc): AVX-512, AVX2 with
// FMA, and the baseline x86-64 (SSE2); GCC on x86-64 only. The column loops below carry it,
// so that a kernel's function, inlined into them, runs with the widest vectors the CPU has.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define KEXP_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KEXP_VECTOR_CLONES
#endif

namespace detail {

/// col[i] = f(col[i]) for i < rows, f noexcept: the vectorized loop, with KEXP_VECTOR_CLONES.
/// (GCC's clones end the process on an exception passing through them, so a function that
/// may throw never runs in one.)
template <class F>
KEXP_VECTOR_CLONES void transform_column_vectorized(double* col, std::size_t rows, const F& f) {
#pragma omp simd
  for (std::size_t i = 0; i < rows; ++i) col[i] = f(col[i]);
}

/// col[i] = f(max(0, xn[i] + zn − 2·col[i])), f noexcept: the vectorized loop, as above.
template <class F>
KEXP_VECTOR_CLONES void transform_distance_column_vectorized(double* col, const double* xn,
                                                             double zn, std::size_t rows,
                                                             const F& f) {
#pragma omp simd
  for (std::size_t i = 0; i < rows; ++i) {
    const double s = xn[i] + zn - 2.0 * col[i];
    col[i] = f(s > 0.0 ? s : 0.0);
  }
}

/// col[i] = f(col[i]) for i < rows: vectorized when f is noexcept; otherwise a plain loop,
/// out of which an exception of f may propagate (an `omp simd` loop would end the process).
template <class F>
inline void transform_column(double* col, std::size_t rows, const F& f) {
  if constexpr (std::is_nothrow_invocable_v<const F&, double>) {
    transform_column_vectorized(col, rows, f);
  } else {
    for (std::size_t i = 0; i < rows; ++i) col[i] = f(col[i]);
  }
}

/// col[i] = f(max(0, xn[i] + zn − 2·col[i])): the squared distances from the inner
/// products, then f; vectorized when f is noexcept, as transform_column.
template <class F>
inline void transform_distance_column(double* col, const double* xn, double zn, std::size_t rows,
                                      const F& f) {
  if constexpr (std::is_nothrow_invocable_v<const F&, double>) {
    transform_distance_column_vectorized(col, xn, zn, rows, f);
  } else {
    for (std::size_t i = 0; i < rows; ++i) {
      const double s = xn[i] + zn - 2.0 * col[i];
      col[i] = f(s > 0.0 ? s : 0.0);
    }
  }
}

}  // namespace detail

namespace gram {

/// out = K(X, Z) V (n × k, for V m × k) without storing K(X, Z): K is computed in tiles of
/// at most 2¹⁶ entries (512 KiB, at most 1024 columns of Z by the rows that fill it), each
/// multiplied into its rows of out while it is in cache. The tiles are shared among
/// kexp's threads (thread_count()), each holding one tile and calling kernel.gram() on it
/// (so a kernel's gram() runs on several threads at once), with BLAS on one thread
/// throughout. Memory: one tile per thread; every kernel value is computed once per call.
/// For the matrix-free solvers (flags::kernel_inputs): K v for conjugate gradients,
/// K(X*, C) α for predictions.
KEXP_API void product(const Kernel& kernel, const arma::mat& X, const arma::mat& Z,
                      const arma::mat& V, arma::mat& out);

/// The bytes product() holds for its tiles when X has `rows` points and Z `columns`.
KEXP_API double product_block_bytes(std::size_t rows, std::size_t columns);

/// w = K(X, C)ᵀ(K(X, C) u + v) (m-vector, for u of m and v of n entries) without storing
/// K(X, C): the normal-equations product of Nyström methods (falkon), streamed as product()
/// is, over tiles of 256 rows of K(X, C) (fewer where m is so large that they would pass 16 MiB) on
/// every thread. The tiles' Kᵀ(Ku + v) are added in 64 runs of consecutive tiles, each into a sum
/// of its own, and the sums in their order: the result is the same whatever the number of threads.
KEXP_API arma::vec normal_product(const Kernel& kernel, const arma::mat& X, const arma::mat& C,
                                  const arma::vec& u, const arma::vec& v);

/// The bytes normal_product() holds when X has `rows` points and C `columns`.
KEXP_API double normal_product_bytes(std::size_t rows, std::size_t columns);

/// Kᵢⱼ = exp(−γ·‖xᵢ − zⱼ‖²) (the Gaussian kernel with γ = 1/(2σ²)), K sized n × m by the
/// caller. The fast path: the squared distance and the exponential (vexp) are fused into
/// one pass over each block, compiled for the widest vector unit of the CPU.
KEXP_API void exp_of_squared_distances(const arma::mat& X, const arma::mat& Z, arma::mat& K,
                                       double gamma);

/// The same for K(X, X): one triangle of blocks, each mirrored; exactly 1 on the diagonal.
KEXP_API void exp_of_squared_distances(const arma::mat& X, arma::mat& K, double gamma);

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
                           detail::transform_distance_column(col, xx.memptr() + i0, zn, rows, f);
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
                           detail::transform_distance_column(col, xx.memptr() + i0, zn, rows, f);
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
                           detail::transform_column(block + j * ld, rows, f);
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
                           detail::transform_column(block + j * ld, rows, f);
                         }
                       });
}

}  // namespace gram
}  // namespace kexp
