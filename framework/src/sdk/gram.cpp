#include "kexp/gram.hpp"

#include <fmt/format.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cmath>

#include "kexp/error.hpp"

extern "C" {
void openblas_set_num_threads(int n);
int openblas_get_num_threads();
}

namespace kexp {

namespace {
std::atomic<int> configured_threads{0};
}

int thread_count() {
  const int n = configured_threads.load();
  return n > 0 ? n : omp_get_max_threads();
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
  arma::blas::gemm<double>("T", "N", &mi, &ni, &ki, &one, A, &la, B, &lb, &zero, C, &lc);
}

SingleThreadedBlas::SingleThreadedBlas() : previous_(openblas_get_num_threads()) {
  openblas_set_num_threads(1);
}

SingleThreadedBlas::~SingleThreadedBlas() { openblas_set_num_threads(previous_); }

}  // namespace detail

namespace {

// Compiled three times and chosen at load by the CPU (an ifunc): AVX-512, AVX2 with FMA,
// and the baseline x86-64 (SSE2).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define KEXP_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KEXP_VECTOR_CLONES
#endif

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

void exp_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K, double gamma, bool symmetric) {
  const arma::rowvec a = -gamma * arma::sum(arma::square(X), 0);
  const arma::rowvec b = symmetric ? a : arma::rowvec(-gamma * arma::sum(arma::square(Z), 0));
  const double two_gamma = 2.0 * gamma;
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

/// The most entries one block of product() holds.
constexpr double kProductBlockEntries = 4.0 * 1024 * 1024;

arma::uword product_block_columns(arma::uword n) {
  const double b =
      std::floor(kProductBlockEntries / static_cast<double>(std::max<arma::uword>(n, 1)));
  return static_cast<arma::uword>(std::max(1.0, b));
}

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
  const arma::uword b = product_block_columns(X.n_cols);
  arma::mat block;
  for (arma::uword first = 0; first < Z.n_cols; first += b) {
    const arma::uword last = std::min(first + b, Z.n_cols) - 1;
    kernel.gram(X, Z.cols(first, last), block);
    out += block * V.rows(first, last);
  }
}

double product_block_bytes(std::size_t rows, std::size_t columns) {
  return 8.0 * static_cast<double>(rows) *
         static_cast<double>(std::min<arma::uword>(product_block_columns(rows), columns));
}

}  // namespace gram
}  // namespace kexp
