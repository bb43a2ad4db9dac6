// The log marginal likelihood of Gaussian process regression as a function of the
// kernel's hyperparameters and the noise, in log space, with its gradient: what
// gp_regression's `optimize` maximises. A header of the plugin's, so that it is tested
// directly.
//
//   log p(t) = −½ tᵀα − ½ log det C − (n/2) log 2π,   C = K_θ + noise·I,  α = C⁻¹t,
//   ∂ log p(t)/∂ log θⱼ = ½ tr((ααᵀ − C⁻¹) ∂C/∂ log θⱼ)   (Rasmussen & Williams, eq. 5.9),
//
// with ∂C/∂ log θⱼ the kernel's Kernel::gram_gradient and ∂C/∂ log noise = noise·I.
#pragma once

#include <kexp/kexp.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>

namespace kexp_solvers {

/// With W = ααᵀ − C⁻¹ (C⁻¹ given by its lower triangle `inverse`): out[j] = ½ Σᵢₖ Wᵢₖ dK(i, k, j)
/// for each slice j of dK, and out[p] = ½ tr W for p = dK.n_slices. One pass over the lower
/// triangles, column by column on kexp's threads (each column's sums kept apart and added
/// in order, so that the result is the same on any number of threads); W is never formed.
inline void gp_gradient_terms(const arma::mat& inverse, const arma::vec& alpha,
                              const arma::cube& dK, double* out) {
  const arma::uword n = inverse.n_rows, p = dK.n_slices;
  arma::mat sums(p + 1, n);  // column k's share of each term
  kexp::parallel_for(
      n,
      [&](std::size_t col) {
        const auto kcol = static_cast<arma::uword>(col);
        const double* c = inverse.colptr(kcol);
        const double* a = alpha.memptr();
        const double ak = a[kcol];
        const double diagonal = ak * ak - c[kcol];
        for (arma::uword j = 0; j < p; ++j) {
          const double* g = dK.slice_memptr(j) + kcol * n;
          double below = 0.0;
#pragma omp simd reduction(+ : below)
          for (arma::uword i = kcol + 1; i < n; ++i) below += (a[i] * ak - c[i]) * g[i];
          sums(j, kcol) = 0.5 * (2.0 * below + diagonal * g[kcol]);
        }
        sums(p, kcol) = 0.5 * diagonal;
      },
      kexp::Schedule::Dynamic, 16);
  for (arma::uword j = 0; j <= p; ++j) out[j] = arma::accu(sums.row(j));
}

/// log p(t) at x = (log θ₁, …, log θ_p, log noise) for the kernel `kernel` carries the
/// structure of (its own values are replaced), and its gradient in `gradient` when that
/// is not null. −∞ (and a zero gradient) where C is not positive definite. Costs one K,
/// one gradient, a Cholesky factorization (n³/3) and C⁻¹ from it ((2/3)n³).
inline double gp_log_likelihood(const kexp::Kernel& kernel, const arma::mat& X, const arma::vec& t,
                                const arma::vec& x, arma::vec* gradient) {
  const arma::uword p = x.n_elem - 1;
  const arma::vec theta = arma::exp(x);
  const std::unique_ptr<kexp::Kernel> k = kernel.with_hyperparameters(theta.head(p));
  arma::mat C;
  k->gram(X, C);
  const double noise = theta[p];
  C.diag() += noise;
  if (kexp::linalg::cholesky_in_place(C) != 0) {
    if (gradient != nullptr) gradient->zeros(x.n_elem);
    return -std::numeric_limits<double>::infinity();
  }
  arma::vec alpha = t;
  kexp::linalg::cholesky_solve(C, alpha);
  const double n = static_cast<double>(t.n_elem);
  const double lml = -0.5 * arma::dot(t, alpha) - 0.5 * kexp::linalg::cholesky_log_det(C) -
                     0.5 * n * std::log(2.0 * arma::datum::pi);
  if (gradient == nullptr) return lml;
  // C⁻¹ from its factor in place (LAPACK dpotri, (2/3)n³ flops: a third of solving for
  // the identity), its lower triangle only.
  {
    char lower = 'L';
    auto order = static_cast<arma::blas_int>(C.n_rows);
    arma::blas_int info = 0;
    arma::lapack::potri(&lower, &order, C.memptr(), &order, &info);
    if (info != 0) throw kexp::NumericError("dpotri could not invert C = K + noise·I");
  }
  arma::cube dK;
  k->gram_gradient(X, dK);
  gradient->set_size(x.n_elem);
  gp_gradient_terms(C, alpha, dK, gradient->memptr());
  (*gradient)[p] *= noise;
  return lml;
}

}  // namespace kexp_solvers
