// The SDK's Gram helpers: kexp's thread count, huge-page advice for large matrices, the
// blocked K of kernels of the squared distance or the inner product (one DGEMM per block,
// the transform applied while it is in cache), and the matrix-free products K(X, Z)V and
// K_nmᵀ(K_nm u + v) computed in tiles on every thread.
#include "kexp/gram.hpp"

#include <fmt/format.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>

#include "kexp/error.hpp"
#include "kexp/parallel.hpp"
#include "sdk/tiles.hpp"

extern "C" {
void openblas_set_num_threads(int n);
int openblas_get_num_threads();
int openblas_get_parallel();
}

namespace kexp {

namespace {

std::atomic<int> configured_threads{0};

/// openblas_get_parallel()'s answer for OpenBLAS's OpenMP build.
constexpr int kOpenMpBlas = 2;

/// kexp's threads when none were set: OpenMP's count as the library loads (the cores, or
/// OMP_NUM_THREADS). OpenBLAS's OpenMP build reads OMP_NUM_THREADS only and runs on
/// OpenMP's count of the calling thread; a user's OPENBLAS_NUM_THREADS or
/// GOTO_NUM_THREADS, which the pthreads build obeys, is given to it here, once kexp's own
/// count is taken.
int default_threads() {
  static const int threads = [] {
    const int cores = omp_get_max_threads();
    if (openblas_get_parallel() == kOpenMpBlas) {
      for (const char* name : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS"}) {
        const char* value = std::getenv(name);
        if (value == nullptr || *value == '\0') continue;
        const long n = std::strtol(value, nullptr, 10);
        if (n <= 0) continue;  // as OpenBLAS reads it: GOTO_NUM_THREADS next
        openblas_set_num_threads(static_cast<int>(std::min<long>(n, 1024)));
        break;
      }
    }
    return cores;
  }();
  return threads;
}

/// As the library loads, before anything calls BLAS.
[[maybe_unused]] const int kLoadedWith = default_threads();

}  // namespace

int thread_count() {
  const int n = configured_threads.load();
  return n > 0 ? n : default_threads();
}

void set_thread_count(int n) { configured_threads.store(n > 0 ? n : 0); }

void advise_huge_pages(arma::mat& M) { advise_huge_pages(M.memptr(), M.n_elem * sizeof(double)); }

void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(MADV_HUGEPAGE)
  constexpr std::size_t kWorthIt = std::size_t{4} << 20;  // numpy's threshold, 4 MiB
  if (data == nullptr || bytes < kWorthIt) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + page - 1) / page * page;
  const std::uintptr_t last = (begin + bytes) / page * page;
  // Advice only: where the kernel does not do huge pages, nothing changes.
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

namespace detail {

void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const double* A, std::size_t lda,
             const double* B, std::size_t ldb, double* C, std::size_t ldc) {
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  const int la = static_cast<int>(lda), lb = static_cast<int>(ldb), lc = static_cast<int>(ldc);
  const double one = 1.0, zero = 0.0;
  if (n == 1) {
    // One column (a kernel column of svc): DGEMV, without DGEMM's packing of A, which
    // took longer than the product itself at this size
    const int inc = 1;
    arma::blas::gemv<double>("T", &ki, &mi, &one, A, &la, B, &inc, &zero, C, &inc);
    return;
  }
  arma::blas::gemm<double>("T", "N", &mi, &ni, &ki, &one, A, &la, B, &lb, &zero, C, &lc);
}

// Inside a parallel region the caller that opened it holds BLAS to one thread already
// (product(), normal_product()): the threads of the region leave the setting alone.
// OpenBLAS's OpenMP build also sets the calling thread's OpenMP count here, which kexp's
// regions do not follow: they ask for thread_count() threads, whose default was taken as
// the library loaded.
SingleThreadedBlas::SingleThreadedBlas()
    : previous_(omp_in_parallel() ? 0 : openblas_get_num_threads()) {
  if (previous_ > 1) openblas_set_num_threads(1);
}

SingleThreadedBlas::~SingleThreadedBlas() {
  if (previous_ > 1) openblas_set_num_threads(previous_);
}

}  // namespace detail

