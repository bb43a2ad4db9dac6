// The Nyström map of a PSD kernel: centres drawn from the training points when the
// kernel is fitted, K_mm^{−1/2} from K_mm's eigendecomposition with the smallest
// eigenvalues raised, and the kernel that answers with the map's inner products.
#include "kernel_algebra/nystrom.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/linalg.hpp"
#include "kexp/parallel.hpp"

namespace kexp::algebra {

namespace {

/// Eigenvalues of K_mm below this fraction of the largest are raised to it.
constexpr double kEigenFloor = 1e-12;
/// Columns of X whose K(C, X) is computed at a time (by the kernel's Gram, on every thread):
/// each call also does the work on C again (its norms, or a feature-map kernel's features of
/// every centre), so blocks are wide: 2048 columns, or 256 per thread where there are more
/// threads than 8.
constexpr arma::uword kBlockColumns = 2048;

struct NystromState {
  arma::mat centres;  ///< d × m
  arma::mat root;     ///< K_mm^{−1/2}, m × m
  bool fitted = false;
};

class NystromMap final : public FeatureMap {
 public:
  NystromMap(const Kernel& kernel, const NystromState& state, std::size_t m)
      : kernel_(kernel), state_(state), m_(m) {}
  std::size_t dimension(std::size_t /*d*/) const override { return m_; }
  bool exact() const override { return false; }
  double flops(std::size_t n, std::size_t d) const override {
    const double m = static_cast<double>(m_);
    return kernel_.gram_flops(m_, n, d) + 2.0 * m * m * static_cast<double>(n);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    if (!state_.fitted) {
      throw InvalidArgument(
          "Nyström features are learned from the training data: call fit() before using them");
    }
    // Block by block: K(C, X) by the kernel's Gram on kexp's threads, then
    // Φ = K_mm^{−1/2}·K(C, X) by linalg::multiply_by_columns, also on kexp's threads: a
    // multithreaded DGEMM between two Gram regions would leave each runtime's spinning
    // threads on the other's cores (docs/design.md, "Threads").
    const arma::uword per_block =
        std::max(kBlockColumns, 256 * static_cast<arma::uword>(thread_count()));
    arma::mat block;
    for (arma::uword first = 0; first < X.n_cols; first += per_block) {
      const arma::uword width = std::min(per_block, X.n_cols - first);
      kernel_.gram(state_.centres, X.cols(first, first + width - 1), block);
      arma::mat out(Phi.colptr(first), Phi.n_rows, width, /*copy_aux_mem=*/false,
                    /*strict=*/true);
      linalg::multiply_by_columns(state_.root, block, out);
    }
  }

 private:
  const Kernel& kernel_;
  const NystromState& state_;
  std::size_t m_;
};

class NystromKernel final : public Kernel {
 public:
  NystromKernel(const NystromKernel&) = delete;  // the map refers to this object's state
  NystromKernel& operator=(const NystromKernel&) = delete;
  NystromKernel(std::shared_ptr<Kernel> kernel, const NystromSettings& settings)
      : kernel_(std::move(kernel)), settings_(settings), map_(*kernel_, state_, settings.m) {
    if (!kernel_->positive_semidefinite()) {
      throw InvalidArgument(
          "Nyström features need a PSD kernel (K_mm^{−1/2} is defined for a PSD K_mm only), "
          "and this kernel is not PSD with its parameters; map a PSD kernel or leave out "
          "nystrom");
    }
  }
  bool positive_semidefinite() const override { return kernel_->positive_semidefinite(); }
  const FeatureMap* feature_map() const override { return &map_; }
  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    return kernel_->gram_flops(n, m, d);
  }

