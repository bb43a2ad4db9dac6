// The LAPACK routines solvers share, on Armadillo matrices, working in place so that a
// solver need not copy an n × n Gram matrix.
#pragma once

#include <armadillo>
#include <functional>
#include <string>
#include <vector>

#include "kexp/execution_target.hpp"
#include "kexp/export.hpp"

namespace kexp::linalg {

/// Cholesky factorization A = LLᵀ in place (LAPACK dpotrf, lower triangle; the strict
/// upper triangle is left as it was). From n = 6000 on, by LAPACK's same blocked
/// algorithm with the trailing matrix updated on strips of 1024 columns, which keeps
/// OpenBLAS's packing buffers near 5 MB (its dpotrf touches 18 MB at n = 8000). Returns 0 on
/// success, or k > 0 when the leading minor of order k is not positive definite. Throws
/// kexp::NumericError when A holds a NaN or an infinity (found on the factor's diagonal, O(n)).
KEXP_API int cholesky_in_place(arma::mat& A);

/// How cholesky_shifted_in_place writes the shifted matrix in the error it throws. The
/// defaults are kernel ridge's (K + λI)β = y; a Gaussian process names C = K + noise·I.
struct ShiftedMatrixNames {
  const char* matrix = "K + λI";     ///< the matrix factored, as the message writes it
  const char* shift = "λ";           ///< the shift's symbol
  const char* parameter = "lambda";  ///< the parameter that sets the shift: the remedy
};

/// Cholesky factorization of a shifted Gram matrix in place: A ← A + shift·I, then
/// A + shift·I = LLᵀ by cholesky_in_place (LAPACK dpotrf, lower triangle). The strict upper
/// triangle is left as it was, so a LowerTriangleLoan on A gives A back. Throws
/// kexp::NumericError when A + shift·I is not positive definite, with the first leading
/// minor that is not and the remedy, e.g.
///
///     K + λI is not positive definite (leading minor 2 of 2, λ = 0.5): use a larger
///     lambda, or a valid (PSD) kernel
///
/// (A is then left shifted and partly factored); kexp::InvalidArgument when A is not
/// square (A untouched).
KEXP_API void cholesky_shifted_in_place(arma::mat& A, double shift,
                                        const ShiftedMatrixNames& names = {});

/// Solves (LLᵀ) X = B in place for B, with L from cholesky_in_place (LAPACK dpotrs).
KEXP_API void cholesky_solve(const arma::mat& L, arma::mat& B);

/// "double", "single" or "mixed" as a Precision (kexp/execution_target.hpp, a solver's
/// `precision:` parameter); kexp::InvalidArgument otherwise (as kexp::parse_precision).
KEXP_API Precision precision_named(const std::string& name);

/// What solve_shifted did.
struct ShiftedSolve {
  /// Mixed: the iterative-refinement steps after the float32 factorization (each a
  /// residual in float64, 2n² flops per column, and a float32 solve, 2n²).
  int refinement_steps = 0;
  /// Mixed: refinement did not reach float64 accuracy within kMaxRefinementSteps, or the
  /// float32 factorization failed (A + shift·I not positive definite in float32), so the
  /// system was factored and solved in float64 instead.
  bool fell_back = false;
  double bytes = 0;  ///< the float32 copy of A + shift·I and the workspaces it held
};

/// The most refinement steps of a Mixed solve before it falls back to float64 (LAPACK
/// dsposv's ITERMAX).
inline constexpr int kMaxRefinementSteps = 30;

/// Solves (A + shift·I) X = B in place for B, from the lower triangle and diagonal of the
/// square A (the strict upper triangle is not read), in `precision`:
///   - Double: cholesky_shifted_in_place on A, then cholesky_solve; A holds the factor.
///   - Single: A + shift·I and B rounded to float32, factored and solved in float32
///     (LAPACK spotrf, spotrs) on a copy; X rounded back to float64. A is not written.
///   - Mixed: as LAPACK dsposv does it. The float32 factor of A + shift·I, then iterative
///   refinement:
///     the residual B − (A + shift·I)X in float64, a correction by the float32 factor,
///     until ‖r‖∞ ≤ ‖X‖∞·‖A + shift·I‖∞·ε·√n (ε the float64 rounding unit), as accurate
///     as a float64 solve. When that takes more than kMaxRefinementSteps steps (the
///     condition number near 1/ε of float32, 10⁷ or more) or the float32 factorization
///     fails, A + shift·I is factored in float64 in place instead, and `fell_back` says so.
/// Single and Mixed give A's diagonal back as it was; a float64 factorization (Double, or
/// Mixed falling back) leaves its factor in A's lower triangle (Double: and on the
/// diagonal), so lend A with a LowerTriangleLoan to have it back. Throws kexp::NumericError as
/// cholesky_shifted_in_place does when the matrix is not positive definite (Single: in
/// float32, with the remedy `precision: mixed`), and when A has entries that are not finite.
KEXP_API ShiftedSolve solve_shifted(arma::mat& A, double shift, arma::mat& B, Precision precision,
                                    const ShiftedMatrixNames& names = {});

/// A + shift·I factored once in `precision`, for solves with any number of right-hand
/// sides and for its log-determinant: a Gaussian process solves for its weights, for its
/// predictive variances, and needs log det C, from one factorization. solve_shifted is
/// one factorization and one solve by it.
///   - Double: A + shift·I factored in float64 in place on A (cholesky_shifted_in_place).
///   - Single: a float32 factor of A + shift·I rounded, on a copy (A is not written); each
///     solve in float32.
///   - Mixed: the float32 factor, and each solve refined in float64 to float64 accuracy
///     (see solve_shifted). When the float32 factorization fails, or a solve's refinement
///     does not converge, A + shift·I is factored in float64 in place on A and that solve
///     and every later one use it; fell_back() says so.
/// A must outlive the factor and stay unchanged while the factor uses it (Mixed reads it
/// for every residual). A float64 factorization leaves its factor in A's lower triangle
/// and diagonal. Throws as solve_shifted does.
class KEXP_API ShiftedFactor {
 public:
  ShiftedFactor(arma::mat& A, double shift, Precision precision,
                const ShiftedMatrixNames& names = {});

