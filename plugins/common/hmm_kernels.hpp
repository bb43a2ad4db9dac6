// The math of the kernels of a hidden Markov model (common/hmm_model.hpp): the forward
// recursion and the likelihood, the marginal kernel, and the Fisher scores.
//
// Likelihood: the forward recursion, rescaled at every step (Rabiner 1989),
//   α̂₁(j) ∝ π_j B(j, x₁),   α̂_{t+1}(j) ∝ [Σᵢ α̂_t(i) A(i, j)] B(j, x_{t+1}),
// each α̂_t normalised to sum 1 by its scale c_t, so that log p(x | θ) = Σ_t log c_t and
// nothing underflows however long the sequence.
//
// The marginal kernel: both sequences emitted along one hidden path Z,
//   k(x, x') = Σ_Z p(x | Z) p(x' | Z) p(Z),
// the inner product of φ(x) = (√p(Z) p(x | Z))_Z and φ(x'), so positive semi-definite;
// defined for sequences of equal length. It is the forward recursion of the pair,
//   α₁(j) = π_j B(j, x₁) B(j, x'₁),
//   α_{t+1}(j) = [Σᵢ α_t(i) A(i, j)] B(j, x_{t+1}) B(j, x'_{t+1}),   k = Σ_j α_L(j),
// O(L S²) per pair, computed as log k.
//
// The Fisher score (Jaakkola and Haussler 1999): the gradient of log p(x | θ) in the
// softmax parameters B(i, s) = e^{b_is} / Σ_s' e^{b_is'}, A(i, j) = e^{a_ij} / Σ_j' e^{a_ij'},
//   ∂ log p / ∂b_is = Σ_t γ_t(i) ([x_t = s] − B(i, s)),
//   ∂ log p / ∂a_ij = Σ_{t<L} ξ_t(i, j) − A(i, j) Σ_{t<L} γ_t(i).
// π is not a parameter of the score. The posteriors γ and ξ they sum come from the
// forward–backward recursions of common/hmm_baum_welch.hpp.
#pragma once

#include <armadillo>
#include <cstddef>

#include "common/hmm_baum_welch.hpp"
#include "common/hmm_model.hpp"

namespace kexp_kernels {

/// log p(x | m) for x₀ … x_{L−1} by the scaled forward recursion (header comment): no
/// underflow however long x is. 0 for L = 0; −∞ when x has probability 0.
double log_likelihood(const Hmm& m, const unsigned* x, std::size_t L);

/// log k(x, z) of the marginal kernel (header comment) for two sequences of length L, by
/// the pair's forward recursion normalised at every step with the logs of the scales
/// summed: no underflow however long the sequences. 0 for L = 0; −∞ when no hidden path
/// can emit both.
double log_marginal_kernel(const Hmm& m, const unsigned* x, const unsigned* z, std::size_t L);

/// log k(x, z) for sequences of lengths Lx and Lz: throws kexp::InvalidArgument, with
/// both lengths, unless they are equal.
double log_marginal_kernel(const Hmm& m, const unsigned* x, std::size_t Lx, const unsigned* z,
                           std::size_t Lz);

/// logK(i, j) = log k(Xᵢ, Zⱼ), n × m, in parallel over the columns. Every sequence of X
/// and Z must have the same length (kexp::InvalidArgument otherwise, before any work).
void marginal_gram(const Hmm& m, const Sequences& X, const Sequences& Z, arma::mat& logK);

/// logK(i, j) = log k(Xᵢ, Xⱼ), n × n: the lower triangle computed (in parallel over the
/// columns), the upper one copied from it, so logK is exactly symmetric.
void marginal_gram_symmetric(const Hmm& m, const Sequences& X, arma::mat& logK);

/// The number of Fisher scores: S·M, plus S·S with the transitions.
inline std::size_t fisher_dimension(arma::uword S, arma::uword M, bool transitions) {
  return S * M + (transitions ? S * S : 0);
}

/// The Fisher scores (header comment) of every sequence of X, D × n with D =
/// fisher_dimension(S, M, transitions): the S·M emission scores ∂/∂b_is in the order
/// (0, 0), (0, 1), … (row by row of B), then with `transitions` the S·S scores ∂/∂a_ij row
/// by row of A. A sequence of length 0 scores 0. In parallel over the sequences. Throws
/// kexp::InvalidArgument for a sequence of probability 0 under m, whose score is not
/// defined.
void fisher_scores(const Hmm& m, const Sequences& X, bool transitions, arma::mat& G);

}  // namespace kexp_kernels
