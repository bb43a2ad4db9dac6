// The GPU side of `device: cuda`: what the solvers kernel_ridge, falkon, cg_ridge and
// primal_ridge run on an NVIDIA GPU through CUDA, cuBLAS and cuSOLVER, in float64. A
// host-only interface: no CUDA type appears here, so that the solvers and the runner
// compile without the toolkit, and a build without it (KEXP_CUDA=OFF, or no toolkit
// found) links cuda_absent.cpp, whose probe says so and whose other functions throw.
//
// K(X, Z) is built from one matrix product S = XᵀZ (cuBLAS DGEMM, or DSYRK for K(X, X))
// and the squared norms, then one elementwise kernel evaluates the kernel's program on
// (s, r², ‖x‖², ‖z‖²): its formula, or its device form as a formula (kexp::device_formula,
// kexp/formula_kernel.hpp). Every CUDA, cuBLAS and cuSOLVER error, and a request
// for more device memory than is free, throws kexp::Error with the library's message or
// the figures; nothing aborts.
#pragma once

#include <armadillo>
#include <memory>
#include <string>

#include "kexp/formula_program.hpp"
#include "kexp/solver.hpp"

namespace kexp::device {

/// What the process sees of GPU 0.
struct GpuInfo {
  bool present = false;
  std::string name;    ///< "NVIDIA H100 80GB HBM3"
  std::string reason;  ///< why there is none: no CUDA in this build, or the driver's message
  double free_bytes = 0, total_bytes = 0;
};

/// Whether this build has the CUDA code (KEXP_CUDA found the toolkit).
[[nodiscard]] bool built_with_cuda();

/// GPU 0, probed once per process. Never throws.
[[nodiscard]] const GpuInfo& gpu_info();

/// Seconds spent copying between host and device, added up by each call.
struct Transfers {
  double seconds = 0;
};

/// Throws kexp::InvalidArgument, naming `solver`, when it is set to run on the GPU
/// (`on_gpu`) in a precision other than double: the GPU runs in float64 only.
void require_float64_on_gpu(const char* solver, bool on_gpu, bool in_float64);

/// Adds `seconds` of copies made while predicting to the metric transfer_seconds, which
/// the fit put in `report`.
void add_transfer_seconds(SolverReport& report, double seconds);

/// Kernel ridge regression on the GPU: K(X, X) + λI built in device memory (its lower
/// triangle), factored by cuSOLVER's dpotrf and solved by dpotrs; returns β of
/// (K + λI)β = y. Refuses, with the figures, a K that does not fit the free memory; throws
/// kexp::NumericError when K + λI is not positive definite.
[[nodiscard]] arma::vec ridge_solve(const FormulaProgram& kernel, const arma::mat& X,
                                    const arma::vec& y, double lambda, Transfers& transfers);

/// Ridge regression in the primal form on the GPU: ΦΦᵀ + λI (D × D) by cuBLAS DSYRK from
/// the features Φ (D × n, computed on the host), Φy by DGEMV, factored by cuSOLVER's
/// dpotrf and solved by dpotrs; returns θ of (ΦΦᵀ + λI)θ = Φy. Refuses, with the figures,
/// a Φ that does not fit the free memory; throws kexp::NumericError when ΦΦᵀ + λI is not
/// positive definite.
[[nodiscard]] arma::vec primal_ridge_solve(const arma::mat& Phi, const arma::vec& y, double lambda,
                                           Transfers& transfers);

/// K(Z, X) v = (Σᵢ k(zⱼ, xᵢ) vᵢ)ⱼ for X d × n, Z d × m and v of n entries: predictions at
/// the columns of Z, streamed over blocks of them.
[[nodiscard]] arma::vec kernel_product(const FormulaProgram& kernel, const arma::mat& X,
                                       const arma::mat& Z, const arma::vec& v,
                                       Transfers& transfers);

/// K(X, X) as an operator on the GPU, for conjugate gradients (plugins/solvers/cg_ridge.cpp):
/// X stays in device memory and each product K v streams blocks of K's rows, sized from
/// the free memory, each computed again from X (K is never stored).
class GramOperator {
 public:
  GramOperator(const FormulaProgram& kernel, const arma::mat& X, Transfers& transfers);
  ~GramOperator();
  GramOperator(const GramOperator&) = delete;
  GramOperator& operator=(const GramOperator&) = delete;

  /// K(X, X) v for v of n entries.
  [[nodiscard]] arma::vec product(const arma::vec& v);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Gaussian process regression on the GPU (plugins/solvers/gp_regression.cpp): C = K(X, X)
/// + noise·I built in device memory (its lower triangle), factored by cuSOLVER's dpotrf,
/// α = C⁻¹t by dpotrs and log det C from the factor's diagonal. X and the factor L stay on
/// the GPU for the predictions: the mean K(X*, X)α and ‖L⁻¹k‖² (cuBLAS DTRSM) per point,
/// streamed over blocks of the points. Refuses, with the figures, a C that does not fit
/// the free memory; throws kexp::NumericError when C is not positive definite.
class GaussianProcessSystem {
 public:
  GaussianProcessSystem(const FormulaProgram& kernel, const arma::mat& X, const arma::vec& t,
                        double noise, Transfers& transfers);
  ~GaussianProcessSystem();
  GaussianProcessSystem(const GaussianProcessSystem&) = delete;
  GaussianProcessSystem& operator=(const GaussianProcessSystem&) = delete;

  /// α = C⁻¹t.
  [[nodiscard]] const arma::vec& weights() const;
  /// log det C.
  [[nodiscard]] double log_det() const;
  /// The mean K(Z, X)α at the columns of Z; with `explained`, kᵀC⁻¹k = ‖L⁻¹k‖² at each.
  [[nodiscard]] arma::vec predict(const arma::mat& Z, arma::vec* explained);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Falkon's operators on the GPU (plugins/solvers/falkon.cpp for the method): the points X
/// and the centres C stay in device memory, with the factors Lt, La of the preconditioner,
/// and K_nm is never stored whole: every product streams blocks of its rows, sized from
/// the free memory.
class NystromSystem {
 public:
  NystromSystem(const FormulaProgram& kernel, const arma::mat& X, const arma::mat& C,
                Transfers& transfers);
  ~NystromSystem();
  NystromSystem(const NystromSystem&) = delete;
  NystromSystem& operator=(const NystromSystem&) = delete;

  /// Lt = chol(K_mm + εmI), lower, raising ε = machine epsilon tenfold until it factors,
  /// and La = chol(LtᵀLt/m + λI), lower. Returns ε; throws kexp::NumericError as the CPU
  /// version does.
  double factor(double lambda);

  /// L⁻¹v, or L⁻ᵀv with `transpose`, for L = Lt (`of_t`) or La.
  [[nodiscard]] arma::vec solve(bool of_t, const arma::vec& v, bool transpose);

  /// K_nmᵀ (K_nm u + v) for u of m and v of n entries.
  [[nodiscard]] arma::vec normal_product(const arma::vec& u, const arma::vec& v);

  /// Rows of K_nm in one block of normal_product.
  [[nodiscard]] std::size_t block_rows() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kexp::device