namespace {

/// One block of K: on entry the inner products xᵢᵀzⱼ, on exit
/// exp(−γ·max(0, ‖xᵢ‖² + ‖zⱼ‖² − 2xᵢᵀzⱼ)) = exp(min(0, aᵢ + bⱼ + 2γ·xᵢᵀzⱼ)) with
/// aᵢ = −γ‖xᵢ‖², bⱼ = −γ‖zⱼ‖².
KEXP_VECTOR_CLONES
void exp_block(double* block, std::size_t ld, std::size_t rows, std::size_t cols, const double* a,
               const double* b, double two_gamma) {
  for (std::size_t j = 0; j < cols; ++j) {
    double* col = block + j * ld;
    const double bj = b[j];
#pragma omp simd
    for (std::size_t i = 0; i < rows; ++i) {
      const double e = a[i] + bj + two_gamma * col[i];
      col[i] = vexp(e < 0.0 ? e : 0.0);
    }
  }
}

/// out[j] = −γ‖x_j‖² for the n columns of X (d × n), one pass over X.
KEXP_VECTOR_CLONES
void scaled_norms(const double* X, std::size_t d, std::size_t n, double gamma, double* out) {
  for (std::size_t j = 0; j < n; ++j) {
    const double* x = X + j * d;
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (std::size_t r = 0; r < d; ++r) s += x[r] * x[r];
    out[j] = -gamma * s;
  }
}

arma::rowvec scaled_norms(const arma::mat& X, double gamma) {
  arma::rowvec out(X.n_cols);
  scaled_norms(X.memptr(), X.n_rows, X.n_cols, gamma, out.memptr());
  return out;
}

/// col[i] = exp(−γ‖xᵢ − z‖²) for the `rows` points of X (d × rows): the squared distances
/// directly, a feature at a time across the points (vectorized over the points), then the
/// exponentials. For one column of K this is one pass over X with no BLAS call, where the
/// expansion ‖x‖² + ‖z‖² − 2xᵀz takes a pass for the norms and a DGEMV per block, whose
/// call costs as much as its product at this size.
KEXP_VECTOR_CLONES
void exp_of_distances_to(const double* X, std::size_t d, std::size_t rows, const double* z,
                         double gamma, double* col) {
  for (std::size_t i = 0; i < rows; ++i) col[i] = 0.0;
  for (std::size_t r = 0; r < d; ++r) {
    const double zr = z[r];
#pragma omp simd
    for (std::size_t i = 0; i < rows; ++i) {
      const double t = X[i * d + r] - zr;
      col[i] += t * t;
    }
  }
  const double minus_gamma = -gamma;
#pragma omp simd
  for (std::size_t i = 0; i < rows; ++i) col[i] = vexp(minus_gamma * col[i]);
}

/// Columns of Z up to which exp_gram computes the distances directly.
constexpr std::size_t kDirectColumns = 4;

void exp_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K, double gamma, bool symmetric) {
  const double two_gamma = 2.0 * gamma;
  if (!symmetric && Z.n_cols <= kDirectColumns) {
    // A few columns of K (svc's kernel columns): the distances directly, block by block
    const std::size_t d = X.n_rows;
    detail::for_each_block(X.n_cols, Z.n_cols, K, false,
                           [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                               std::size_t cols, std::size_t ld) {
                             for (std::size_t j = 0; j < cols; ++j) {
                               exp_of_distances_to(X.memptr() + i0 * d, d, rows, Z.colptr(j0 + j),
                                                   gamma, block + j * ld);
                             }
                           });
    return;
  }
  if (!symmetric && Z.n_cols <= detail::kGramBlock) {
    // One column of blocks (a few columns of K, as svc asks for): each block takes the
    // norms of its own rows while they are in cache, on its thread, instead of a pass over
    // all of X first on one
    const arma::rowvec b = scaled_norms(Z, gamma);
    const std::size_t d = X.n_rows;
    detail::blocked_gram(X, Z, K, false,
                         [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                             std::size_t cols, std::size_t ld) {
                           double a[detail::kGramBlock];
                           scaled_norms(X.memptr() + i0 * d, d, rows, gamma, a);
                           exp_block(block, ld, rows, cols, a, b.memptr() + j0, two_gamma);
                         });
    return;
  }
  const arma::rowvec a = scaled_norms(X, gamma);
  const arma::rowvec b = symmetric ? a : scaled_norms(Z, gamma);
  auto unit_diagonal = [symmetric](double* block, std::size_t i0, std::size_t j0, std::size_t cols,
                                   std::size_t ld) {
    if (symmetric && i0 == j0) {
      for (std::size_t j = 0; j < cols; ++j) block[j + j * ld] = 1.0;
    }
  };
  detail::blocked_gram(X, Z, K, symmetric,
                       [&](double* block, std::size_t i0, std::size_t j0, std::size_t rows,
                           std::size_t cols, std::size_t ld) {
                         exp_block(block, ld, rows, cols, a.memptr() + i0, b.memptr() + j0,
                                   two_gamma);
                         unit_diagonal(block, i0, j0, cols, ld);
                       });
}

}  // namespace

