// The host backend of kexp/device_backend.hpp: "device memory" is host memory counted
// against a limit of its own (KEXP_HOST_DEVICE_MEMORY, kexp::device::host_memory_limit),
// BLAS and LAPACK are OpenBLAS through Armadillo's wrappers, and the kernel's program is
// applied by the SDK's formula engine (kexp::gram::formula_block), as the CPU path's Gram
// matrices are. It runs a solver's device code path, with its memory plan, its blocks and its
// refusals, on a machine without a GPU, and gives what the CUDA backend gives to float64's
// rounding.
#include <armadillo>
#include <atomic>
#include <cstring>
#include <new>
#include <string>

#include "device/backends.hpp"
#include "kexp/device.hpp"
#include "kexp/error.hpp"
#include "kexp/formula.hpp"
#include "kexp/formula_program.hpp"

namespace kexp::device {

namespace {

using arma::blas_int;

blas_int as_blas(std::size_t value) { return static_cast<blas_int>(value); }

char op_char(Op a) { return a == Op::transpose ? 'T' : 'N'; }

class HostBackend final : public Backend {
 public:
  const char* name() const override { return "host"; }
  std::string memory_name() const override {
    return "host device memory (KEXP_HOST_DEVICE_MEMORY)";
  }
  std::string unavailable() const override { return {}; }
  Memory memory() const override {
    const double limit = host_memory_limit();
    const double used = static_cast<double>(used_bytes_.load());
    return {limit > used ? limit - used : 0.0, limit};
  }

  double* allocate(std::size_t count) override {
    const std::size_t bytes = 8 * std::max<std::size_t>(count, 1);
    const Memory m = memory();
    if (static_cast<double>(bytes) > m.free_bytes) {
      throw Error("the host backend cannot allocate " + size_text(static_cast<double>(bytes)) +
                  ": " + size_text(m.free_bytes) + " of its " + size_text(m.total_bytes) +
                  " are free (KEXP_HOST_DEVICE_MEMORY)");
    }
    auto* p = static_cast<double*>(::operator new(bytes + kHeader, std::nothrow));
    if (p == nullptr) throw Error("the host backend cannot allocate " + size_text(bytes * 1.0));
    std::memcpy(p, &bytes, sizeof bytes);  // the size, in front, for release()
    used_bytes_ += bytes;
    return p + kHeader / 8;
  }
  void release(double* p) noexcept override {
    if (p == nullptr) return;
    double* start = p - kHeader / 8;
    std::size_t bytes = 0;
    std::memcpy(&bytes, start, sizeof bytes);
    used_bytes_ -= bytes;
    ::operator delete(start);
  }
  void copy_to_device(double* to, const double* from, std::size_t count) override {
    std::memcpy(to, from, 8 * count);
  }
  void copy_to_host(double* to, const double* from, std::size_t count) override {
    std::memcpy(to, from, 8 * count);
  }
  void copy_on_device(double* to, const double* from, std::size_t count) override {
    std::memcpy(to, from, 8 * count);
  }
  void set_zero(double* p, std::size_t count) override { std::memset(p, 0, 8 * count); }
  void synchronize() override {}

