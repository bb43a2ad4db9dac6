// Baum–Welch and the forward–backward recursions (common/hmm_baum_welch.hpp).
#include "common/hmm_baum_welch.hpp"

#include <kexp/error.hpp>
#include <kexp/parallel.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace kexp_kernels {

namespace detail {

double add_expected_counts(const Hmm& m, const unsigned* x, std::size_t L, ExpectedCounts& counts,
                           std::vector<double>& work) {
  if (L == 0) return 0.0;
  const arma::uword S = m.states();
  if (work.size() < (S + 1) * L + 2 * S) work.resize((S + 1) * L + 2 * S);
  double* const alpha = work.data();  // α̂_t at alpha + t·S
  double* const scale = alpha + S * L;
  double* const beta = scale + L;
  double* const w = beta + S;
  const double* A = m.A.memptr();
  double log_p = 0;
  for (std::size_t t = 0; t < L; ++t) {
    double* a = alpha + t * S;
    const double* b = m.B.colptr(x[t]);
    if (t == 0) {
      for (arma::uword j = 0; j < S; ++j) a[j] = m.pi[j] * b[j];
    } else {
      const double* previous = a - S;
      for (arma::uword j = 0; j < S; ++j) {
        const double* column = A + j * S;
        double sum = 0;
        for (arma::uword i = 0; i < S; ++i) sum += previous[i] * column[i];
        a[j] = sum * b[j];
      }
    }
    double c = 0;
    for (arma::uword j = 0; j < S; ++j) c += a[j];
    if (!(c > 0)) return -std::numeric_limits<double>::infinity();
    for (arma::uword j = 0; j < S; ++j) a[j] /= c;
    scale[t] = c;
    log_p += std::log(c);
  }
  // γ_L = α̂_L (β̂_L = 1)
  for (arma::uword i = 0; i < S; ++i) beta[i] = 1.0;
  const double* last = alpha + (L - 1) * S;
  for (arma::uword i = 0; i < S; ++i) counts.emissions(i, x[L - 1]) += last[i];
  for (std::size_t t = L - 1; t-- > 0;) {
    // w(j) = B(j, x_{t+1}) β̂_{t+1}(j) / c_{t+1}; ξ_t(i, j) = α̂_t(i) A(i, j) w(j)
    const double* b = m.B.colptr(x[t + 1]);
    for (arma::uword j = 0; j < S; ++j) w[j] = b[j] * beta[j] / scale[t + 1];
    const double* a = alpha + t * S;
    for (arma::uword i = 0; i < S; ++i) beta[i] = 0.0;
    for (arma::uword j = 0; j < S; ++j) {
      const double* column = A + j * S;
      double* xi = counts.transitions.colptr(j);
      for (arma::uword i = 0; i < S; ++i) {
        const double aw = column[i] * w[j];
        xi[i] += a[i] * aw;
        beta[i] += aw;  // β̂_t(i) = Σ_j A(i, j) w(j)
      }
    }
    for (arma::uword i = 0; i < S; ++i) counts.emissions(i, x[t]) += a[i] * beta[i];
  }
  for (arma::uword i = 0; i < S; ++i) counts.initial[i] += alpha[i] * beta[i];
  counts.log_likelihood += log_p;
  return log_p;
}

namespace {

/// The E-step: the expected counts of every training sequence under m, summed over fixed
/// blocks in parallel and then block after block. Throws kexp::NumericError if a
/// sequence has probability 0.
ExpectedCounts expected_counts(const Hmm& m, const Sequences& X) {
  const arma::uword S = m.states(), M = m.symbols();
  const std::size_t n = X.size(), blocks = block_count(n);
  std::vector<ExpectedCounts> partial(blocks);
  kexp::parallel_for(
      blocks,
      [&](std::size_t k) {
        ExpectedCounts& counts = partial[k];
        counts.zeros(S, M);
        std::vector<double> work;
        for (std::size_t j = k * n / blocks; j < (k + 1) * n / blocks; ++j) {
          const double log_p = add_expected_counts(m, X.data(j), X.length(j), counts, work);
          if (std::isinf(log_p)) {
            throw kexp::NumericError("training sequence " + std::to_string(j) +
                                     " has probability 0 under the HMM being fitted (it needs a "
                                     "transition or emission of probability 0); give "
                                     "pseudo_count > 0");
          }
        }
      },
      kexp::Schedule::Dynamic);
  ExpectedCounts total;
  total.zeros(S, M);
  for (const ExpectedCounts& counts : partial) total.add(counts);
  return total;
}

/// The M-step into m: every row of counts + λ, divided by its sum. A row with no count
/// at all (λ = 0 and a state never visited) keeps its values, which the likelihood then
/// does not depend on.
void maximise(const ExpectedCounts& counts, double pseudo_count, Hmm& m) {
  const auto normalise = [pseudo_count](auto&& counts_row, auto&& row) {
    const double total = arma::accu(counts_row) + pseudo_count * counts_row.n_elem;
    if (total > 0) row = (counts_row + pseudo_count) / total;
  };
  normalise(counts.initial, m.pi);
  for (arma::uword i = 0; i < m.states(); ++i) {
    normalise(counts.transitions.row(i), m.A.row(i));
    normalise(counts.emissions.row(i), m.B.row(i));
  }
}

}  // namespace

}  // namespace detail

double log_prior(const Hmm& m, double pseudo_count) {
  if (pseudo_count == 0) return 0.0;
  return pseudo_count *
         (arma::accu(arma::log(m.pi)) + arma::accu(arma::log(m.A)) + arma::accu(arma::log(m.B)));
}

BaumWelchResult baum_welch(const Sequences& training, const BaumWelchOptions& options) {
  const arma::uword S = options.states, M = options.symbols;
  const double lambda = options.pseudo_count;
  if (S == 0 || M == 0) {
    throw kexp::InvalidArgument(
        "Baum-Welch needs at least one state and one symbol, got states = " + std::to_string(S) +
        ", symbols = " + std::to_string(M));
  }
  if (options.iterations < 0) {
    throw kexp::InvalidArgument("Baum-Welch iterations must be >= 0, got " +
                                std::to_string(options.iterations));
  }
  if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance)) {
    throw kexp::InvalidArgument("Baum-Welch tolerance must be finite and >= 0, got " +
                                detail::hmm_number(options.tolerance));
  }
  if (!(lambda >= 0) || !std::isfinite(lambda)) {
    throw kexp::InvalidArgument("Baum-Welch pseudo_count must be finite and >= 0, got " +
                                detail::hmm_number(lambda));
  }
  if (training.size() == 0) {
    throw kexp::InvalidArgument("Baum-Welch needs at least one training sequence, got none");
  }
  detail::require_symbols_below(training, M, "the training set");

  BaumWelchResult result;
  result.model = random_hmm(S, M, options.seed);
  for (int it = 0;; ++it) {
    const ExpectedCounts counts = detail::expected_counts(result.model, training);
    const double objective = counts.log_likelihood + log_prior(result.model, lambda);
    const bool small_rise =
        !result.log_posteriors.empty() &&
        objective - result.log_posteriors.back() < options.tolerance * std::abs(objective);
    result.log_likelihoods.push_back(counts.log_likelihood);
    result.log_posteriors.push_back(objective);
    if (small_rise) {
      result.converged = true;
      break;
    }
    if (it == options.iterations) break;
    detail::maximise(counts, lambda, result.model);
    result.iterations = it + 1;
  }
  return result;
}

}  // namespace kexp_kernels
