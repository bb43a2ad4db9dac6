#include "kexp/gram.hpp"

#include <omp.h>

#include <atomic>

extern "C" {
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
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

namespace detail {

void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const double* A, std::size_t lda,
             const double* B, std::size_t ldb, double* C, std::size_t ldc) {
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  const int la = static_cast<int>(lda), lb = static_cast<int>(ldb), lc = static_cast<int>(ldc);
  const double one = 1.0, zero = 0.0;
  dgemm_("T", "N", &mi, &ni, &ki, &one, A, &la, B, &lb, &zero, C, &lc);
}

SingleThreadedBlas::SingleThreadedBlas() : previous_(openblas_get_num_threads()) {
  openblas_set_num_threads(1);
}

SingleThreadedBlas::~SingleThreadedBlas() { openblas_set_num_threads(previous_); }

}  // namespace detail
}  // namespace kexp
