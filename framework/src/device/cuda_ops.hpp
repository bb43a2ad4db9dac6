// The CUDA side of device/gpu.hpp on raw column-major arrays, so that nvcc compiles only
// device/cuda_ops.cu and never Armadillo: gpu.cpp turns Armadillo's matrices into these
// pointers. Every function throws kexp::Error (kexp::NumericError for a matrix that is
// not positive definite) and frees what it allocated.
#pragma once

#include <cstddef>
#include <string>

#include "kexp/formula_program.hpp"

namespace kexp::device::cuda {

/// GPU 0: its name and memory, or why there is none. Never throws.
bool probe(std::string& name, std::string& reason, double& free_bytes, double& total_bytes);

/// cudaMemGetInfo on GPU 0.
void memory(double& free_bytes, double& total_bytes);

/// β of (K(X, X) + λI)β = y; X is d × n.
void ridge_solve(const FormulaProgram& program, const double* X, std::size_t d, std::size_t n,
                 const double* y, double lambda, double* beta, double& transfer_seconds);

/// θ of (ΦΦᵀ + λI)θ = Φy; Φ is D × n.
void primal_solve(const double* Phi, std::size_t D, std::size_t n, const double* y, double lambda,
                  double* theta, double& transfer_seconds);

/// out = K(Z, X) v, X d × n, Z d × m, v n entries, out m entries.
void kernel_product(const FormulaProgram& program, const double* X, std::size_t n, const double* Z,
                    std::size_t m, std::size_t d, const double* v, double* out,
                    double& transfer_seconds);

/// The points of K(X, X) on the GPU (device/gpu.hpp, GramOperator).
class Gram {
 public:
  Gram(const FormulaProgram& program, const double* X, std::size_t n, std::size_t d,
       double& transfer_seconds);
  ~Gram();
  Gram(const Gram&) = delete;
  Gram& operator=(const Gram&) = delete;

  void product(const double* v, double* out);

 private:
  struct Impl;
  Impl* impl_;
  double* transfer_seconds_;
};

/// Gaussian process regression's state on the GPU (device/gpu.hpp, GaussianProcessSystem).
class GaussianProcess {
 public:
  GaussianProcess(const FormulaProgram& program, const double* X, std::size_t n, std::size_t d,
                  const double* t, double noise, double* alpha, double& log_det,
                  double& transfer_seconds);
  ~GaussianProcess();
  GaussianProcess(const GaussianProcess&) = delete;
  GaussianProcess& operator=(const GaussianProcess&) = delete;

  /// mean = K(Z, X)α and, when `explained` is not null, explained = ‖L⁻¹K(X, z)‖² per point.
  void predict(const double* Z, std::size_t m, double* mean, double* explained);

 private:
  struct Impl;
  Impl* impl_;
  double* transfer_seconds_;
};

/// Falkon's state on the GPU (device/gpu.hpp, NystromSystem).
class Nystrom {
 public:
  Nystrom(const FormulaProgram& program, const double* X, std::size_t n, const double* C,
          std::size_t m, std::size_t d, double& transfer_seconds);
  ~Nystrom();
  Nystrom(const Nystrom&) = delete;
  Nystrom& operator=(const Nystrom&) = delete;

  double factor(double lambda);
  void solve(bool of_t, double* v, bool transpose);
  void normal_product(const double* u, const double* v, bool v_zero, double* out);
  [[nodiscard]] std::size_t block_rows() const;

 private:
  struct Impl;
  Impl* impl_;
  double* transfer_seconds_;
};

}  // namespace kexp::device::cuda
