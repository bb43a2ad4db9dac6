// The CUDA backend of kexp/device_backend.hpp: device memory by the CUDA runtime, BLAS by
// cuBLAS, Cholesky by cuSOLVER, and the elementwise kernels (the kernel's program applied
// to a block of inner products, squared norms, triangle and diagonal helpers), in
// float64. Primitives only: the algorithms are written once over any backend
// (kexp/device.hpp, framework/src/device/blocks.cpp, and the solvers). Every CUDA, cuBLAS
// and cuSOLVER error throws kexp::Error with the library's words; nothing aborts.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "device/backends.hpp"
#include "kexp/error.hpp"
#include "kexp/formula_program.hpp"
#include "kexp/integer_power.hpp"

namespace kexp::device {

namespace {

// --- errors: every status becomes kexp::Error with the library's words ---

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw Error(std::string("CUDA error in ") + call + ": " + cudaGetErrorString(status));
  }
}

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw Error(std::string("cuBLAS error in ") + call + ": " + cublasGetStatusString(status));
  }
}

const char* cusolver_text(cusolverStatus_t status) {
  switch (status) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    default:
      return "cuSOLVER status not listed";
  }
}

void check(cusolverStatus_t status, const char* call) {
  if (status != CUSOLVER_STATUS_SUCCESS) {
    throw Error(std::string("cuSOLVER error in ") + call + ": " + cusolver_text(status) + " (" +
                std::to_string(static_cast<int>(status)) + ")");
  }
}

struct Handles {
  Handles() {
    check(cublasCreate(&blas), "cublasCreate");
    const cusolverStatus_t status = cusolverDnCreate(&solver);
    if (status != CUSOLVER_STATUS_SUCCESS) {
      cublasDestroy(blas);
      check(status, "cusolverDnCreate");
    }
  }
  ~Handles() {
    cusolverDnDestroy(solver);
    cublasDestroy(blas);
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
};

// --- the kernel's program, passed by value to the elementwise kernel ---
//
// A FormulaProgram (kexp/formula_program.hpp) is plain data of fixed size: it goes to the
// GPU as the elementwise kernel's argument, and evaluate_formula<double> runs it there
// with the meaning it has on the host. The building blocks check it on the host
// (check_formula_program) before it comes here.

/// norms[j] = ‖column j of A‖², A d × n.
__global__ void squared_norms(const double* A, std::size_t d, std::size_t n, double* norms) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  const double* column = A + j * d;
  double sum = 0.0;
  for (std::size_t k = 0; k < d; ++k) sum += column[k] * column[k];
  norms[j] = sum;
}

/// S (rows × cols, leading dimension ld) holds inner products s = aᵢᵀbⱼ; replaces each by
/// k(aᵢ, bⱼ) with r² = ‖aᵢ‖² + ‖bⱼ‖² − 2s clamped at 0. `symmetric`: S is K(X, X), only
/// its lower triangle is touched, r² = 0 on the diagonal and `shift` is added there.
/// Threads run down the rows of a column (x) and over columns (y, strided).
__global__ void apply_kernel(double* S, std::size_t ld, std::size_t rows, std::size_t cols,
                             const double* row_norms, const double* col_norms, FormulaProgram p,
                             bool symmetric, double shift) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  const double ri = row_norms[i];
  for (std::size_t j = blockIdx.y; j < cols; j += gridDim.y) {
    if (symmetric && i < j) break;  // j only grows
    double& entry = S[i + j * ld];
    const double s = entry;
    if (symmetric && i == j) {
      entry = evaluate_formula<double>(p, s, 0.0, ri, ri) + shift;
    } else {
      const double zz = col_norms[j];
      const double r2 = ri + zz - 2.0 * s;
      entry = evaluate_formula<double>(p, s, r2 > 0.0 ? r2 : 0.0, ri, zz);
    }
  }
}

/// The strict upper triangle of the n × n matrix A set to 0; `shift` added to the diagonal.
__global__ void lower_only(double* A, std::size_t n, std::size_t ld, double shift) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  for (std::size_t j = blockIdx.y; j < n; j += gridDim.y) {
    if (i < j) A[i + j * ld] = 0.0;
    if (i == j) A[i + j * ld] += shift;
  }
}

/// out[j] = Σᵢ S[i, j]² for S rows × cols, one block of 256 threads per column.
__global__ void column_squares(const double* S, std::size_t rows, std::size_t ld, double* out) {
  __shared__ double part[256];
  const double* column = S + static_cast<std::size_t>(blockIdx.x) * ld;
  double sum = 0.0;
  for (std::size_t i = threadIdx.x; i < rows; i += blockDim.x) sum += column[i] * column[i];
  part[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
    if (threadIdx.x < step) part[threadIdx.x] += part[threadIdx.x + step];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

/// diag[i] of the n × n A into `diag`, or (restore) back from it plus `shift`.
__global__ void diagonal(double* A, std::size_t n, std::size_t ld, double* diag, bool restore,
                         double shift) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  if (restore) {
    A[i + i * ld] = diag[i] + shift;
  } else {
    diag[i] = A[i + i * ld];
  }
}

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t work) {
  const std::size_t b = (work + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(b, 1), 65535 * 16));
}

