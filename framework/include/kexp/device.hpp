// kexp/device.hpp: the building blocks of a solver's device code path, over a Backend of
// primitives on device memory. A solver that runs `device: cuda` (an NVIDIA GPU) or
// `device: host` (the same code path on the CPU, for testing it without a GPU) writes its
// algorithm once on these blocks; the backend it is given supplies the primitives.
//
//   - Backend: device memory (allocate, release, copies), BLAS (gemm, gemv, syrk), LAPACK
//     (potrf, potrs, trsm, trsv), the squared norms of columns, the kernel's program
//     applied to a block of inner products, and lower-triangle and diagonal helpers. Two
//     backends: cuda (cuBLAS, cuSOLVER and one elementwise CUDA kernel) and host
//     (OpenBLAS through Armadillo, the kernel's program by the SDK's formula engine,
//     kexp::gram::formula_block, and a memory limit of its own, KEXP_HOST_DEVICE_MEMORY
//     bytes, 4 GiB unless set).
//   - Buffer: device memory owned, freed by its destructor.
//   - upload and download: copies between host and device, timed into Transfers.
//   - Points: points resident on the device with their squared norms.
//   - gram_block: a block K(A_rows, B_cols) from a kernel's FormulaProgram.
//   - StreamedGram: K(A, B)·v and K(A, B)ᵀ(K(A, B)u + v) streamed over blocks of A's rows
//     sized to a share of the free memory, K never stored whole.
//   - Cholesky: K(X, X) + shift·I, or any symmetric matrix, factored (potrf), solved
//     (potrs), triangular solves (trsm, trsv) and its log determinant.
//   - require_memory, memory_refusal and the byte counts of the built-in solvers: device
//     memory accounting, and the refusal, with the figures, of what does not fit.
//
// Matrices are column-major, float64, and a matrix in device memory is a pointer the
// backend gave (Buffer::data()), with a leading dimension. Every failure, a library's
// error or memory that is not there, throws kexp::Error with the figures; a matrix that
// is not positive definite is potrf's return value, for the caller to word. A solver
// that includes this header links kexp::device (kexp_add_plugin does).
#pragma once

#include <armadillo>
#include <cstddef>
#include <optional>
#include <string>

#include "kexp/device_backend.hpp"
#include "kexp/formula_program.hpp"

namespace kexp::device {

/// The backend a solver's `device` parameter names: "cuda" or "host". Throws
/// kexp::InvalidArgument for another name, and kexp::Error, saying why, for a backend
/// that cannot run here (Backend::unavailable()).
[[nodiscard]] KEXP_DEVICE_API Backend& backend(const std::string& name);

/// Whether `device` (a solver's `device` parameter) selects a backend of this header:
/// "cuda" or "host".
[[nodiscard]] KEXP_DEVICE_API bool is_device_path(const std::string& device);

/// What the process sees of GPU 0.
struct GpuInfo {
  bool present = false;
  std::string name;    ///< "NVIDIA H100 80GB HBM3"
  std::string reason;  ///< why there is none: no CUDA in this build, or the driver's message
  double free_bytes = 0, total_bytes = 0;
};

/// Whether this build has the CUDA backend's code (KEXP_CUDA found the toolkit).
[[nodiscard]] KEXP_DEVICE_API bool built_with_cuda();

/// GPU 0, probed once per process. Never throws.
[[nodiscard]] KEXP_DEVICE_API const GpuInfo& gpu_info();

/// The host backend's memory limit in bytes: KEXP_HOST_DEVICE_MEMORY read at each call (a
/// positive whole number of bytes), 4 GiB when it is not set. Throws kexp::InvalidArgument,
/// naming the variable, for a value that is not.
[[nodiscard]] KEXP_DEVICE_API double host_memory_limit();

// --- memory that is freed ---

/// `count` doubles of a backend's memory, released by the destructor. Move-only.
class KEXP_DEVICE_API Buffer {
 public:
  Buffer() = default;
  Buffer(Backend& backend, std::size_t count);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  [[nodiscard]] double* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return count_; }

 private:
  Backend* backend_ = nullptr;
  double* data_ = nullptr;
  std::size_t count_ = 0;
};

// --- timed copies ---

/// Seconds spent copying between host and device, added up by each copy.
struct Transfers {
  double seconds = 0;
};

/// `count` doubles from the host into device memory `to`, timed.
KEXP_DEVICE_API void upload(Backend& backend, double* to, const double* from, std::size_t count,
                            Transfers& transfers);