  /// B ← (A + shift·I)⁻¹B, every column; returns the refinement steps it took (Mixed), 0
  /// otherwise.
  int solve(arma::mat& B);

  /// B ← L⁻¹B, with L the lower triangular factor in use (A + shift·I = LLᵀ), without
  /// refinement: float32's accuracy where the factor is float32 (B rounded to float32,
  /// solved by STRSM, rounded back), float64's otherwise. For quantities such as kᵀC⁻¹k =
  /// ‖L⁻¹k‖², where a refined C⁻¹k would cost a float64 product C·V per step.
  void lower_solve(arma::mat& B) const;

  /// log det(A + shift·I) from the factor in use: 2 Σ log Lᵢᵢ. With a float32 factor
  /// (Single, and Mixed unless it fell back) it is as accurate as that factor, not as a
  /// float64 one: its error grows with n and with κ(A + shift·I) times float32's ε.
  [[nodiscard]] double log_det() const;

  /// Mixed: the factor in use is float64's, after a failed float32 factorization or a
  /// refinement that did not converge.
  [[nodiscard]] bool fell_back() const { return fell_back_; }

  /// The bytes held beside A: the float32 factor (4n²), none in float64.
  [[nodiscard]] double bytes() const { return 4.0 * static_cast<double>(float32_.n_elem); }

 private:
  void factor_in_float64();

  arma::mat* A_;
  double shift_;
  Precision precision_;
  ShiftedMatrixNames names_;
  arma::fmat float32_;   ///< the float32 factor (Single, Mixed); empty after a fallback
  double norm_inf_ = 0;  ///< ‖A + shift·I‖∞, for Mixed's stopping test
  bool fell_back_ = false;
};

/// Solves (A + shift·I) X = B in place for B in float32, for a float32 A built there (a Gram
/// matrix from kexp::gram::single): A's lower triangle and diagonal are factored in place
/// (LAPACK spotrf; the strict upper triangle is not read), B is rounded to float32, solved
/// (spotrs) and rounded back. Throws kexp::NumericError as solve_shifted's Single does when
/// A + shift·I is not positive definite in float32, and when A has entries that are not
/// finite.
KEXP_API ShiftedSolve solve_shifted_single_in_place(arma::fmat& A, double shift, arma::mat& B,
                                                    const ShiftedMatrixNames& names = {});

/// Solves L X = B, or Lᵀ X = B with `transpose`, in place for B, where L is the lower
/// triangle and diagonal of the square `L` (as cholesky_in_place leaves it; the strict
/// upper triangle is not read). LAPACK dtrtrs: O(n²) per column of B and no copy of L,
/// where arma::solve(trimatl(L).t(), b) would copy it. Throws kexp::NumericError on a zero
/// on the diagonal.
KEXP_API void lower_triangular_solve(const arma::mat& L, arma::mat& B, bool transpose);

/// log det(A) from its Cholesky factor L: 2 Σ log Lᵢᵢ.
KEXP_API double cholesky_log_det(const arma::mat& L);

/// C = A·B (A p × k, B k × n; C set to p × n), 256 columns of B at a time on kexp's threads,
/// one DGEMM each with BLAS on one thread: a product between two of kexp's parallel regions
/// (a Gram matrix, a feature map) that leaves no OpenBLAS thread spinning on their cores
/// (docs/design.md, "Threads"). The columns are cut the same way whatever the number of
/// threads, so C has the same bits on any number of them. C may be a matrix on memory of
/// its own, already p × n (an arma::mat made with copy_aux_mem = false).
KEXP_API void multiply_by_columns(const arma::mat& A, const arma::mat& B, arma::mat& C);

/// Copies the strict upper triangle of the square A onto its strict lower triangle
/// (Aᵢⱼ = Aⱼᵢ for i > j), block by block. After cholesky_in_place, which writes only the
/// lower triangle and the diagonal, this and the saved diagonal give back an exactly
/// symmetric A as it was, with no n × n copy.
KEXP_API void symmetrize_from_upper(arma::mat& A);

/// Lends the lower triangle and diagonal of an exactly symmetric K as workspace (to
/// cholesky_in_place, or to a BandReduction) and, when asked to, gives K back when it
/// leaves scope, exceptions included: the strict upper triangle and the diagonal saved
/// here rebuild K bit for bit (symmetrize_from_upper), with no n × n copy. This is how a
/// solver honours TrainingData::gram_writable == false without copying K.
class KEXP_API LowerTriangleLoan {
 public:
  /// `give_back`: restore K on leaving scope; when false, K may stay overwritten.
  LowerTriangleLoan(arma::mat& K, bool give_back);
  ~LowerTriangleLoan();
  LowerTriangleLoan(const LowerTriangleLoan&) = delete;
  LowerTriangleLoan& operator=(const LowerTriangleLoan&) = delete;
  LowerTriangleLoan(LowerTriangleLoan&&) = delete;
  LowerTriangleLoan& operator=(LowerTriangleLoan&&) = delete;

