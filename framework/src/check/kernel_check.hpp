// Checking that a kernel is valid on sample points: its Gram matrix is symmetric and
// positive semi-definite (Mercer), and its exact feature map, if it has one, reproduces
// it (⟨φ(x), φ(z)⟩ = k(x, z)). What `kexp check-kernel` reports.
#pragma once

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kexp/kernel.hpp"

namespace kexp::core {

struct KernelCheck {
  std::size_t points = 0, dim = 0;
  /// max |Kᵢⱼ − Kⱼᵢ| / max |Kᵢⱼ| for K = K(X, X) computed as a full block K(X, Z = X).
  double symmetry_error = 0;
  /// Extreme eigenvalues of the symmetric Gram matrix K(X, X).
  double eigen_min = 0, eigen_max = 0;
  /// λ_min / max(|λ_max|, |λ_min|): ≥ −tolerance for a PSD matrix.
  double eigen_min_relative = 0;
  /// The relative tolerance of both verdicts: 100·n·ε, the size of the rounding in K and
  /// in its eigenvalues.
  double tolerance = 0;
  bool symmetric = false;
  bool positive_semidefinite = false;
  bool declared_positive_semidefinite = false;

  bool has_map = false, map_exact = false;
  std::size_t feature_dim = 0;
  /// max |⟨φ(xᵢ), φ(xⱼ)⟩ − Kᵢⱼ| and the same divided by (Kᵢᵢ·Kⱼⱼ)^½ (by 1 where that is 0).
  double map_error = 0, map_error_relative = 0;
  /// Tolerance of an exact map's relative error.
  double map_tolerance = 1e-10;
  bool map_agrees = true;

  /// Valid on these points: symmetric, PSD, and an exact map agrees with k. (A kernel
  /// that is not PSD in general may still pass on some points.)
  [[nodiscard]] bool valid() const {
    return symmetric && positive_semidefinite && (!has_map || !map_exact || map_agrees);
  }
};

/// n points in d dimensions with independent N(0, 1) entries, from `seed`.
arma::mat sample_points(std::size_t d, std::size_t n, std::uint64_t seed);

/// n sequences of length L over `symbols` symbols, each symbol uniform and independent, from
/// `seed`, in the SDK's encoding (kexp/dataset.hpp): an L × n matrix of symbol indices.
arma::mat sample_sequences(std::size_t L, std::size_t n, std::size_t symbols, std::uint64_t seed);

/// Checks `kernel` on the columns of X. What the kernel throws, while computing its Gram
/// matrix or its features, comes back as kexp::Error naming it (`name`) and the step,
/// e.g. "kernel 'gaussian' failed while computing the Gram matrix: …".
KernelCheck check_kernel(const Kernel& kernel, const arma::mat& X, std::string_view name);

}  // namespace kexp::core