/// `count` doubles from device memory `from` to the host, timed.
KEXP_DEVICE_API void download(Backend& backend, double* to, const double* from, std::size_t count,
                              Transfers& transfers);
/// A new buffer holding the entries of `host`.
[[nodiscard]] KEXP_DEVICE_API Buffer upload(Backend& backend, const arma::mat& host,
                                            Transfers& transfers);
/// The first `count` entries of `from` as a host vector.
[[nodiscard]] KEXP_DEVICE_API arma::vec download(Backend& backend, const Buffer& from,
                                                 std::size_t count, Transfers& transfers);

// --- memory accounting ---

/// The refusal of a cell that needs `needed` bytes of device memory when `free_bytes` of
/// `total_bytes` are free, naming what the memory is (`memory_name`) and what it holds
/// (`what`), the sizes by size_text; nothing when it fits.
[[nodiscard]] KEXP_DEVICE_API std::optional<std::string> memory_refusal(
    double needed, double free_bytes, double total_bytes, const std::string& what,
    const std::string& memory_name = "GPU memory");

/// Throws kexp::Error with memory_refusal's words when `needed` bytes are not free.
KEXP_DEVICE_API void require_memory(Backend& backend, double needed, const std::string& what);

/// "12.50 GiB"
[[nodiscard]] KEXP_DEVICE_API std::string gib_text(double bytes);
/// gib_text from 1 GiB up, "3.25 MiB" below: the sizes of memory_refusal.
[[nodiscard]] KEXP_DEVICE_API std::string size_text(double bytes);

/// Rows of a streamed block: as many as the fraction `share` of `free_bytes` holds at
/// 8·(width + 2) bytes a row (the block and two vectors), at most `rows`, rounded down to
/// a multiple of 256 when above it. 0 when not even min(rows, 256) rows fit.
[[nodiscard]] KEXP_DEVICE_API std::size_t block_rows_that_fit(std::size_t rows, std::size_t width,
                                                              double free_bytes, double share);

/// Bytes kernel ridge regression holds for n points in d dimensions: K (n × n), X, y and
/// β, besides potrf's workspace (`workspace_bytes`).
[[nodiscard]] KEXP_DEVICE_API double ridge_bytes(std::size_t n, std::size_t d,
                                                 double workspace_bytes);
/// Bytes primal ridge regression holds for D features of n points: Φ (D × n), ΦΦᵀ + λI
/// (D × D), y and Φy, besides potrf's workspace.
[[nodiscard]] KEXP_DEVICE_API double primal_bytes(std::size_t D, std::size_t n,
                                                  double workspace_bytes);
/// Bytes falkon holds whatever the block: X (d × n), its squared norms and two n-vectors,
/// the centres, K_mm and the two m × m factors, and m-vectors.
[[nodiscard]] KEXP_DEVICE_API double nystrom_fixed_bytes(std::size_t n, std::size_t m,
                                                         std::size_t d);
/// nystrom_fixed_bytes with a block of K_nm at its smallest, min(n, 256) rows.
[[nodiscard]] KEXP_DEVICE_API double nystrom_least_bytes(std::size_t n, std::size_t m,
                                                         std::size_t d);
/// Bytes a streamed K(X*, X)v holds for n training points and m points to predict at, in
/// d dimensions, with a block of min(m, 256) rows: the points, their squared norms, the
/// coefficients and the predictions, and the block.
[[nodiscard]] KEXP_DEVICE_API double product_least_bytes(std::size_t n, std::size_t m,
                                                         std::size_t d);
/// Bytes Gaussian process regression holds at its peak predicting at m points from n in d
/// dimensions: C's factor, the points with their norms and α, the m points with their
/// norms, means and variances, and a block of K(X, X*) of min(m, 256) columns; or, when
/// larger, what the fit holds (ridge_bytes).
[[nodiscard]] KEXP_DEVICE_API double gp_least_bytes(std::size_t n, std::size_t m, std::size_t d);
/// Rows of K_nm in one block (block_rows_that_fit with width m).
[[nodiscard]] KEXP_DEVICE_API std::size_t nystrom_block_rows(std::size_t n, std::size_t m,
                                                             double free_bytes, double share);
/// Columns of Z in one block of K(Z, X)v (block_rows_that_fit with width n).
[[nodiscard]] KEXP_DEVICE_API std::size_t product_block_columns(std::size_t columns, std::size_t n,
                                                                double free_bytes, double share);

// --- the building blocks ---

