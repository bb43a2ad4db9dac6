// Kernel ridge regression, primal ridge regression's system (ΦΦᵀ + λI by DSYRK) and
// falkon's operators on an NVIDIA GPU, in float64: K blocks
// from cuBLAS (DSYRK for K(X, X), DGEMM for K(Z, X) and blocks of K_nm) and one
// elementwise kernel that evaluates the kernel's FormulaProgram on (s, r², ‖x‖², ‖z‖²); Cholesky by
// cuSOLVER (dpotrf, dpotrs), triangular solves and matrix-vector products by cuBLAS.
#include "device/cuda_ops.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "device/memory_plan.hpp"
#include "kexp/error.hpp"
#include "kexp/formula_program.hpp"
#include "kexp/integer_power.hpp"

namespace kexp::device::cuda {

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

// --- owners of device memory and library handles ---

template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count) { allocate(count); }
  ~Buffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void allocate(std::size_t count) {
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<std::size_t>(count, 1) * sizeof(T)),
          "cudaMalloc");
  }
  T* get() const { return data_; }

 private:
  T* data_ = nullptr;
};

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

/// A host ↔ device copy, its time added to `seconds`.
void copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, double& seconds) {
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");  // the work before is not a transfer
  const auto start = std::chrono::steady_clock::now();
  check(cudaMemcpy(to, from, bytes, kind), "cudaMemcpy");
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void require_memory(double needed, const std::string& what) {
  double free_bytes = 0, total_bytes = 0;
  memory(free_bytes, total_bytes);
  if (auto refusal = memory_refusal(needed, free_bytes, total_bytes, what)) throw Error(*refusal);
}

// --- the kernel's program, passed by value to the elementwise kernel ---

// A FormulaProgram (kexp/formula_program.hpp) is plain data of fixed size: it goes to the
// GPU as the elementwise kernel's argument, and evaluate_formula<double> runs it there
// with the meaning it has on the host.
using Program = FormulaProgram;

/// The program as the GPU takes it; gpu.cpp checked it on the host (check_formula_program),
/// so that a malformed program never reaches the GPU.
Program program_of(const FormulaProgram& program) { return program; }

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
                             const double* row_norms, const double* col_norms, Program p,
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
__global__ void lower_only(double* A, std::size_t n, double shift) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  for (std::size_t j = blockIdx.y; j < n; j += gridDim.y) {
    if (i < j) A[i + j * n] = 0.0;
    if (i == j) A[i + j * n] += shift;
  }
}