  void gemm(Op a, Op b, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* A,
            std::size_t lda, const double* B, std::size_t ldb, double beta, double* C,
            std::size_t ldc) override {
    if (m == 0 || n == 0) return;
    const char ta = op_char(a), tb = op_char(b);
    const blas_int mi = as_blas(m), ni = as_blas(n), ki = as_blas(k), la = as_blas(lda),
                   lb = as_blas(ldb), lc = as_blas(ldc);
    arma::blas::gemm<double>(&ta, &tb, &mi, &ni, &ki, &alpha, A, &la, B, &lb, &beta, C, &lc);
  }
  void gemv(Op a, std::size_t m, std::size_t n, double alpha, const double* A, std::size_t lda,
            const double* x, double beta, double* y) override {
    if (m == 0 || n == 0) return;
    const char ta = op_char(a);
    const blas_int mi = as_blas(m), ni = as_blas(n), la = as_blas(lda), inc = 1;
    arma::blas::gemv<double>(&ta, &mi, &ni, &alpha, A, &la, x, &inc, &beta, y, &inc);
  }
  void syrk(Op a, std::size_t n, std::size_t k, double alpha, const double* A, std::size_t lda,
            double beta, double* C, std::size_t ldc) override {
    if (n == 0) return;
    const char lower = 'L', ta = op_char(a);
    const blas_int ni = as_blas(n), ki = as_blas(k), la = as_blas(lda), lc = as_blas(ldc);
    arma::blas::syrk<double>(&lower, &ta, &ni, &ki, &alpha, A, &la, &beta, C, &lc);
  }
  int potrf(double* A, std::size_t n, std::size_t lda) override {
    if (n == 0) return 0;
    char lower = 'L';
    blas_int ni = as_blas(n), la = as_blas(lda), info = 0;
    arma::lapack::potrf<double>(&lower, &ni, A, &la, &info);
    if (info < 0) throw Error("dpotrf: argument " + std::to_string(-info) + " is invalid");
    return static_cast<int>(info);
  }
  double potrf_workspace_bytes(std::size_t) override { return 0.0; }
  void potrs(const double* L, std::size_t n, std::size_t ldl, double* B, std::size_t nrhs,
             std::size_t ldb) override {
    if (n == 0 || nrhs == 0) return;
    char lower = 'L';
    blas_int ni = as_blas(n), nr = as_blas(nrhs), ll = as_blas(ldl), lb = as_blas(ldb), info = 0;
    arma::lapack::potrs<double>(&lower, &ni, &nr, const_cast<double*>(L), &ll, B, &lb, &info);
    if (info != 0) throw Error("dpotrs: argument " + std::to_string(-info) + " is invalid");
  }
  void trsm(Op a, const double* L, std::size_t n, std::size_t ldl, double* B, std::size_t nrhs,
            std::size_t ldb) override {
    if (n == 0 || nrhs == 0) return;
    char lower = 'L', ta = op_char(a), diag = 'N';
    blas_int ni = as_blas(n), nr = as_blas(nrhs), ll = as_blas(ldl), lb = as_blas(ldb), info = 0;
    arma::lapack::trtrs<double>(&lower, &ta, &diag, &ni, &nr, L, &ll, B, &lb, &info);
    if (info < 0) throw Error("dtrtrs: argument " + std::to_string(-info) + " is invalid");
    if (info > 0) {
      throw NumericError("the triangular factor is singular (diagonal entry " +
                         std::to_string(info) + " of " + std::to_string(n) + " is 0)");
    }
  }
  void trsv(Op a, const double* L, std::size_t n, std::size_t ldl, double* x) override {
    trsm(a, L, n, ldl, x, 1, n);
  }

  void squared_norms(const double* A, std::size_t d, std::size_t n, double* norms) override {
    for (std::size_t j = 0; j < n; ++j) {
      const double* column = A + j * d;
      double sum = 0.0;
      for (std::size_t k = 0; k < d; ++k) sum += column[k] * column[k];
      norms[j] = sum;
    }
  }
  void apply_kernel(const FormulaProgram& p, double* S, std::size_t ld, std::size_t rows,
                    std::size_t cols, const double* row_norms, const double* col_norms,
                    bool symmetric, double shift) override {
    gram::formula_block(p, S, ld, rows, cols, row_norms, col_norms, symmetric, shift);
  }
  void lower_only(double* A, std::size_t n, std::size_t lda, double shift) override {
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t i = 0; i < j; ++i) A[i + j * lda] = 0.0;
      A[j + j * lda] += shift;
    }
  }
  void get_diagonal(const double* A, std::size_t n, std::size_t lda, double* diag) override {
    for (std::size_t i = 0; i < n; ++i) diag[i] = A[i + i * lda];
  }
  void set_diagonal(double* A, std::size_t n, std::size_t lda, const double* diag,
                    double shift) override {
    for (std::size_t i = 0; i < n; ++i) A[i + i * lda] = diag[i] + shift;
  }
  void column_squares(const double* S, std::size_t rows, std::size_t cols, std::size_t ld,
                      double* out) override {
    for (std::size_t j = 0; j < cols; ++j) {
      double sum = 0.0;
      for (std::size_t i = 0; i < rows; ++i) sum += S[i + j * ld] * S[i + j * ld];
      out[j] = sum;
    }
  }

 private:
  /// Bytes in front of each allocation, where its size is kept: a multiple of the
  /// alignment operator new gives, so that the memory given out keeps it.
  static constexpr std::size_t kHeader = 64;
  std::atomic<std::size_t> used_bytes_{0};
};

}  // namespace

Backend& host_backend() {
  static HostBackend backend;
  return backend;
}

}  // namespace kexp::device