void launched(const char* what) { check(cudaGetLastError(), what); }

/// A grid over rows × cols: a thread per row, blocks of columns strided.
dim3 grid_for(std::size_t rows, std::size_t cols) {
  return dim3(static_cast<unsigned>((rows + kThreads - 1) / kThreads),
              static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(cols, 1), 65535)));
}

int as_int(std::size_t value, const char* what) {
  if (value > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error(std::string("the CUDA backend takes at most 2³¹ − 1 ") + what + ", got " +
                std::to_string(value));
  }
  return static_cast<int>(value);
}

cublasOperation_t op_of(Op a) { return a == Op::transpose ? CUBLAS_OP_T : CUBLAS_OP_N; }

class CudaBackend final : public Backend {
 public:
  const char* name() const override { return "cuda"; }
  std::string memory_name() const override { return "GPU memory"; }
  std::string unavailable() const override {
    std::string name, reason;
    double free_bytes = 0, total_bytes = 0;
    return probe_cuda(name, reason, free_bytes, total_bytes) ? std::string() : reason;
  }
  Memory memory() const override {
    size_t free_b = 0, total_b = 0;
    check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    return {static_cast<double>(free_b), static_cast<double>(total_b)};
  }

  double* allocate(std::size_t count) override {
    double* p = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(count, 1) * 8),
          "cudaMalloc");
    return p;
  }
  void release(double* p) noexcept override {
    if (p != nullptr) cudaFree(p);
  }
  void copy_to_device(double* to, const double* from, std::size_t count) override {
    check(cudaMemcpy(to, from, 8 * count, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  void copy_to_host(double* to, const double* from, std::size_t count) override {
    check(cudaMemcpy(to, from, 8 * count, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  void copy_on_device(double* to, const double* from, std::size_t count) override {
    check(cudaMemcpy(to, from, 8 * count, cudaMemcpyDeviceToDevice), "cudaMemcpy");
  }
  void set_zero(double* p, std::size_t count) override {
    check(cudaMemset(p, 0, 8 * count), "cudaMemset");
  }
  void synchronize() override { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

  void gemm(Op a, Op b, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* A,
            std::size_t lda, const double* B, std::size_t ldb, double beta, double* C,
            std::size_t ldc) override {
    check(cublasDgemm(handles().blas, op_of(a), op_of(b), as_int(m, "rows"), as_int(n, "columns"),
                      as_int(k, "inner dimensions"), &alpha, A, as_int(lda, "rows"), B,
                      as_int(ldb, "rows"), &beta, C, as_int(ldc, "rows")),
          "cublasDgemm");
  }
  void gemv(Op a, std::size_t m, std::size_t n, double alpha, const double* A, std::size_t lda,
            const double* x, double beta, double* y) override {
    check(cublasDgemv(handles().blas, op_of(a), as_int(m, "rows"), as_int(n, "columns"), &alpha, A,
                      as_int(lda, "rows"), x, 1, &beta, y, 1),
          "cublasDgemv");
  }
  void syrk(Op a, std::size_t n, std::size_t k, double alpha, const double* A, std::size_t lda,
            double beta, double* C, std::size_t ldc) override {
    check(cublasDsyrk(handles().blas, CUBLAS_FILL_MODE_LOWER, op_of(a), as_int(n, "rows"),
                      as_int(k, "inner dimensions"), &alpha, A, as_int(lda, "rows"), &beta, C,
                      as_int(ldc, "rows")),
          "cublasDsyrk");
  }
  int potrf(double* A, std::size_t n, std::size_t lda) override {
    const Handles& h = handles();
    const int nn = as_int(n, "rows"), ld = as_int(lda, "rows");
    int lwork = 0;
    check(cusolverDnDpotrf_bufferSize(h.solver, CUBLAS_FILL_MODE_LOWER, nn, A, ld, &lwork),
          "cusolverDnDpotrf_bufferSize");
    Owned work(*this, static_cast<std::size_t>(lwork));
    Owned info(*this, 1);  // an int fits in a double's bytes
    int* info_p = reinterpret_cast<int*>(info.p);
    check(cusolverDnDpotrf(h.solver, CUBLAS_FILL_MODE_LOWER, nn, A, ld, work.p, lwork, info_p),
          "cusolverDnDpotrf");
    int result = 0;
    check(cudaMemcpy(&result, info_p, sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return result;
  }
  double potrf_workspace_bytes(std::size_t n) override {
    const int nn = as_int(n, "rows");
    int lwork = 0;
    check(cusolverDnDpotrf_bufferSize(handles().solver, CUBLAS_FILL_MODE_LOWER, nn, nullptr, nn,
                                      &lwork),
          "cusolverDnDpotrf_bufferSize");
    return 8.0 * lwork;
  }
  void potrs(const double* L, std::size_t n, std::size_t ldl, double* B, std::size_t nrhs,
             std::size_t ldb) override {
    Owned info(*this, 1);
    check(cusolverDnDpotrs(handles().solver, CUBLAS_FILL_MODE_LOWER, as_int(n, "rows"),
                           as_int(nrhs, "columns"), L, as_int(ldl, "rows"), B, as_int(ldb, "rows"),
                           reinterpret_cast<int*>(info.p)),
          "cusolverDnDpotrs");
  }
  void trsm(Op a, const double* L, std::size_t n, std::size_t ldl, double* B, std::size_t nrhs,
            std::size_t ldb) override {
    const double one = 1.0;
    check(cublasDtrsm(handles().blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, op_of(a),
                      CUBLAS_DIAG_NON_UNIT, as_int(n, "rows"), as_int(nrhs, "columns"), &one, L,
                      as_int(ldl, "rows"), B, as_int(ldb, "rows")),
          "cublasDtrsm");
  }
  void trsv(Op a, const double* L, std::size_t n, std::size_t ldl, double* x) override {
    check(cublasDtrsv(handles().blas, CUBLAS_FILL_MODE_LOWER, op_of(a), CUBLAS_DIAG_NON_UNIT,
                      as_int(n, "rows"), L, as_int(ldl, "rows"), x, 1),
          "cublasDtrsv");
  }

  void squared_norms(const double* A, std::size_t d, std::size_t n, double* norms) override {
    kexp::device::squared_norms<<<blocks_for(n), kThreads>>>(A, d, n, norms);
    launched("squared_norms");
  }
  void apply_kernel(const FormulaProgram& program, double* S, std::size_t ld, std::size_t rows,
                    std::size_t cols, const double* row_norms, const double* col_norms,
                    bool symmetric, double shift) override {
    kexp::device::apply_kernel<<<grid_for(rows, cols), kThreads>>>(
        S, ld, rows, cols, row_norms, col_norms, program, symmetric, shift);
    launched("apply_kernel");
  }
  void lower_only(double* A, std::size_t n, std::size_t lda, double shift) override {
    kexp::device::lower_only<<<grid_for(n, n), kThreads>>>(A, n, lda, shift);
    launched("lower_only");
  }
  void get_diagonal(const double* A, std::size_t n, std::size_t lda, double* diag) override {
    diagonal<<<blocks_for(n), kThreads>>>(const_cast<double*>(A), n, lda, diag, false, 0.0);
    launched("diagonal");
  }
  void set_diagonal(double* A, std::size_t n, std::size_t lda, const double* diag,
                    double shift) override {
    diagonal<<<blocks_for(n), kThreads>>>(A, n, lda, const_cast<double*>(diag), true, shift);
    launched("diagonal");
  }
  void column_squares(const double* S, std::size_t rows, std::size_t cols, std::size_t ld,
                      double* out) override {
    if (cols == 0) return;
    kexp::device::column_squares<<<static_cast<unsigned>(cols), 256>>>(S, rows, ld, out);
    launched("column_squares");
  }

 private:
  /// Device memory of a primitive's own, freed on the way out.
  struct Owned {
    Owned(CudaBackend& b, std::size_t count) : backend(b), p(b.allocate(count)) {}
    ~Owned() { backend.release(p); }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    CudaBackend& backend;
    double* p;
  };

  /// cuBLAS and cuSOLVER handles, one pair per thread that calls.
  static const Handles& handles() {
    thread_local const Handles h;
    return h;
  }
};

}  // namespace

bool probe_cuda(std::string& name, std::string& reason, double& free_bytes, double& total_bytes) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    reason = std::string("no usable CUDA device: ") + cudaGetErrorString(status);
    cudaGetLastError();  // clears the error, so that it is not reported again
    return false;
  }
  if (count == 0) {
    reason = "no CUDA device is present";
    return false;
  }
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, 0) != cudaSuccess) {
    reason =
        "CUDA device 0 does not answer: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return false;
  }
  name = props.name;
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    reason = "CUDA device 0 gives no memory figures: " +
             std::string(cudaGetErrorString(cudaGetLastError()));
    return false;
  }
  free_bytes = static_cast<double>(free_b);
  total_bytes = static_cast<double>(total_b);
  return true;
}

Backend& cuda_backend() {
  static CudaBackend backend;
  return backend;
}

}  // namespace kexp::device
