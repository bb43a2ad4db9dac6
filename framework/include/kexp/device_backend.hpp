// kexp/device_backend.hpp: the primitives of one kind of device (kexp::device::Backend),
// on which kexp/device.hpp's building blocks are written once. Two backends implement it:
// cuda (cuBLAS, cuSOLVER and one elementwise CUDA kernel, framework/src/device/
// cuda_backend.cu) and host (OpenBLAS and the SDK's formula engine on the CPU, with a
// memory limit of its own). A header without Armadillo, so that nvcc compiles the CUDA backend
// against it. docs/design.md, "Devices", says how a third backend is added.
#pragma once

#include <cstddef>
#include <string>

#include "kexp/formula_program.hpp"

#if defined(_WIN32)
#define KEXP_DEVICE_API
#else
#define KEXP_DEVICE_API __attribute__((visibility("default")))
#endif

namespace kexp::device {

/// Whether a matrix operand is used as it is or transposed.
enum class Op { none, transpose };

/// Free and total bytes of a backend's device memory.
struct Memory {
  double free_bytes = 0, total_bytes = 0;
};

/// The primitives of one kind of device. Counts and leading dimensions are in doubles;
/// every pointer to a matrix is device memory from allocate(). One backend of each kind
/// serves the whole process (backend()); its primitives may be called from any thread
/// that has its own buffers.
class KEXP_DEVICE_API Backend {
 public:
  virtual ~Backend();

  /// "cuda" or "host": the value of the solvers' `device` parameter that selects it.
  [[nodiscard]] virtual const char* name() const = 0;
  /// What the refusals call its memory: "GPU memory", "host device memory".
  [[nodiscard]] virtual std::string memory_name() const = 0;
  /// Why this backend cannot run here (no GPU, a build without CUDA); empty when it can.
  [[nodiscard]] virtual std::string unavailable() const = 0;
  [[nodiscard]] virtual Memory memory() const = 0;

  /// `count` doubles of device memory (at least one); throws kexp::Error when it is not there.
  [[nodiscard]] virtual double* allocate(std::size_t count) = 0;
  virtual void release(double* p) noexcept = 0;
  /// Untimed copies: host → device, device → host, device → device.
  virtual void copy_to_device(double* to, const double* from, std::size_t count) = 0;
  virtual void copy_to_host(double* to, const double* from, std::size_t count) = 0;
  virtual void copy_on_device(double* to, const double* from, std::size_t count) = 0;
  virtual void set_zero(double* p, std::size_t count) = 0;
  /// Waits for the work queued before (what a timed copy must not count).
  virtual void synchronize() = 0;

  /// C ← α op(A) op(B) + βC, C m × n, op(A) m × k.
  virtual void gemm(Op a, Op b, std::size_t m, std::size_t n, std::size_t k, double alpha,
                    const double* A, std::size_t lda, const double* B, std::size_t ldb, double beta,
                    double* C, std::size_t ldc) = 0;
  /// y ← α op(A) x + βy, A m × n.
  virtual void gemv(Op a, std::size_t m, std::size_t n, double alpha, const double* A,
                    std::size_t lda, const double* x, double beta, double* y) = 0;
  /// The lower triangle of C ← α op(A) op(A)ᵀ + βC, C n × n, op(A) n × k (A is k × n when
  /// transposed). The strict upper triangle of C is not written.
  virtual void syrk(Op a, std::size_t n, std::size_t k, double alpha, const double* A,
                    std::size_t lda, double beta, double* C, std::size_t ldc) = 0;
  /// Cholesky A = LLᵀ of the lower triangle of A (n × n) in place: 0, or the order of the
  /// leading minor that is not positive definite.
  [[nodiscard]] virtual int potrf(double* A, std::size_t n, std::size_t lda) = 0;
  /// Bytes of workspace potrf takes for an n × n matrix, besides the matrix.
  [[nodiscard]] virtual double potrf_workspace_bytes(std::size_t n) = 0;
  /// B ← A⁻¹B for A = LLᵀ factored by potrf, B n × nrhs.
  virtual void potrs(const double* L, std::size_t n, std::size_t ldl, double* B, std::size_t nrhs,
                     std::size_t ldb) = 0;
  /// B ← op(L)⁻¹B, L lower triangular n × n (non-unit diagonal), B n × nrhs.
  virtual void trsm(Op a, const double* L, std::size_t n, std::size_t ldl, double* B,
                    std::size_t nrhs, std::size_t ldb) = 0;
  /// x ← op(L)⁻¹x, L lower triangular n × n.
  virtual void trsv(Op a, const double* L, std::size_t n, std::size_t ldl, double* x) = 0;

  /// norms[j] = ‖column j of A‖², A d × n with leading dimension d.
  virtual void squared_norms(const double* A, std::size_t d, std::size_t n, double* norms) = 0;
  /// S (rows × cols, leading dimension ld) holds inner products s = aᵢᵀbⱼ; each is replaced
  /// by k(aᵢ, bⱼ), the program evaluated on (s, r², ‖aᵢ‖², ‖bⱼ‖²) with r² = ‖aᵢ‖² + ‖bⱼ‖² − 2s
  /// clamped at 0. `symmetric`: S is K(X, X), rows = cols; only its lower triangle is
  /// written, r² = 0 on the diagonal and `shift` is added there. The program must be well
  /// formed (kexp::check_formula_program); the building blocks check it.
  virtual void apply_kernel(const FormulaProgram& program, double* S, std::size_t ld,
                            std::size_t rows, std::size_t cols, const double* row_norms,
                            const double* col_norms, bool symmetric, double shift) = 0;
  /// The strict upper triangle of A (n × n) set to 0 and `shift` added to its diagonal.
  virtual void lower_only(double* A, std::size_t n, std::size_t lda, double shift) = 0;
  /// diag[i] = A[i, i], A n × n.
  virtual void get_diagonal(const double* A, std::size_t n, std::size_t lda, double* diag) = 0;
  /// A[i, i] = diag[i] + shift.
  virtual void set_diagonal(double* A, std::size_t n, std::size_t lda, const double* diag,
                            double shift) = 0;
  /// out[j] = Σᵢ S[i, j]², S rows × cols with leading dimension ld.
  virtual void column_squares(const double* S, std::size_t rows, std::size_t cols, std::size_t ld,
                              double* out) = 0;
};

}  // namespace kexp::device
