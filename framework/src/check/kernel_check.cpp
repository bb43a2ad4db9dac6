// The kernel check behind `kexp check-kernel`: sample points (normal vectors, or uniform
// symbols for a sequence kernel) and, on them, the Gram matrix's symmetry and extreme
// eigenvalues against a tolerance that grows with n, and the largest error of the
// feature map's inner products against K.
#include "check/kernel_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "kexp/error.hpp"
#include "plugin/plugin_call.hpp"

namespace kexp::core {

arma::mat sample_points(std::size_t d, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  arma::mat X(d, n);
  for (double& v : X) v = normal(rng);
  return X;
}

arma::mat sample_sequences(std::size_t L, std::size_t n, std::size_t symbols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> symbol(0, symbols - 1);
  arma::mat X(L, n);
  for (double& v : X) v = static_cast<double>(symbol(rng));
  return X;
}

KernelCheck check_kernel(const Kernel& kernel, const arma::mat& X, std::string_view name) {
  const auto in_kernel = [name](std::string_view doing, const auto& f) {
    call_plugin("kernel", name, doing, f);
  };
  KernelCheck r;
  r.points = X.n_cols;
  r.dim = X.n_rows;
  r.tolerance = 100.0 * static_cast<double>(std::max<std::size_t>(r.points, 1)) *
                std::numeric_limits<double>::epsilon();
  in_kernel("reporting whether it is PSD",
            [&] { r.declared_positive_semidefinite = kernel.positive_semidefinite(); });

  arma::mat K;
  in_kernel("computing the Gram matrix", [&] { kernel.gram(X, K); });
  arma::mat K_full;
  in_kernel("computing the Gram matrix K(X, Z) with Z = X", [&] { kernel.gram(X, X, K_full); });
  for (const arma::mat* M : {&K, &K_full}) {
    if (M->is_finite()) continue;
    const auto bad = static_cast<std::size_t>(
        std::count_if(M->begin(), M->end(), [](double v) { return !std::isfinite(v); }));
    const arma::uword first = arma::uvec(arma::find_nonfinite(*M)).front();
    const arma::uword i = first % M->n_rows, j = first / M->n_rows;
    throw NumericError(fmt::format(
        "kernel {} gave {} of the {} entries of its Gram matrix {} on the sample points that are "
        "not finite, the first k(x_{}, x_{}) = {}; its parameters, or its code, make it "
        "overflow or divide by zero on these points (--points, --dim and --seed choose them)",
        name, bad, M->n_elem, M == &K ? "K(X, X)" : "K(X, Z), Z = X,", i, j, (*M)(i, j)));
  }
  const double largest = std::max(arma::abs(K_full).max(), std::numeric_limits<double>::min());
  r.symmetry_error = arma::abs(K_full - K_full.t()).max() / largest;
  r.symmetric = r.symmetry_error <= r.tolerance && arma::approx_equal(K, K.t(), "absdiff", 0.0);

  arma::vec eigen;
  if (!arma::eig_sym(eigen, arma::symmatu(K))) {
    throw NumericError("the eigenvalues of the Gram matrix could not be computed");
  }
  r.eigen_min = eigen.min();
  r.eigen_max = eigen.max();
  const double scale = std::max(
      {std::fabs(r.eigen_max), std::fabs(r.eigen_min), std::numeric_limits<double>::min()});
  r.eigen_min_relative = r.eigen_min / scale;
  r.positive_semidefinite = r.eigen_min_relative >= -r.tolerance;

  const FeatureMap* map = nullptr;
  in_kernel("returning its feature map", [&] { map = kernel.feature_map(); });
  if (map != nullptr) {
    r.has_map = true;
    in_kernel("reporting whether its feature map is exact", [&] { r.map_exact = map->exact(); });
    arma::mat Phi;
    in_kernel("computing the features", [&] { map->features(X, Phi); });
    r.feature_dim = Phi.n_rows;
    const arma::mat inner = Phi.t() * Phi;
    const arma::vec diag = K.diag();
    for (arma::uword j = 0; j < K.n_cols; ++j) {
      for (arma::uword i = 0; i < K.n_rows; ++i) {
        const double error = std::fabs(inner(i, j) - K(i, j));
        const double norm = std::sqrt(std::max(diag[i], 0.0) * std::max(diag[j], 0.0));
        r.map_error = std::max(r.map_error, error);
        r.map_error_relative = std::max(r.map_error_relative, error / (norm > 0 ? norm : 1.0));
      }
    }
    r.map_agrees = r.map_error_relative <= r.map_tolerance;
  }
  return r;
}

}  // namespace kexp::core