/// out[j] = Σᵢ S[i, j]² for S rows × cols, one block of 256 threads per column.
__global__ void column_squares(const double* S, std::size_t rows, double* out) {
  __shared__ double part[256];
  const double* column = S + static_cast<std::size_t>(blockIdx.x) * rows;
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
__global__ void diagonal(double* A, std::size_t n, double* diag, bool restore, double shift) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  if (restore) {
    A[i + i * n] = diag[i] + shift;
  } else {
    diag[i] = A[i + i * n];
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

void norms_of(const double* A, std::size_t d, std::size_t n, double* norms) {
  squared_norms<<<blocks_for(n), kThreads>>>(A, d, n, norms);
  launched("squared_norms");
}

void apply(double* S, std::size_t ld, std::size_t rows, std::size_t cols, const double* row_norms,
           const double* col_norms, const Program& p, bool symmetric, double shift) {
  apply_kernel<<<grid_for(rows, cols), kThreads>>>(S, ld, rows, cols, row_norms, col_norms, p,
                                                   symmetric, shift);
  launched("apply_kernel");
}

/// Cholesky of the lower triangle of A (n × n) in place: 0, or the order of the leading
/// minor that is not positive definite.
int cholesky(const Handles& h, double* A, std::size_t n) {
  const int nn = static_cast<int>(n);
  int lwork = 0;
  check(cusolverDnDpotrf_bufferSize(h.solver, CUBLAS_FILL_MODE_LOWER, nn, A, nn, &lwork),
        "cusolverDnDpotrf_bufferSize");
  Buffer<double> work(static_cast<std::size_t>(lwork));
  Buffer<int> info(1);
  check(
      cusolverDnDpotrf(h.solver, CUBLAS_FILL_MODE_LOWER, nn, A, nn, work.get(), lwork, info.get()),
      "cusolverDnDpotrf");
  int result = 0;
  check(cudaMemcpy(&result, info.get(), sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return result;
}

/// cuSOLVER's workspace of dpotrf for an n × n matrix, in doubles.
int cholesky_workspace(const Handles& h, std::size_t n) {
  const int nn = static_cast<int>(n);
  int lwork = 0;
  check(cusolverDnDpotrf_bufferSize(h.solver, CUBLAS_FILL_MODE_LOWER, nn, nullptr, nn, &lwork),
        "cusolverDnDpotrf_bufferSize");
  return lwork;
}

/// b ← A⁻¹b for one column b, A = LLᵀ factored by cholesky() (n × n, lower).
void cholesky_solve(const Handles& h, const double* L, std::size_t n, double* b) {
  const int nn = static_cast<int>(n);
  Buffer<int> info(1);
  check(cusolverDnDpotrs(h.solver, CUBLAS_FILL_MODE_LOWER, nn, 1, L, nn, b, nn, info.get()),
        "cusolverDnDpotrs");
}

/// K(X, X) + shift·I built in A (n × n, its lower triangle) from the points X (d × n) on the
/// GPU and their squared norms, then factored in place: 0, or the order of the leading
/// minor that is not positive definite (cholesky()).
int factor_shifted_gram(const Handles& h, const Program& p, const double* X, const double* norms,
                        std::size_t d, std::size_t n, double shift, double* A) {
  const double one = 1.0, zero = 0.0;
  const int nn = static_cast<int>(n);
  check(cublasDsyrk(h.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, nn, static_cast<int>(d), &one, X,
                    static_cast<int>(d), &zero, A, nn),
        "cublasDsyrk");
  apply(A, n, n, n, norms, norms, p, /*symmetric=*/true, shift);
  return cholesky(h, A, n);
}

void require_int(std::size_t value, const char* what) {
  if (value > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error(std::string("the GPU path takes at most 2³¹ − 1 ") + what + ", got " +
                std::to_string(value));
  }
}

/// Points in device memory, d × count, with their squared norms.
struct DevicePoints {
  const double* X;
  const double* norms;
  std::size_t count;
};

/// out = K(Z, X) v over blocks of `block` rows of K(Z, X): each block's inner products by
/// DGEMM into S (block × n), the kernel applied in place, then one DGEMV.
void streamed_product(const Handles& h, const Program& p, const DevicePoints& Z,
                      const DevicePoints& X, std::size_t d, const double* v, double* out, double* S,
                      std::size_t block) {
  const double one = 1.0, zero = 0.0;
  const std::size_t n = X.count;
  for (std::size_t j0 = 0; j0 < Z.count; j0 += block) {
    const std::size_t rows = std::min(block, Z.count - j0);
    const int r = static_cast<int>(rows);
    check(
        cublasDgemm(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, r, static_cast<int>(n), static_cast<int>(d),
                    &one, Z.X + j0 * d, static_cast<int>(d), X.X, static_cast<int>(d), &zero, S, r),
        "cublasDgemm");
    apply(S, rows, rows, n, Z.norms + j0, X.norms, p, false, 0.0);
    check(cublasDgemv(h.blas, CUBLAS_OP_N, r, static_cast<int>(n), &one, S, r, v, 1, &zero,
                      out + j0, 1),
          "cublasDgemv");
  }
}

}  // namespace

bool probe(std::string& name, std::string& reason, double& free_bytes, double& total_bytes) {
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

void memory(double& free_bytes, double& total_bytes) {
  size_t free_b = 0, total_b = 0;
  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  free_bytes = static_cast<double>(free_b);
  total_bytes = static_cast<double>(total_b);
}

namespace {

/// The points `host` (d × n) copied into X on the GPU, and their squared norms.
void upload_points(Buffer<double>& X, Buffer<double>& norms, const double* host, std::size_t d,
                   std::size_t n, double& transfer_seconds) {
  X.allocate(d * n);
  norms.allocate(n);
  copy(X.get(), host, 8 * d * n, cudaMemcpyHostToDevice, transfer_seconds);
  norms_of(X.get(), d, n, norms.get());
}

/// Rows of a streamed block of `count` rows of `width` entries: what 80% of the free
/// memory holds (product_block_columns); refused, with the figures, when not even 256 fit.
std::size_t streamed_block(std::size_t count, std::size_t width, const char* what) {
  double free_bytes = 0, total_bytes = 0;
  memory(free_bytes, total_bytes);
  const std::size_t block = product_block_columns(count, width, free_bytes, 0.8);
  if (block == 0) {
    throw Error(
        *memory_refusal(8.0 * 256 * static_cast<double>(width + 2), free_bytes, total_bytes, what));
  }
  return block;
}

}  // namespace

void ridge_solve(const FormulaProgram& program, const double* X, std::size_t d, std::size_t n,
                 const double* y, double lambda, double* beta, double& transfer_seconds) {
  require_int(n, "training points");
  const Program p = program_of(program);
  const Handles h;
  require_memory(ridge_bytes(n, d, 8.0 * cholesky_workspace(h, n)),
                 "K(X, X) of " + std::to_string(n) + " × " + std::to_string(n) +
                     " in float64, X and cuSOLVER's workspace");
  Buffer<double> dX, norms, dK(n * n), dy(n);
  upload_points(dX, norms, X, d, n, transfer_seconds);
  copy(dy.get(), y, 8 * n, cudaMemcpyHostToDevice, transfer_seconds);
  const int info = factor_shifted_gram(h, p, dX.get(), norms.get(), d, n, lambda, dK.get());
  if (info != 0) {
    throw NumericError("K + λI is not positive definite (leading minor " + std::to_string(info) +
                       " of " + std::to_string(n) + ", λ = " + std::to_string(lambda) +
                       ", on the GPU): use a larger lambda, or a valid (PSD) kernel");
  }
  cholesky_solve(h, dK.get(), n, dy.get());
  copy(beta, dy.get(), 8 * n, cudaMemcpyDeviceToHost, transfer_seconds);
}

void primal_solve(const double* Phi, std::size_t D, std::size_t n, const double* y, double lambda,
                  double* theta, double& transfer_seconds) {
  require_int(D, "features");
  require_int(n, "training points");
  const Handles h;
  const int dd = static_cast<int>(D), nn = static_cast<int>(n);
  require_memory(primal_bytes(D, n, 8.0 * cholesky_workspace(h, D)),
                 "Φ of " + std::to_string(D) + " × " + std::to_string(n) + ", ΦΦᵀ + λI of " +
                     std::to_string(D) + " × " + std::to_string(D) +
                     " in float64 and cuSOLVER's workspace");
  Buffer<double> dPhi(D * n), dA(D * D), dy(n), db(D);
  copy(dPhi.get(), Phi, 8 * D * n, cudaMemcpyHostToDevice, transfer_seconds);
  copy(dy.get(), y, 8 * n, cudaMemcpyHostToDevice, transfer_seconds);
  const double one = 1.0, zero = 0.0;
  check(cublasDsyrk(h.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, dd, nn, &one, dPhi.get(), dd,
                    &zero, dA.get(), dd),
        "cublasDsyrk");
  lower_only<<<grid_for(D, D), kThreads>>>(dA.get(), D, lambda);
  launched("lower_only");
  check(cublasDgemv(h.blas, CUBLAS_OP_N, dd, nn, &one, dPhi.get(), dd, dy.get(), 1, &zero, db.get(),
                    1),
        "cublasDgemv");
  const int info = cholesky(h, dA.get(), D);
  if (info != 0) {
    throw NumericError("ΦΦᵀ + λI is not positive definite (leading minor " + std::to_string(info) +
                       " of " + std::to_string(D) + ", λ = " + std::to_string(lambda) +
                       ", on the GPU): use a larger lambda (with λ = 0 the system is singular "
                       "whenever D > n)");
  }
  cholesky_solve(h, dA.get(), D, db.get());
  copy(theta, db.get(), 8 * D, cudaMemcpyDeviceToHost, transfer_seconds);
}

void kernel_product(const FormulaProgram& program, const double* X, std::size_t n, const double* Z,
                    std::size_t m, std::size_t d, const double* v, double* out,
                    double& transfer_seconds) {
  require_int(n, "training points");
  require_int(m, "points to predict at");
  const Program p = program_of(program);
  const Handles h;
  const double fixed = 8.0 * (static_cast<double>(d + 2) * static_cast<double>(n + m));
  require_memory(fixed + 8.0 * static_cast<double>(n + 2),
                 "the points, the coefficients and one row of K(X*, X)");
  Buffer<double> dX, dZ, xx, zz, dv(n), dout(m);
  upload_points(dX, xx, X, d, n, transfer_seconds);
  upload_points(dZ, zz, Z, d, m, transfer_seconds);
  copy(dv.get(), v, 8 * n, cudaMemcpyHostToDevice, transfer_seconds);
  const std::size_t b = streamed_block(m, n, "a block of 256 rows of K(X*, X)");
  Buffer<double> S(b * n);
  streamed_product(h, p, {dZ.get(), zz.get(), m}, {dX.get(), xx.get(), n}, d, dv.get(), dout.get(),
                   S.get(), b);
  copy(out, dout.get(), 8 * m, cudaMemcpyDeviceToHost, transfer_seconds);
}

struct Gram::Impl {
  Program program{};
  std::size_t n = 0, d = 0, block = 0;
  Handles h;
  Buffer<double> X, xx, v, out, S;
};

Gram::Gram(const FormulaProgram& program, const double* X, std::size_t n, std::size_t d,
           double& transfer_seconds)
    : impl_(nullptr), transfer_seconds_(&transfer_seconds) {
  require_int(n, "training points");
  require_memory(product_least_bytes(n, n, d),
                 "X, three n-vectors and a block of 256 rows of K(X, X)");
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  s.program = program_of(program);
  s.n = n;
  s.d = d;
  s.v.allocate(n);
  s.out.allocate(n);
  upload_points(s.X, s.xx, X, d, n, transfer_seconds);
  s.block = streamed_block(n, n, "a block of 256 rows of K(X, X)");
  s.S.allocate(s.block * n);
  impl_ = impl.release();
}

Gram::~Gram() { delete impl_; }

void Gram::product(const double* v, double* out) {
  Impl& s = *impl_;
  copy(s.v.get(), v, 8 * s.n, cudaMemcpyHostToDevice, *transfer_seconds_);
  streamed_product(s.h, s.program, {s.X.get(), s.xx.get(), s.n}, {s.X.get(), s.xx.get(), s.n}, s.d,
                   s.v.get(), s.out.get(), s.S.get(), s.block);
  copy(out, s.out.get(), 8 * s.n, cudaMemcpyDeviceToHost, *transfer_seconds_);
}

struct Nystrom::Impl {
  Program program{};
  std::size_t n = 0, m = 0, d = 0, block = 0;
  Handles h;
  Buffer<double> X, xx, C, cc, Kmm, Lt, La, diag, u, v, out, S;
};

Nystrom::Nystrom(const FormulaProgram& program, const double* X, std::size_t n, const double* C,
                 std::size_t m, std::size_t d, double& transfer_seconds)
    : impl_(nullptr), transfer_seconds_(&transfer_seconds) {
  require_int(n, "training points");
  require_int(m, "centres");
  require_memory(nystrom_least_bytes(n, m, d),
                 "X, the centres, K_mm and two m × m factors, and a block of 256 rows of K_nm");
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  s.program = program_of(program);
  s.n = n;
  s.m = m;
  s.d = d;
  s.Kmm.allocate(m * m);
  s.Lt.allocate(m * m);
  s.La.allocate(m * m);
  s.diag.allocate(m);
  s.u.allocate(m);
  s.v.allocate(n);
  s.out.allocate(m);
  upload_points(s.X, s.xx, X, d, n, transfer_seconds);
  upload_points(s.C, s.cc, C, d, m, transfer_seconds);
  s.block = streamed_block(n, m, "a block of 256 rows of K_nm");
  s.S.allocate(s.block * m);
  impl_ = impl.release();
}

Nystrom::~Nystrom() { delete impl_; }

std::size_t Nystrom::block_rows() const { return impl_->block; }

double Nystrom::factor(double lambda) {
  Impl& s = *impl_;
  const std::size_t m = s.m;
  const int mm = static_cast<int>(m);
  const double one = 1.0, zero = 0.0, inverse_m = 1.0 / static_cast<double>(m);
  // K_mm, its lower triangle, and its diagonal kept for the retries
  check(cublasDsyrk(s.h.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, mm, static_cast<int>(s.d), &one,
                    s.C.get(), static_cast<int>(s.d), &zero, s.Kmm.get(), mm),
        "cublasDsyrk");
  apply(s.Kmm.get(), m, m, m, s.cc.get(), s.cc.get(), s.program, true, 0.0);
  diagonal<<<blocks_for(m), kThreads>>>(s.Kmm.get(), m, s.diag.get(), false, 0.0);
  launched("diagonal");
  double jitter = std::numeric_limits<double>::epsilon();
  for (;;) {
    check(cudaMemcpy(s.Lt.get(), s.Kmm.get(), 8 * m * m, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    diagonal<<<blocks_for(m), kThreads>>>(s.Lt.get(), m, s.diag.get(), true,
                                          jitter * static_cast<double>(m));
    launched("diagonal");
    if (cholesky(s.h, s.Lt.get(), m) == 0) break;
    jitter *= 10;
    if (jitter > 1e-2) {
      throw NumericError(
          "falkon: K_mm + εmI has no Cholesky factor even with ε = 1e-2; is the kernel PSD?");
    }
  }
  lower_only<<<grid_for(m, m), kThreads>>>(s.Lt.get(), m, 0.0);
  launched("lower_only");
  // La = chol(LtᵀLt/m + λI)
  check(cublasDsyrk(s.h.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, mm, mm, &inverse_m, s.Lt.get(),
                    mm, &zero, s.La.get(), mm),
        "cublasDsyrk");
  lower_only<<<grid_for(m, m), kThreads>>>(s.La.get(), m, lambda);
  launched("lower_only");
  if (cholesky(s.h, s.La.get(), m) != 0) {
    throw NumericError("falkon: TTᵀ/m + λI has no Cholesky factor; raise λ");
  }
  return jitter;
}

void Nystrom::solve(bool of_t, double* v, bool transpose) {
  Impl& s = *impl_;
  copy(s.u.get(), v, 8 * s.m, cudaMemcpyHostToDevice, *transfer_seconds_);
  check(cublasDtrsv(s.h.blas, CUBLAS_FILL_MODE_LOWER, transpose ? CUBLAS_OP_T : CUBLAS_OP_N,
                    CUBLAS_DIAG_NON_UNIT, static_cast<int>(s.m), of_t ? s.Lt.get() : s.La.get(),
                    static_cast<int>(s.m), s.u.get(), 1),
        "cublasDtrsv");
  copy(v, s.u.get(), 8 * s.m, cudaMemcpyDeviceToHost, *transfer_seconds_);
}

void Nystrom::normal_product(const double* u, const double* v, bool v_zero, double* out) {
  Impl& s = *impl_;
  const int mm = static_cast<int>(s.m), d = static_cast<int>(s.d);
  copy(s.u.get(), u, 8 * s.m, cudaMemcpyHostToDevice, *transfer_seconds_);
  if (v_zero) {
    check(cudaMemset(s.v.get(), 0, 8 * s.n), "cudaMemset");
  } else {
    copy(s.v.get(), v, 8 * s.n, cudaMemcpyHostToDevice, *transfer_seconds_);
  }
  const double one = 1.0, zero = 0.0;
  for (std::size_t r0 = 0; r0 < s.n; r0 += s.block) {
    const std::size_t rows = std::min(s.block, s.n - r0);
    const int r = static_cast<int>(rows);
    // the block of K_nm: rows r0 … r0 + rows of K(X, C)
    check(cublasDgemm(s.h.blas, CUBLAS_OP_T, CUBLAS_OP_N, r, mm, d, &one, s.X.get() + r0 * s.d, d,
                      s.C.get(), d, &zero, s.S.get(), r),
          "cublasDgemm");
    apply(s.S.get(), rows, rows, s.m, s.xx.get() + r0, s.cc.get(), s.program, false, 0.0);
    // w = K_b u + v_b in place of v_b, then out += K_bᵀ w
    check(cublasDgemv(s.h.blas, CUBLAS_OP_N, r, mm, &one, s.S.get(), r, s.u.get(), 1, &one,
                      s.v.get() + r0, 1),
          "cublasDgemv");
    const double keep = r0 == 0 ? zero : one;
    check(cublasDgemv(s.h.blas, CUBLAS_OP_T, r, mm, &one, s.S.get(), r, s.v.get() + r0, 1, &keep,
                      s.out.get(), 1),
          "cublasDgemv");
  }
  copy(out, s.out.get(), 8 * s.m, cudaMemcpyDeviceToHost, *transfer_seconds_);
}

struct GaussianProcess::Impl {
  Program program{};
  std::size_t n = 0, d = 0;
  Handles h;
  Buffer<double> X, xx, L, alpha;
};

GaussianProcess::GaussianProcess(const FormulaProgram& program, const double* X, std::size_t n,
                                 std::size_t d, const double* t, double noise, double* alpha,
                                 double& log_det, double& transfer_seconds)
    : impl_(nullptr), transfer_seconds_(&transfer_seconds) {
  require_int(n, "training points");
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  s.program = program_of(program);
  s.n = n;
  s.d = d;
  require_memory(ridge_bytes(n, d, 8.0 * cholesky_workspace(s.h, n)),
                 "C = K + noise·I of " + std::to_string(n) + " × " + std::to_string(n) +
                     " in float64, X and cuSOLVER's workspace");
  upload_points(s.X, s.xx, X, d, n, transfer_seconds);
  s.L.allocate(n * n);
  s.alpha.allocate(n);
  copy(s.alpha.get(), t, 8 * n, cudaMemcpyHostToDevice, transfer_seconds);
  const int info =
      factor_shifted_gram(s.h, s.program, s.X.get(), s.xx.get(), d, n, noise, s.L.get());
  if (info != 0) {
    throw NumericError("C = K + noise·I is not positive definite (leading minor " +
                       std::to_string(info) + " of " + std::to_string(n) +
                       ", on the GPU): use a larger noise, or a valid (PSD) kernel");
  }
  cholesky_solve(s.h, s.L.get(), n, s.alpha.get());
  copy(alpha, s.alpha.get(), 8 * n, cudaMemcpyDeviceToHost, transfer_seconds);
  // log det C = 2 Σ log Lᵢᵢ, from the diagonal brought back
  Buffer<double> diag(n);
  diagonal<<<blocks_for(n), kThreads>>>(s.L.get(), n, diag.get(), false, 0.0);
  launched("diagonal");
  std::vector<double> host(n);
  copy(host.data(), diag.get(), 8 * n, cudaMemcpyDeviceToHost, transfer_seconds);
  log_det = 0.0;
  for (const double v : host) log_det += 2.0 * std::log(v);
  impl_ = impl.release();
}

GaussianProcess::~GaussianProcess() { delete impl_; }

void GaussianProcess::predict(const double* Z, std::size_t m, double* mean, double* explained) {
  Impl& s = *impl_;
  require_int(m, "points to predict at");
  const std::size_t n = s.n, d = s.d;
  require_memory(8.0 * static_cast<double>((d + 3) * m + std::min<std::size_t>(m, 256) * (n + 2)),
                 "the points to predict at and a block of 256 columns of K(X, X*)");
  Buffer<double> dZ, zz, dmean(m), dexplained(m);
  upload_points(dZ, zz, Z, d, m, *transfer_seconds_);
  const std::size_t b = streamed_block(m, n, "a block of 256 columns of K(X, X*)");
  Buffer<double> S(n * b);
  const double one = 1.0, zero = 0.0;
  const int nn = static_cast<int>(n);
  for (std::size_t j0 = 0; j0 < m; j0 += b) {
    const std::size_t cols = std::min(b, m - j0);
    const int c = static_cast<int>(cols);
    // S = K(X, Z_b), n × cols
    check(cublasDgemm(s.h.blas, CUBLAS_OP_T, CUBLAS_OP_N, nn, c, static_cast<int>(d), &one,
                      s.X.get(), static_cast<int>(d), dZ.get() + j0 * d, static_cast<int>(d), &zero,
                      S.get(), nn),
          "cublasDgemm");
    apply(S.get(), n, n, cols, s.xx.get(), zz.get() + j0, s.program, false, 0.0);
    check(cublasDgemv(s.h.blas, CUBLAS_OP_T, nn, c, &one, S.get(), nn, s.alpha.get(), 1, &zero,
                      dmean.get() + j0, 1),
          "cublasDgemv");
    if (explained != nullptr) {
      // ‖L⁻¹k‖² of each column
      check(cublasDtrsm(s.h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                        CUBLAS_DIAG_NON_UNIT, nn, c, &one, s.L.get(), nn, S.get(), nn),
            "cublasDtrsm");
      column_squares<<<static_cast<unsigned>(cols), 256>>>(S.get(), n, dexplained.get() + j0);
      launched("column_squares");
    }
  }
  copy(mean, dmean.get(), 8 * m, cudaMemcpyDeviceToHost, *transfer_seconds_);
  if (explained != nullptr) {
    copy(explained, dexplained.get(), 8 * m, cudaMemcpyDeviceToHost, *transfer_seconds_);
  }
}

}  // namespace kexp::device::cuda
