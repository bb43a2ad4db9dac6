// A Gaussian mixture with diagonal covariances, p(x) = Σᵢ wᵢ N(x; μᵢ, diag vᵢ), fitted by
// expectation–maximisation from a k-means++ start: the generative model of the `mixture`
// and `fisher` kernels.
//
// Estimators (maximum likelihood): in the M-step, with responsibilities γᵢ(x) and
// Nᵢ = Σₖ γᵢ(xₖ),
//   wᵢ = Nᵢ / n,   μᵢ = Σₖ γᵢ(xₖ) xₖ / Nᵢ,   vᵢⱼ = max(Σₖ γᵢ(xₖ)(xₖⱼ − μᵢⱼ)² / Nᵢ, floorⱼ),
// variances divided by Nᵢ (not Nᵢ − 1), floored at `variance_floor` times the sample's
// variance of feature j (divided by n), so that a component on one point does not
// collapse. The floor is a constraint of the M-step, so the log-likelihood still never
// decreases from one iteration to the next. One component is the Gaussian of the data's
// mean and variances.
//
// Start: k-means++ (Arthur and Vassilvitskii 2007) from std::mt19937_64(seed): the first
// centre uniformly among the samples, each next one with probability proportional to
// the squared distance to the nearest centre chosen; each sample goes to its nearest
// centre, and the first M-step takes the hard assignment as its responsibilities.
//
// Everything is computed in log space (log N, log-sum-exp), so that densities far below
// the smallest double do not turn into 0/0.
#pragma once

#include <kexp/error.hpp>

#include <armadillo>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace kexp_kernels {

struct DiagonalMixture {
  arma::vec weights;    ///< wᵢ, G
  arma::mat means;      ///< μᵢ, d × G
  arma::mat variances;  ///< vᵢ, d × G

  [[nodiscard]] arma::uword components() const { return weights.n_elem; }

  /// log wᵢ + log N(xₖ; μᵢ, diag vᵢ), G × n.
  [[nodiscard]] arma::mat log_joint(const arma::mat& X) const {
    const arma::uword G = components(), d = X.n_rows;
    arma::mat out(G, X.n_cols);
    const double log_2pi = std::log(2.0 * arma::datum::pi);
    for (arma::uword i = 0; i < G; ++i) {
      const arma::vec inv = 1.0 / variances.col(i);
      const double constant =
          std::log(weights[i]) -
          0.5 * (static_cast<double>(d) * log_2pi + arma::accu(arma::log(variances.col(i))));
      const arma::mat centred = X.each_col() - means.col(i);
      // −½ Σⱼ (xⱼ − μᵢⱼ)² / vᵢⱼ for every column at once
      out.row(i) = constant - 0.5 * (inv.t() * arma::square(centred));
    }
    return out;
  }

  /// The responsibilities γᵢ(xₖ) = p(i | xₖ), G × n, and log p(xₖ) in `log_p` (n).
  [[nodiscard]] arma::mat responsibilities(const arma::mat& X, arma::vec& log_p) const {
    arma::mat L = log_joint(X);
    log_p.set_size(X.n_cols);
    for (arma::uword k = 0; k < X.n_cols; ++k) {
      const double top = L.col(k).max();
      const double lse = top + std::log(arma::accu(arma::exp(L.col(k) - top)));
      log_p[k] = lse;
      L.col(k) = arma::exp(L.col(k) - lse);
    }
    return L;
  }

  /// log p(xₖ) for each column.
  [[nodiscard]] arma::vec log_likelihood(const arma::mat& X) const {
    arma::vec log_p;
    (void)responsibilities(X, log_p);
    return log_p;
  }
};

struct MixtureFitOptions {
  arma::uword components = 1;
  long iterations = 100;    ///< at most this many EM iterations
  double tolerance = 1e-8;  ///< stop when the mean log-likelihood rises by less
  double variance_floor = 1e-3;
  std::uint64_t seed = 0;
};

struct MixtureFit {
  DiagonalMixture model;
  /// The mean log-likelihood (1/n) Σₖ log p(xₖ) of the model after each M-step.
  std::vector<double> log_likelihood;
  bool converged = false;
};

namespace detail {

/// The M-step from responsibilities `gamma` (G × n), into `m` whose means and variances
/// are already sized: the maximum-likelihood weights, means and floored variances. A
/// component with no responsibility left keeps its mean and
/// variances (they no longer affect the likelihood) and a weight of the smallest normal
/// double, so that its log stays finite.
inline void maximise(const arma::mat& X, const arma::mat& gamma, const arma::vec& floor,
                     DiagonalMixture& m) {
  const arma::uword G = gamma.n_rows;
  const double n = static_cast<double>(X.n_cols);
  m.weights.set_size(G);
  const arma::vec N = arma::sum(gamma, 1);
  for (arma::uword i = 0; i < G; ++i) {
    m.weights[i] = std::max(N[i] / n, std::numeric_limits<double>::min());
    if (N[i] <= 1e-12 * n) continue;
    const arma::vec mean = X * gamma.row(i).t() / N[i];
    const arma::mat centred = X.each_col() - mean;
    const arma::vec var = arma::square(centred) * gamma.row(i).t() / N[i];
    m.means.col(i) = mean;
    m.variances.col(i) = arma::max(var, floor);
  }
  m.weights /= arma::accu(m.weights);
}

/// k-means++ centres: indices of `G` columns of X.
inline std::vector<arma::uword> kmeanspp(const arma::mat& X, arma::uword G, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const arma::uword n = X.n_cols;
  std::vector<arma::uword> centres;
  centres.push_back(std::uniform_int_distribution<arma::uword>(0, n - 1)(rng));
  arma::vec nearest = arma::sum(arma::square(X.each_col() - X.col(centres[0])), 0).t();
  while (centres.size() < G) {
    const double total = arma::accu(nearest);
    arma::uword next = 0;
    if (total > 0) {
      double u = std::uniform_real_distribution<double>(0.0, total)(rng);
      for (next = 0; next + 1 < n; ++next) {
        u -= nearest[next];
        if (u < 0 && nearest[next] > 0) break;
      }
    } else {
      next = std::uniform_int_distribution<arma::uword>(0, n - 1)(rng);  // all points equal
    }
    centres.push_back(next);
    nearest = arma::min(nearest, arma::sum(arma::square(X.each_col() - X.col(next)), 0).t());
  }
  return centres;
}

}  // namespace detail