  /// The saved diagonal, as bytes (0 when K is not given back).
  [[nodiscard]] double bytes() const { return 8.0 * static_cast<double>(diagonal_.n_elem); }

 private:
  arma::mat& K_;
  bool give_back_;
  arma::vec diagonal_;
};

/// A symmetric A reduced to band form, A = QBQᵀ with Q orthogonal and B banded (b
/// subdiagonals), by LAPACK's dsytrd_sy2sb: the first, BLAS-3 stage of the two-stage
/// tridiagonalization (Haidar, Ltaief & Dongarra, SC 2011). Since Qᵀ(A + λI)Q = B + λI for
/// every λ, one reduction serves a whole sweep of shifted systems (A + λI)x = y: each is a
/// banded Cholesky of B + λI (n·b² flops) and the products by Qᵀ and Q (2n² each; Qᵀy once
/// when y is the same for every λ), against n³/3 for a Cholesky of A + λI. The reduction
/// costs 4n³/3 flops, 3 to 5.5 such Choleskys in time at n = 1000 to 8000
/// (bench/kernel_ridge_bench, BandOverCholesky), and is backward stable like them.
class KEXP_API BandReduction {
 public:
  /// Reduces the symmetric A, read from its lower triangle and diagonal; these are used
  /// as workspace and left overwritten, while the strict upper triangle is not touched (so
  /// symmetrize_from_upper and the saved diagonal give A back). Keeps B and the Householder
  /// vectors of Q with their block factors: about n²/2 + 2n·b doubles.
  explicit BandReduction(arma::mat& A, arma::uword bandwidth = 64);

  [[nodiscard]] arma::uword size() const { return n_; }
  [[nodiscard]] arma::uword bandwidth() const { return bandwidth_; }
  /// The doubles this object holds, as bytes.
  [[nodiscard]] double bytes() const;
  /// The workspace the reduction used and freed (LAPACK's, besides A), as bytes.
  [[nodiscard]] double workspace_bytes() const { return workspace_bytes_; }
  /// The copy of B that each solve_band factors, as bytes.
  [[nodiscard]] double solve_bytes() const { return 8.0 * static_cast<double>(band_.n_elem); }

  /// x ← Qᵀx.
  void apply_qt(arma::vec& x) const;
  /// x ← Qx.
  void apply_q(arma::vec& x) const;
  /// c ← (B + shift·I)⁻¹c, by LAPACK dpbtrf and dpbtrs on a copy of B. Returns 0, or
  /// k > 0 when the leading minor of order k of B + shift·I is not positive definite
  /// (then c is left unspecified).
  int solve_band(double shift, arma::vec& c) const;
  /// x ← (A + shift·I)⁻¹x: Qᵀ, solve_band, then Q. Returns as solve_band.
  int solve_shifted(double shift, arma::vec& x) const;

 private:
  /// One panel of Householder vectors: Q_p = I − V T Vᵀ acts on rows first..n−1, and
  /// Q = Q_0 Q_1 ⋯ Q_{P−1}.
  struct Panel {
    arma::uword first;
    arma::mat V;  ///< unit lower trapezoidal, (n − first) × k
    arma::mat T;  ///< upper triangular, k × k
  };

  arma::uword n_ = 0;
  arma::uword bandwidth_ = 0;
  double workspace_bytes_ = 0;
  arma::mat band_;  ///< B in LAPACK's lower band storage, (b + 1) × n
  std::vector<Panel> panels_;
};

/// Largest eigenvalue of a symmetric positive semi-definite operator v ↦ Av on Rⁿ, by
/// power iteration from a fixed start vector (the same for every caller, so that two
/// operators with the same spectrum give the same estimate to rounding). Stops when the
/// Rayleigh quotient changes by less than `tolerance` relatively, or after
/// `max_iterations` products; `iterations` receives the number of products taken. The
/// result is the last Rayleigh quotient, a lower bound on λ_max that converges to it.
KEXP_API double largest_eigenvalue(
    const std::function<void(const arma::vec& v, arma::vec& Av)>& apply, arma::uword n,
    double tolerance, int max_iterations, int& iterations);

}  // namespace kexp::linalg