 protected:
  void compute_fit(const KernelFitData& data) override {
    state_.fitted = false;  // until the new state is whole
    kernel_->fit(data);
    const arma::uvec chosen = nystrom_centres(*kernel_, *data.X, settings_, data.seed);
    arma::mat centres = data.X->cols(chosen);
    arma::mat K_mm;
    kernel_->gram(centres, K_mm);
    arma::vec lambda;
    arma::mat U;
    if (!arma::eig_sym(lambda, U, K_mm)) {
      throw NumericError(
          fmt::format("the eigendecomposition of the {} × {} Nyström block K_mm failed",
                      K_mm.n_rows, K_mm.n_cols));
    }
    K_mm.reset();
    if (!(lambda.max() > 0)) {
      throw NumericError(
          "the Nyström block K_mm of the centres is zero: the kernel vanishes on them");
    }
    // relative to the largest, so that a kernel of small values (densities, a small scale)
    // keeps its spectrum
    const double floor = kEigenFloor * lambda.max();
    // K_mm^{−1/2} = U Λ^{−1/2} Uᵀ = V Vᵀ with V = U Λ^{−1/4}: one DSYRK, exactly symmetric
    lambda.transform([floor](double v) { return 1.0 / std::sqrt(std::sqrt(std::max(v, floor))); });
    U.each_row() %= lambda.t();
    state_.root = U * U.t();
    state_.centres = std::move(centres);
    state_.fitted = true;
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return kernel_->evaluate(x, z);
  }
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    kernel_->gram(X, Z, K);
  }
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    kernel_->gram(X, K, gram::requested_triangle());
  }
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override {
    diag = kernel_->diagonal(X);
  }

 private:
  std::shared_ptr<Kernel> kernel_;
  NystromSettings settings_;
  NystromState state_;
  NystromMap map_;
};

}  // namespace

arma::uvec nystrom_centres(const Kernel& kernel, const arma::mat& X,
                           const NystromSettings& settings, std::uint64_t seed) {
  const arma::uword n = X.n_cols, m = settings.m;
  if (m > n) {
    throw InvalidArgument(fmt::format(
        "Nyström with m = {} centres needs at least {} training points, and the training part "
        "has {}; lower m",
        m, m, n));
  }
  std::mt19937_64 rng(seed);
  std::vector<arma::uword> order(n);
  std::iota(order.begin(), order.end(), arma::uword{0});
  if (!settings.kmeanspp) {
    for (arma::uword i = 0; i < m; ++i) {
      std::uniform_int_distribution<arma::uword> pick(i, n - 1);
      std::swap(order[i], order[pick(rng)]);
    }
    return arma::uvec(std::vector<arma::uword>(order.begin(), order.begin() + m));
  }
  // D² sampling in feature space: nearest[i] = min over centres c of k(x,x) − 2k(x,c) + k(c,c).
  const arma::vec self = kernel.diagonal(X);
  arma::vec nearest(n);
  nearest.fill(arma::datum::inf);
  std::vector<bool> taken(n, false);
  arma::uvec chosen(m);
  arma::uword next = std::uniform_int_distribution<arma::uword>(0, n - 1)(rng);
  arma::mat column;
  for (arma::uword c = 0; c < m; ++c) {
    chosen[c] = next;
    taken[next] = true;
    kernel.gram(X, X.col(next), column);
    for (arma::uword i = 0; i < n; ++i) {
      const double d2 = std::max(0.0, self[i] - 2.0 * column(i, 0) + self[next]);
      nearest[i] = taken[i] ? 0.0 : std::min(nearest[i], d2);
    }
    if (c + 1 == m) break;
    const double total = arma::accu(nearest);
    if (total > 0 && std::isfinite(total)) {
      double u = std::uniform_real_distribution<double>(0.0, total)(rng);
      next = n;
      for (arma::uword i = 0; i < n; ++i) {
        if (nearest[i] <= 0) continue;
        next = i;
        u -= nearest[i];
        if (u < 0) break;
      }
    } else {
      // every point left coincides with a centre in feature space: uniform among them
      std::vector<arma::uword> left;
      for (arma::uword i = 0; i < n; ++i)
        if (!taken[i]) left.push_back(i);
      next = left[std::uniform_int_distribution<std::size_t>(0, left.size() - 1)(rng)];
    }
  }
  return chosen;
}

std::shared_ptr<Kernel> nystrom(std::shared_ptr<Kernel> kernel, const NystromSettings& settings) {
  return std::make_shared<NystromKernel>(std::move(kernel), settings);
}

}  // namespace kexp::algebra
