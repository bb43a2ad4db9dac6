// A kernel defined by its feature map, k(x, z) = ⟨φ(x), φ(z)⟩: the kernels fitted to the
// training data whose map is their definition (fisher, mixture, hmm_fisher) derive from
// it and state only φ. Every block is computed from the features of its samples (Φ is
// D × n, a column per sample) rather than pair by pair:
//
//   K(X, Z) = Φ(X)ᵀ Φ(Z),   K(X, X) = Φ(X)ᵀ Φ(X), exactly symmetric,   k(xᵢ, xᵢ) = ‖φ(xᵢ)‖².
#pragma once

#include <kexp/kernel.hpp>

#include <armadillo>

namespace kexp_kernels {

class FeatureMapKernel : public kexp::Kernel {
 public:
  /// Φ = [φ(x₁) … φ(xₙ)], D × n, for the samples of X (checked by the public functions
  /// of kexp::Kernel and kexp::FeatureMap).
  virtual void features(const arma::mat& X, arma::mat& Phi) const = 0;

 protected:
  /// ⟨φ(x), φ(z)⟩.
  [[nodiscard]] double compute(const arma::vec& x, const arma::vec& z) const override;
  /// Φ(X)ᵀ Φ(Z).
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override;
  /// Φ(X)ᵀ Φ(X), by blocks, each above the diagonal mirrored, so that K is exactly symmetric.
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override;
  /// The squared norm of each column of Φ(X).
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override;
};

}  // namespace kexp_kernels