namespace gram {

void exp_of_squared_distances(const arma::mat& X, const arma::mat& Z, arma::mat& K, double gamma) {
  exp_gram(X, Z, K, gamma, false);
}

void exp_of_squared_distances(const arma::mat& X, arma::mat& K, double gamma) {
  exp_gram(X, X, K, gamma, true);
}

namespace {

/// Entries of the tiles of product().
constexpr std::size_t kTileEntries = detail::kTileBytes / sizeof(double);
using detail::columns_of;
using detail::kSumLanes;
using detail::kTileColumns;

std::size_t tiles_of(std::size_t n, std::size_t per_tile) { return (n + per_tile - 1) / per_tile; }

}  // namespace

void product(const Kernel& kernel, const arma::mat& X, const arma::mat& Z, const arma::mat& V,
             arma::mat& out) {
  if (V.n_rows != Z.n_cols) {
    throw InvalidArgument(fmt::format(
        "gram::product: V has {} rows but Z has {} points (columns); K(X, Z) V needs one row "
        "of V per point of Z",
        V.n_rows, Z.n_cols));
  }
  out.zeros(X.n_cols, V.n_cols);
  const std::size_t n = X.n_cols, m = Z.n_cols;
  if (n == 0 || m == 0) return;
  const std::size_t columns = std::min(m, kTileColumns);
  const std::size_t rows = std::max<std::size_t>(1, kTileEntries / columns);
  // Each thread owns whole tiles of rows of out, so no two threads write the same entry.
  detail::parallel_tiles<arma::mat>(tiles_of(n, rows), [&](std::size_t t, arma::mat& tile) {
    const std::size_t r0 = t * rows;
    const std::size_t nr = std::min(rows, n - r0);
    const arma::mat X_tile = columns_of(X, r0, nr);
    for (std::size_t c0 = 0; c0 < m; c0 += columns) {
      const std::size_t nc = std::min(columns, m - c0);
      kernel.gram(X_tile, columns_of(Z, c0, nc), tile);
      out.rows(r0, r0 + nr - 1) += tile * V.rows(c0, c0 + nc - 1);
    }
  });
}

arma::vec normal_product(const Kernel& kernel, const arma::mat& X, const arma::mat& C,
                         const arma::vec& u, const arma::vec& v) {
  const std::size_t n = X.n_cols, m = C.n_cols;
  if (u.n_elem != m || v.n_elem != n) {
    throw InvalidArgument(fmt::format(
        "gram::normal_product: K(X, C)ᵀ(K(X, C)u + v) needs u of {} entries (one per point "
        "of C) and v of {} (one per point of X); they have {} and {}",
        m, n, u.n_elem, v.n_elem));
  }
  arma::vec w(m, arma::fill::zeros);
  if (n == 0 || m == 0) return w;
  const std::size_t rows = detail::normal_tile_rows(m, sizeof(double));
  const std::size_t tiles = tiles_of(n, rows);
  // The tiles are cut into kSumLanes runs of consecutive tiles, each summed in its order
  // into a column of its own by whichever thread takes it, and the columns are added in
  // their order: the same sums in the same order whatever the number of threads.
  const std::size_t lanes = std::min(kSumLanes, tiles);
  arma::mat sums(m, lanes, arma::fill::zeros);
  detail::parallel_tiles<arma::mat>(lanes, [&](std::size_t l, arma::mat& tile) {
    arma::vec sum(sums.colptr(l), m, /*copy_aux_mem=*/false, /*strict=*/true);
    for (std::size_t t = l * tiles / lanes; t < (l + 1) * tiles / lanes; ++t) {
      const std::size_t r0 = t * rows, nr = std::min(rows, n - r0);
      kernel.gram(columns_of(X, r0, nr), C, tile);
      sum += tile.t() * (tile * u + v.subvec(r0, r0 + nr - 1));
    }
  });
  for (std::size_t l = 0; l < lanes; ++l) w += sums.col(l);
  return w;
}

double product_block_bytes(std::size_t rows, std::size_t columns) {
  const double tile = static_cast<double>(
      std::min(kTileEntries, std::max<std::size_t>(rows, 1) * std::max<std::size_t>(columns, 1)));
  return 8.0 * static_cast<double>(thread_count()) * tile;
}

double normal_product_bytes(std::size_t rows, std::size_t columns) {
  // per thread a tile of K(X, C) and its products, a row of the tile's height; the lanes'
  // sums, m each
  const std::size_t r = detail::normal_tile_rows(columns, sizeof(double));
  const std::size_t tile_rows = std::min(std::max<std::size_t>(rows, 1), r);
  const std::size_t lanes = std::min(kSumLanes, (std::max<std::size_t>(rows, 1) + r - 1) / r);
  const double c = static_cast<double>(columns), h = static_cast<double>(tile_rows);
  return 8.0 * (static_cast<double>(thread_count()) * (h * c + h) + static_cast<double>(lanes) * c);
}

}  // namespace gram
}  // namespace kexp
