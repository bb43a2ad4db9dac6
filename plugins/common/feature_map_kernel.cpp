// The Gram blocks of a kernel defined by its feature map (common/feature_map_kernel.hpp).
#include "common/feature_map_kernel.hpp"

#include <kexp/gram.hpp>

namespace kexp_kernels {

double FeatureMapKernel::compute(const arma::vec& x, const arma::vec& z) const {
  arma::mat a, b;
  features(x, a);
  features(z, b);
  return arma::dot(a, b);
}

void FeatureMapKernel::compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const {
  arma::mat A, B;
  features(X, A);
  features(Z, B);
  kexp::gram::from_inner_products(A, B, K, [](double s) noexcept { return s; });
}

void FeatureMapKernel::compute_symmetric_gram(const arma::mat& X, arma::mat& K) const {
  arma::mat A;
  features(X, A);
  // in blocks on kexp's threads with BLAS on one, exactly symmetric (or only the lower
  // triangle, when that is all the caller asked for)
  kexp::gram::from_inner_products(A, K, [](double s) noexcept { return s; });
}

void FeatureMapKernel::compute_diagonal(const arma::mat& X, arma::vec& diag) const {
  arma::mat A;
  features(X, A);
  diag = arma::sum(arma::square(A), 0).t();
}

}  // namespace kexp_kernels
