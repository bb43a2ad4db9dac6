// The whitening of a Fisher kernel's scores by the empirical Fisher information, shared by
// the `fisher` and `hmm_fisher` kernels.
//
//   F = (1/n) Σₖ g(xₖ) g(xₖ)ᵀ over the training part,   φ(x) = F^{−1/2} g(x),
//
// F^{−1/2} = U Λ^{−1/2} Uᵀ from F = U Λ Uᵀ, with the eigenvalues below 1e-10·λmax taken as
// zero (the pseudo-inverse: a direction the training scores never move along adds
// nothing, as for an over-parametrised model whose scores sum to a constant). The kernel
// g(x)ᵀ F⁻¹ g(z) is then invariant to reparametrising θ.
#pragma once

#include <kexp/error.hpp>

#include <algorithm>
#include <armadillo>
#include <cmath>

namespace kexp_kernels {

/// Eigenvalues of F below this fraction of the largest count as zero.
inline constexpr double kFisherRankTolerance = 1e-10;

/// F^{−1/2} (pseudo-inverse) of the empirical information of the scores G, D × n.
inline arma::mat inverse_root_information(const arma::mat& G) {
  const arma::mat F = G * G.t() / static_cast<double>(G.n_cols);
  arma::vec lambda;
  arma::mat U;
  if (!arma::eig_sym(lambda, U, F)) {
    throw kexp::NumericError("the eigendecomposition of the Fisher information failed");
  }
  const double cut = kFisherRankTolerance * std::max(lambda.max(), 0.0);
  arma::vec root(lambda.n_elem, arma::fill::zeros);
  for (arma::uword i = 0; i < lambda.n_elem; ++i) {
    if (lambda[i] > cut && lambda[i] > 0) root[i] = 1.0 / std::sqrt(lambda[i]);
  }
  return U * arma::diagmat(root) * U.t();
}

}  // namespace kexp_kernels