/// Points resident on the device: X (d × n) and their squared norms.
class KEXP_DEVICE_API Points {
 public:
  Points(Backend& backend, const arma::mat& X, Transfers& transfers);

  [[nodiscard]] std::size_t dimension() const { return d_; }
  [[nodiscard]] std::size_t count() const { return n_; }
  [[nodiscard]] const double* data() const { return X_.data(); }
  [[nodiscard]] const double* norms() const { return norms_.data(); }
  /// Device bytes held: 8(d + 1)n.
  [[nodiscard]] static double bytes(std::size_t n, std::size_t d);

 private:
  std::size_t d_, n_;
  Buffer X_, norms_;
};

/// S ← K(A rows a0 … a0 + rows, B columns b0 … b0 + cols), rows × cols with leading
/// dimension ld: one gemm of inner products, then the program applied in place.
KEXP_DEVICE_API void gram_block(Backend& backend, const FormulaProgram& program, const Points& A,
                                std::size_t a0, std::size_t rows, const Points& B, std::size_t b0,
                                std::size_t cols, double* S, std::size_t ld);

/// The lower triangle of K(X, X) + shift·I into A (n × n): one syrk, then the program.
KEXP_DEVICE_API void shifted_gram(Backend& backend, const FormulaProgram& program, const Points& X,
                                  double shift, double* A);

/// K(A, B) as an operator that is never stored: each product streams blocks of A's rows,
/// each computed again from the points. The block is sized when it is made, from the
/// fraction 0.8 of the free memory (block_rows_that_fit); a backend without room for
/// min(rows, 256) rows refuses, with the figures, naming `what`.
class KEXP_DEVICE_API StreamedGram {
 public:
  StreamedGram(Backend& backend, const FormulaProgram& program, const Points& A, const Points& B,
               const std::string& what);

  /// out = K(A, B) v: v of |B| entries, out of |A|, both device memory.
  void product(const double* v, double* out);
  /// out = K(A, B)ᵀ (K(A, B) u + v): u and out of |B| entries, v of |A|, overwritten by
  /// K(A, B) u + v.
  void normal_product(const double* u, double* v, double* out);
  /// Rows of K(A, B) in one block.
  [[nodiscard]] std::size_t block_rows() const { return block_; }

 private:
  Backend* backend_;
  FormulaProgram program_;
  const Points* A_;
  const Points* B_;
  std::size_t block_;
  Buffer S_;
};

/// K(Z, X) v for the points X resident and the host's Z and v, streamed over blocks of
/// Z: the predictions f(Z) = Σᵢ vᵢ k(·, xᵢ). Refuses, with the figures, when not even a
/// block of min(|Z|, 256) rows fits beside the points.
[[nodiscard]] KEXP_DEVICE_API arma::vec predict(Backend& backend, const FormulaProgram& program,
                                                const Points& X, const arma::mat& Z,
                                                const arma::vec& v, Transfers& transfers);

/// A symmetric positive definite n × n matrix in device memory and its lower Cholesky
/// factor, in place.
class KEXP_DEVICE_API Cholesky {
 public:
  /// n × n of device memory for the matrix, not yet factored.
  Cholesky(Backend& backend, std::size_t n);

  /// The matrix, to fill (its lower triangle) before factor().
  [[nodiscard]] double* matrix() { return A_.data(); }
  [[nodiscard]] const double* matrix() const { return A_.data(); }
  [[nodiscard]] std::size_t size() const { return n_; }

  /// potrf in place: 0, or the order of the leading minor that is not positive definite.
  [[nodiscard]] int factor();
  /// B ← A⁻¹B, B n × nrhs in device memory.
  void solve(double* B, std::size_t nrhs = 1);
  /// B ← L⁻¹B, or L⁻ᵀB with `transpose`: trsv for one column, trsm for more.
  void lower_solve(double* B, std::size_t nrhs, bool transpose);
  /// log det A = 2 Σ log Lᵢᵢ, from the factor's diagonal.
  [[nodiscard]] double log_det(Transfers& transfers);

 private:
  Backend* backend_;
  std::size_t n_;
  Buffer A_;
};

/// K(X, X) + shift·I built in `factor`'s matrix (shifted_gram) and factored: potrf's value.
[[nodiscard]] KEXP_DEVICE_API int factor_shifted_gram(Backend& backend,
                                                      const FormulaProgram& program,
                                                      const Points& X, double shift,
                                                      Cholesky& factor);

}  // namespace kexp::device
