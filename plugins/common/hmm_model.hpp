// A discrete hidden Markov model with S states and M symbols: the generative model of the
// `hmm` sequence generator and of the `hmm_marginal` and `hmm_fisher` kernels, its checks,
// the encoding of its sequences, and sequences drawn from it.
//
// The model θ = (π, A, B): a hidden path z₁ … z_L of states and the symbols x₁ … x_L it
// emits, with
//   p(x, z | θ) = π_{z₁} B(z₁, x₁) Π_{t=2…L} A(z_{t−1}, z_t) B(z_t, x_t),
// π the initial state probabilities (S), A(i, j) = p(z_{t+1} = j | z_t = i) (S × S) and
// B(i, s) = p(x_t = s | z_t = i) (S × M), each row of A and B summing to 1.
//
// Sequences. A sequence dataset is an L × n matrix, one sequence per column: its symbols
// 0 … M − 1 (as doubles), then −1 in every row past its end (kexp/dataset.hpp).
// sequences_of() checks that encoding once and stores every sequence as unsigned symbols in
// one flat array with offsets; the numerics (common/hmm_baum_welch.hpp,
// common/hmm_kernels.hpp) read them through raw pointers.
//
// The model file is read by common/hmm_file.hpp.
#pragma once

#include <algorithm>
#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace kexp_kernels {

namespace detail {

/// A number as the messages show it: shortest form, up to 15 significant digits.
std::string hmm_number(double v);

}  // namespace detail

struct Hmm {
  arma::vec pi;  ///< S, initial state probabilities
  arma::mat A;   ///< S × S, A(i, j) = p(z_{t+1} = j | z_t = i), rows sum to 1
  arma::mat B;   ///< S × M, B(i, s) = p(x_t = s | z_t = i), rows sum to 1

  [[nodiscard]] arma::uword states() const { return pi.n_elem; }
  [[nodiscard]] arma::uword symbols() const { return B.n_cols; }

  /// Throws kexp::InvalidArgument naming what is wrong unless there is at least one state
  /// and one symbol, A is S × S and B has S rows, every entry is finite and in [0, 1], and
  /// π and each row of A and B sum to 1 within 1e-6.
  void check() const;
};

/// Sequences of symbols stored once: every symbol in one flat array, sequence j from
/// offset j to offset j + 1.
class Sequences {
 public:
  [[nodiscard]] std::size_t size() const { return offsets_.size() - 1; }
  [[nodiscard]] std::size_t length(std::size_t j) const { return offsets_[j + 1] - offsets_[j]; }
  /// The symbols of sequence j, length(j) of them.
  [[nodiscard]] const unsigned* data(std::size_t j) const {
    return all_symbols_.data() + offsets_[j];
  }
  /// The symbols of every sequence, one after the other.
  [[nodiscard]] const std::vector<unsigned>& all_symbols() const { return all_symbols_; }
  [[nodiscard]] std::size_t max_length() const {
    std::size_t L = 0;
    for (std::size_t j = 0; j < size(); ++j) L = std::max(L, length(j));
    return L;
  }

  void reserve(std::size_t sequences, std::size_t symbols) {
    offsets_.reserve(sequences + 1);
    all_symbols_.reserve(symbols);
  }
  /// Appends the sequence x₀ … x_{L−1}.
  void push_back(const unsigned* x, std::size_t L) {
    all_symbols_.insert(all_symbols_.end(), x, x + L);
    offsets_.push_back(all_symbols_.size());
  }
  void push_back(const std::vector<unsigned>& x) { push_back(x.data(), x.size()); }

 private:
  std::vector<unsigned> all_symbols_;
  std::vector<std::size_t> offsets_{0};
};

namespace detail {

/// The length of the sequence in column j of X (rows before the first −1), after checking
/// every row of the column: an integer in [0, M) before the first −1, only −1 after it.
std::size_t checked_length(const arma::mat& X, arma::uword j, arma::uword M);

/// Throws kexp::InvalidArgument unless every symbol of `X` is below M. `name` names the
/// set in the message.
void require_symbols_below(const Sequences& X, arma::uword M, const char* name);

/// Throws kexp::InvalidArgument unless every symbol of x₀ … x_{L−1} is below m's M.
void require_symbols_below(const Hmm& m, const unsigned* x, std::size_t L);

}  // namespace detail

/// The sequence in column j of X: its values up to the first −1, as symbols. Throws
/// kexp::InvalidArgument, naming the column and row, for a value that is not an integer
/// in [0, M) or −1, or anything but −1 after the first −1.
std::vector<unsigned> sequence_of(const arma::mat& X, arma::uword j, arma::uword M);

/// Every column of X as a sequence (see sequence_of), checked once and stored together.
Sequences sequences_of(const arma::mat& X, arma::uword M);

namespace detail {

/// A uniform double in (0, 1), never 0 or 1, from the top 52 bits k of one draw:
/// (k + ½)·2^−52, exact in a double. The same on every platform, since the standard
/// fixes mt19937_64's output (not its distributions').
inline double open_uniform(std::mt19937_64& engine) {
  return (static_cast<double>(engine() >> 12U) + 0.5) * 0x1p-52;
}

/// A draw from the categorical distribution p (n entries summing to 1, stride `stride`
/// between them): the first index whose cumulative probability exceeds a uniform draw.
inline unsigned draw_categorical(const double* p, std::size_t n, std::size_t stride,
                                 std::mt19937_64& engine) {
  const double u = open_uniform(engine);
  double cumulative = 0;
  std::size_t last = 0;  // the last index of non-zero probability, against rounding
  for (std::size_t i = 0; i < n; ++i) {
    const double q = p[i * stride];
    if (q <= 0) continue;
    cumulative += q;
    last = i;
    if (u < cumulative) return static_cast<unsigned>(i);
  }
  return static_cast<unsigned>(last);
}

}  // namespace detail

/// A model drawn at random: π, then each row of A in order, then each row of B, from a
/// flat Dirichlet (independent Exp(1) draws, normalised), with std::mt19937_64(seed). The
/// same seed gives the same model on every platform. Every probability is > 0.
Hmm random_hmm(arma::uword S, arma::uword M, std::uint64_t seed);

/// One sequence of length L drawn from the model into out[0 … L): z₁ from π, each x_t from
/// B(z_t, ·) and each z_{t+1} from A(z_t, ·), one uniform draw of `engine` for each. `Symbol`
/// is unsigned, or double for a column of a dataset's X (no allocation per sequence).
template <class Symbol>
void sample_into(const Hmm& m, std::size_t L, std::mt19937_64& engine, Symbol* out) {
  const arma::uword S = m.states(), M = m.symbols();
  if (L == 0) return;
  unsigned z = detail::draw_categorical(m.pi.memptr(), S, 1, engine);
  for (std::size_t t = 0; t < L; ++t) {
    if (t > 0) z = detail::draw_categorical(&m.A(z, 0), S, S, engine);
    out[t] = static_cast<Symbol>(detail::draw_categorical(&m.B(z, 0), M, S, engine));
  }
}

/// One sequence of length L drawn from the model (sample_into).
std::vector<unsigned> sample(const Hmm& m, std::size_t L, std::mt19937_64& engine);

}  // namespace kexp_kernels