/// Fits a G-component diagonal mixture to the columns of X (d × n) by EM from a k-means++
/// start. Throws kexp::InvalidArgument when there are fewer samples than components.
inline MixtureFit fit_mixture(const arma::mat& X, const MixtureFitOptions& options) {
  const arma::uword G = options.components, n = X.n_cols;
  if (G < 1 || n < G) {
    throw kexp::InvalidArgument("a mixture of " + std::to_string(G) +
                                " components needs at least as many training " +
                                "samples, and got " + std::to_string(n) + "; lower `components`");
  }
  // The floor: a fraction of each feature's variance over the sample (a feature that is
  // constant gets the fraction of 1, so that its density stays finite).
  arma::vec floor = arma::var(X, 1, 1);
  floor.transform([](double v) { return v > 0 ? v : 1.0; });
  floor *= options.variance_floor;

  // Start: each sample to its nearest k-means++ centre.
  const std::vector<arma::uword> centres = detail::kmeanspp(X, G, options.seed);
  arma::mat distances(G, n);
  for (arma::uword i = 0; i < G; ++i) {
    distances.row(i) = arma::sum(arma::square(X.each_col() - X.col(centres[i])), 0);
  }
  arma::mat gamma(G, n, arma::fill::zeros);
  for (arma::uword k = 0; k < n; ++k) gamma(distances.col(k).index_min(), k) = 1.0;

  MixtureFit fit;
  fit.model.means = X.cols(arma::uvec(std::vector<arma::uword>(centres)));
  fit.model.variances = arma::repmat(floor, 1, G);
  detail::maximise(X, gamma, floor, fit.model);
  arma::vec log_p;
  for (long it = 0; it < options.iterations; ++it) {
    gamma = fit.model.responsibilities(X, log_p);
    const double mean_ll = arma::mean(log_p);
    if (!fit.log_likelihood.empty() &&
        mean_ll - fit.log_likelihood.back() <
            options.tolerance * std::max(1.0, std::abs(fit.log_likelihood.back()))) {
      fit.log_likelihood.push_back(mean_ll);
      fit.converged = true;
      break;
    }
    fit.log_likelihood.push_back(mean_ll);
    detail::maximise(X, gamma, floor, fit.model);
  }
  if (!fit.converged) fit.log_likelihood.push_back(arma::mean(fit.model.log_likelihood(X)));
  return fit;
}

/// The Fisher score g(x) = ∇_θ log p(x | θ) of every column of X, D × n with
/// D = (G − 1) + 2·G·d, in the order: the weights' logits a₁ … a_{G−1} (wᵢ = e^{aᵢ} / Σ e^{a},
/// a_G = 0), then for each component i its means μᵢ₁ … μᵢd, then its variances vᵢ₁ … vᵢd:
///   ∂/∂aᵢ = γᵢ − wᵢ,   ∂/∂μᵢⱼ = γᵢ (xⱼ − μᵢⱼ) / vᵢⱼ,
///   ∂/∂vᵢⱼ = γᵢ ((xⱼ − μᵢⱼ)² / vᵢⱼ² − 1 / vᵢⱼ) / 2.
inline arma::mat fisher_scores(const DiagonalMixture& m, const arma::mat& X) {
  const arma::uword G = m.components(), d = X.n_rows;
  arma::vec log_p;
  const arma::mat gamma = m.responsibilities(X, log_p);
  arma::mat S(G - 1 + 2 * G * d, X.n_cols);
  for (arma::uword i = 0; i + 1 < G; ++i) S.row(i) = gamma.row(i) - m.weights[i];
  for (arma::uword i = 0; i < G; ++i) {
    const arma::uword at = G - 1 + 2 * i * d;
    const arma::mat scaled = (X.each_col() - m.means.col(i)).eval().each_col() / m.variances.col(i);
    arma::mat mean_part = scaled.each_row() % gamma.row(i);
    arma::mat var_part = arma::square(scaled).eval().each_col() - 1.0 / m.variances.col(i);
    var_part.each_row() %= 0.5 * gamma.row(i);
    S.rows(at, at + d - 1) = mean_part;
    S.rows(at + d, at + 2 * d - 1) = var_part;
  }
  return S;
}

}  // namespace kexp_kernels
