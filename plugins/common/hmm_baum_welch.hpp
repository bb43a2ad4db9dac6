// Fitting a hidden Markov model (common/hmm_model.hpp) to sequences: Baum–Welch, and the
// forward–backward recursions of its E-step, which the Fisher scores
// (common/hmm_kernels.hpp) share.
//
// The forward recursion, rescaled at every step (Rabiner 1989),
//   α̂₁(j) ∝ π_j B(j, x₁),   α̂_{t+1}(j) ∝ [Σᵢ α̂_t(i) A(i, j)] B(j, x_{t+1}),
// each α̂_t normalised to sum 1 by its scale c_t, so that log p(x | θ) = Σ_t log c_t and
// nothing underflows however long the sequence. The backward recursion is rescaled by
// the same c_t:
//   β̂_L(i) = 1,   β̂_t(i) = Σ_j A(i, j) B(j, x_{t+1}) β̂_{t+1}(j) / c_{t+1},
// which gives the posteriors
//   γ_t(i) = p(z_t = i | x) = α̂_t(i) β̂_t(i),
//   ξ_t(i, j) = p(z_t = i, z_{t+1} = j | x) = α̂_t(i) A(i, j) B(j, x_{t+1}) β̂_{t+1}(j) / c_{t+1}.
//
// Fitting: Baum–Welch (expectation–maximisation) over a set of sequences, from a random
// model. With a pseudo-count λ ≥ 0 added to every expected count,
//   π_i ∝ Σ_x γ₁(i) + λ,   A(i, j) ∝ Σ_x Σ_{t<L} ξ_t(i, j) + λ,
//   B(i, s) ∝ Σ_x Σ_t γ_t(i) [x_t = s] + λ,
// the M-step is the maximum a posteriori step under a Dirichlet(1 + λ) prior on π and on
// every row of A and B, so no probability becomes exactly 0 for λ > 0. What each
// iteration cannot lower is then the log-posterior
//   Σ_x log p(x | θ) + λ (Σᵢ log πᵢ + Σᵢⱼ log A(i, j) + Σᵢₛ log B(i, s))
// (up to the prior's constant), not the log-likelihood alone; for λ = 0 the two agree.
#pragma once

#include <algorithm>
#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/hmm_model.hpp"

namespace kexp_kernels {

/// The expected counts of one E-step: Σ γ₁(i), Σ_{t<L} ξ_t(i, j) and Σ_t γ_t(i) [x_t = s]
/// over the sequences added, and the sum of their log p(x | θ).
struct ExpectedCounts {
  arma::vec initial;      ///< S
  arma::mat transitions;  ///< S × S
  arma::mat emissions;    ///< S × M
  double log_likelihood = 0;

  void zeros(arma::uword S, arma::uword M) {
    initial.zeros(S);
    transitions.zeros(S, S);
    emissions.zeros(S, M);
    log_likelihood = 0;
  }
  void add(const ExpectedCounts& other) {
    initial += other.initial;
    transitions += other.transitions;
    emissions += other.emissions;
    log_likelihood += other.log_likelihood;
  }
};

namespace detail {

/// Adds the expected counts of x₀ … x_{L−1} under m to `counts` by the scaled
/// forward–backward recursions (header comment) and returns log p(x | m); returns −∞ and
/// adds nothing when p(x | m) = 0. The symbols must be below M. `work` is scratch space,
/// grown to (S + 1)·L + 2S.
double add_expected_counts(const Hmm& m, const unsigned* x, std::size_t L, ExpectedCounts& counts,
                           std::vector<double>& work);

/// How many blocks the sequences are shared among for the parallel E-step and scores: a
/// number fixed in advance, so that sums over blocks are added in the same order
/// whatever the number of threads.
inline std::size_t block_count(std::size_t n) { return std::min<std::size_t>(n, 64); }

}  // namespace detail

/// λ (Σᵢ log πᵢ + Σᵢⱼ log A(i, j) + Σᵢₛ log B(i, s)): the log of the Dirichlet(1 + λ) prior
/// of the Baum–Welch M-step, up to its constant; 0 for λ = 0.
double log_prior(const Hmm& m, double pseudo_count);

struct BaumWelchOptions {
  arma::uword states = 2;
  arma::uword symbols = 2;
  int iterations = 100;     ///< at most this many M-steps
  double tolerance = 1e-6;  ///< stop when the objective rises by less than this × |objective|
  std::uint64_t seed = 0;   ///< of the random start, random_hmm(states, symbols, seed)
  /// λ, added to every expected count of π, A and B in each M-step (a Dirichlet(1 + λ)
  /// prior, header comment) so that no probability becomes exactly 0. 0 gives maximum
  /// likelihood.
  double pseudo_count = 1e-3;
};

struct BaumWelchResult {
  Hmm model;
  /// Σ_x log p(x | θ) over the training set for the start and after each M-step:
  /// iterations + 1 values, the last one the returned model's.
  std::vector<double> log_likelihoods;
  /// The objective EM raises, log_likelihoods[k] + log_prior(θ_k, λ): never lower than
  /// the one before it (to rounding). The same as log_likelihoods for λ = 0.
  std::vector<double> log_posteriors;
  int iterations = 0;  ///< M-steps done
  bool converged = false;
};

/// Fits an HMM of options.states states and options.symbols symbols to the training
/// sequences (each of its own length) by Baum–Welch from random_hmm(states, symbols,
/// seed): E-steps of expected counts summed over every sequence, M-steps as in the header
/// comment. Stops after options.iterations M-steps, or when the log-posterior (the
/// log-likelihood plus the log-prior of the pseudo-count, which each iteration cannot
/// lower) rises by less than tolerance × |log-posterior|; then `converged` is set.
/// Deterministic: the same options and sequences give the same model, whatever the
/// number of threads. Throws kexp::InvalidArgument for a bad option, no training
/// sequence, or a symbol not below options.symbols.
BaumWelchResult baum_welch(const Sequences& training, const BaumWelchOptions& options);

}  // namespace kexp_kernels
