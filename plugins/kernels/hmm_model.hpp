// A discrete hidden Markov model with S states and M symbols: the generative model of the
// `hmm` sequence generator and of the `hmm_marginal` and `hmm_fisher` kernels.
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
// one flat array with offsets; the numerics below read them through raw pointers.
//
// Likelihood: the forward recursion, rescaled at every step (Rabiner 1989),
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
// π is not a parameter of the score.
#pragma once

#include <kexp/error.hpp>
#include <kexp/parallel.hpp>

#include <algorithm>
#include <armadillo>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kexp_kernels {

namespace detail {

/// A number as the messages show it: shortest form, up to 15 significant digits.
inline std::string hmm_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

/// Throws kexp::InvalidArgument unless every entry of P is finite and in [0, 1] and,
/// when `rows` is set, each row sums to 1 within 1e-6; otherwise the one column (π).
/// `name` names the matrix in the message ("A", "B", "pi").
inline void check_stochastic(const arma::mat& P, const std::string& name, bool rows) {
  for (arma::uword j = 0; j < P.n_cols; ++j) {
    for (arma::uword i = 0; i < P.n_rows; ++i) {
      const double v = P(i, j);
      if (!(v >= 0.0 && v <= 1.0)) {
        const std::string entry =
            rows ? "(" + std::to_string(i) + ", " + std::to_string(j) + ")" : std::to_string(i);
        throw kexp::InvalidArgument("the HMM's " + name + entry + " is " + hmm_number(v) +
                                    "; a probability must be in [0, 1]");
      }
    }
  }
  const arma::uword count = rows ? P.n_rows : P.n_cols;
  for (arma::uword r = 0; r < count; ++r) {
    const double sum = rows ? arma::accu(P.row(r)) : arma::accu(P.col(r));
    if (std::abs(sum - 1.0) > 1e-6) {
      throw kexp::InvalidArgument("the HMM's " + name +
                                  (rows ? " row " + std::to_string(r) : std::string()) +
                                  " sums to " + hmm_number(sum) + ", not 1");
    }
  }
}

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
  void check() const {
    const arma::uword S = states();
    if (S == 0) throw kexp::InvalidArgument("the HMM has no states: pi is empty");
    if (A.n_rows != S || A.n_cols != S) {
      throw kexp::InvalidArgument("the HMM's A is " + std::to_string(A.n_rows) + " × " +
                                  std::to_string(A.n_cols) + " and pi has " + std::to_string(S) +
                                  " states; A must be S × S");
    }
    if (B.n_rows != S || B.n_cols == 0) {
      throw kexp::InvalidArgument("the HMM's B is " + std::to_string(B.n_rows) + " × " +
                                  std::to_string(B.n_cols) + " and pi has " + std::to_string(S) +
                                  " states; B must be S × M with at least one symbol");
    }
    detail::check_stochastic(pi, "pi", false);
    detail::check_stochastic(A, "A", true);
    detail::check_stochastic(B, "B", true);
  }
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
inline std::size_t checked_length(const arma::mat& X, arma::uword j, arma::uword M) {
  const arma::uword rows = X.n_rows;
  const double* column = X.colptr(j);
  arma::uword r = 0;
  for (; r < rows && column[r] != -1.0; ++r) {
    const double v = column[r];
    if (!(v >= 0.0 && v < static_cast<double>(M) && v == std::floor(v))) {
      throw kexp::InvalidArgument("sequence column " + std::to_string(j) + ", row " +
                                  std::to_string(r) + " (counting from 0): " + hmm_number(v) +
                                  " is not a symbol; symbols are the integers 0 to " +
                                  std::to_string(M - 1) + ", and -1 marks the rows past the end");
    }
  }
  const arma::uword end = r;
  for (; r < rows; ++r) {
    if (column[r] != -1.0) {
      throw kexp::InvalidArgument("sequence column " + std::to_string(j) + ", row " +
                                  std::to_string(r) +
                                  " (counting from 0): " + hmm_number(column[r]) +
                                  " after the end of the sequence (the -1 in row " +
                                  std::to_string(end) + "); every row past the end must hold -1");
    }
  }
  return end;
}

/// Throws kexp::InvalidArgument unless every symbol of `X` is below M. `name` names the
/// set in the message.
inline void require_symbols_below(const Sequences& X, arma::uword M, const char* name) {
  for (std::size_t j = 0; j < X.size(); ++j) {
    const unsigned* x = X.data(j);
    for (std::size_t t = 0; t < X.length(j); ++t) {
      if (x[t] >= M) {
        throw kexp::InvalidArgument("sequence " + std::to_string(j) + " of " + name +
                                    " has symbol " + std::to_string(x[t]) + " at position " +
                                    std::to_string(t) +
                                    ", and the HMM has M = " + std::to_string(M) +
                                    " symbols (0 to " + std::to_string(M - 1) + ")");
      }
    }
  }
}

}  // namespace detail

/// The sequence in column j of X: its values up to the first −1, as symbols. Throws
/// kexp::InvalidArgument, naming the column and row, for a value that is not an integer
/// in [0, M) or −1, or anything but −1 after the first −1.
inline std::vector<unsigned> sequence_of(const arma::mat& X, arma::uword j, arma::uword M) {
  if (j >= X.n_cols) {
    throw kexp::InvalidArgument("sequence column " + std::to_string(j) + " does not exist: X has " +
                                std::to_string(X.n_cols) + " columns");
  }
  const std::size_t L = detail::checked_length(X, j, M);
  std::vector<unsigned> x(L);
  for (std::size_t t = 0; t < L; ++t) x[t] = static_cast<unsigned>(X(t, j));
  return x;
}

/// Every column of X as a sequence (see sequence_of), checked once and stored together.
inline Sequences sequences_of(const arma::mat& X, arma::uword M) {
  std::vector<std::size_t> lengths(X.n_cols);
  std::size_t total = 0;
  for (arma::uword j = 0; j < X.n_cols; ++j) total += lengths[j] = detail::checked_length(X, j, M);
  Sequences out;
  out.reserve(X.n_cols, total);
  std::vector<unsigned> x;
  for (arma::uword j = 0; j < X.n_cols; ++j) {
    x.resize(lengths[j]);
    const double* column = X.colptr(j);
    for (std::size_t t = 0; t < lengths[j]; ++t) x[t] = static_cast<unsigned>(column[t]);
    out.push_back(x);
  }
  return out;
}

namespace detail {

/// One line of a model file, split into words.
struct HmmFileWord {
  std::string_view text;
  int column = 0;  ///< from 1
};

inline std::vector<HmmFileWord> split_words(std::string_view line) {
  std::vector<HmmFileWord> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) {
      words.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
    }
  }
  return words;
}

/// A row of π, A or B as read, with the line it is on.
struct HmmFileRow {
  std::vector<double> values;
  int line = 0;
};

}  // namespace detail

/// Reads π, A and B from a text file of this form:
///
///   # a two-state model over three symbols
///   pi 0.6 0.4
///   A  0.9 0.1
///   A  0.2 0.8
///   B  0.5 0.3 0.2
///   B  0.1 0.1 0.8
///
/// One `pi` line with the S initial probabilities; S lines `A`, row i of A on the i-th
/// of them, S numbers each; S lines `B`, row i of B on the i-th, M numbers each. The lines
/// may come in any order (the rows of A in their order, and those of B in theirs). A `#`
/// starts a comment that runs to the end of the line; blank lines are ignored. Every
/// number is a probability in [0, 1], and π and each row sum to 1 within 1e-6; they are
/// then divided by their sum, so that they sum to 1 to rounding.
///
/// The file must be a regular file of at most 64 MiB. Throws kexp::DataError at the file
/// and line of the first thing that is wrong (an
/// unknown keyword, a word that is not a number, a probability out of [0, 1], a row not
/// summing to 1, a row of the wrong length, a second `pi` line, a block missing or with
/// the wrong number of rows), saying what to write instead. A missing block is reported
/// at the last line of the file.
inline Hmm read_hmm(const std::filesystem::path& file) {
  const std::string name = file.string();
  // Only a regular file of a size a model can have: never a pipe, a device or a folder.
  constexpr std::uintmax_t kMaxBytes = 64U << 20U;
  std::error_code ec;
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec)) {
    throw kexp::DataError(kexp::SourceLocation{name, 0, 0},
                          "the HMM file is not a regular file; name a text file");
  }
  if (std::filesystem::is_regular_file(file, ec) &&
      std::filesystem::file_size(file, ec) > kMaxBytes) {
    throw kexp::DataError(kexp::SourceLocation{name, 0, 0},
                          "the HMM file is larger than 64 MiB; a model of π, A and B is "
                          "far smaller: check that it names the right file");
  }
  std::ifstream in(file);
  if (!in) {
    throw kexp::DataError(kexp::SourceLocation{name, 0, 0},
                          "cannot open the HMM file; check its path and permissions");
  }
  std::optional<detail::HmmFileRow> pi;
  std::vector<detail::HmmFileRow> A_rows, B_rows;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    std::string_view line(text);
    line = line.substr(0, line.find('#'));
    const std::vector<detail::HmmFileWord> words = detail::split_words(line);
    if (words.empty()) continue;
    const std::string_view keyword = words[0].text;
    if (keyword != "pi" && keyword != "A" && keyword != "B") {
      throw kexp::DataError(kexp::SourceLocation{name, number, words[0].column},
                            "unknown keyword \"" + std::string(keyword) +
                                "\"; a line starts with pi, A or B (or # for a comment)");
    }
    if (words.size() == 1) {
      throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                            "the " + std::string(keyword) +
                                " line has no numbers; write its probabilities after the keyword");
    }
    detail::HmmFileRow row;
    row.line = number;
    for (std::size_t w = 1; w < words.size(); ++w) {
      const std::string_view word = words[w].text;
      double v = 0;
      const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), v);
      const kexp::SourceLocation at{name, number, words[w].column};
      if (error != std::errc() || end != word.data() + word.size()) {
        throw kexp::DataError(at, "\"" + std::string(word) + "\" is not a number; write " +
                                      std::string(keyword) + "'s probabilities as decimals");
      }
      if (!(v >= 0.0 && v <= 1.0)) {
        throw kexp::DataError(at, std::string(word) + " is not a probability; each number of " +
                                      std::string(keyword) + " must be in [0, 1]");
      }
      row.values.push_back(v);
    }
    double sum = 0;
    for (const double v : row.values) sum += v;
    if (std::abs(sum - 1.0) > 1e-6) {
      throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                            "this " + std::string(keyword) + " line sums to " +
                                detail::hmm_number(sum) + "; its probabilities must sum to 1");
    }
    for (double& v : row.values) v /= sum;
    if (keyword == "pi") {
      if (pi) {
        throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                              "a second pi line (the first is line " + std::to_string(pi->line) +
                                  "); write the initial probabilities once");
      }
      pi = std::move(row);
    } else {
      (keyword == "A" ? A_rows : B_rows).push_back(std::move(row));
    }
  }
  if (in.bad()) {
    throw kexp::DataError(kexp::SourceLocation{name, number, 0}, "reading the HMM file failed");
  }
  // A missing block is reported at the end of the file, where it would be added.
  if (!pi) {
    throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                          "no pi line; the file needs one line \"pi p1 ... pS\" with the "
                          "initial probabilities of the S states");
  }
  const std::size_t S = pi->values.size();
  const std::string states = "pi (line " + std::to_string(pi->line) +
                             ") gives S = " + std::to_string(S) + (S == 1 ? " state" : " states");
  const auto check_rows = [&](const std::vector<detail::HmmFileRow>& rows, const char* block,
                              const char* what) {
    if (rows.empty()) {
      throw kexp::DataError(kexp::SourceLocation{name, number, 0},
                            std::string("no ") + block + " lines; " + states + ", so write " +
                                std::to_string(S) + " lines \"" + block + " ...\", one per " +
                                "state, with " + what);
    }
    if (rows.size() != S) {
      const int line = rows.size() > S ? rows[S].line : rows.back().line;
      throw kexp::DataError(kexp::SourceLocation{name, line, 0},
                            std::string(block) + " has " + std::to_string(rows.size()) +
                                (rows.size() == 1 ? " row" : " rows") + " and " + states +
                                "; write one " + block + " line per state");
    }
  };
  check_rows(A_rows, "A", "the S probabilities of moving from that state to each state");
  check_rows(B_rows, "B", "the M probabilities of emitting each symbol in that state");
  for (const detail::HmmFileRow& row : A_rows) {
    if (row.values.size() != S) {
      throw kexp::DataError(kexp::SourceLocation{name, row.line, 0},
                            "this row of A has " + std::to_string(row.values.size()) +
                                " numbers and " + states +
                                "; each row of A needs one probability per state");
    }
  }
  const std::size_t M = B_rows.front().values.size();
  for (const detail::HmmFileRow& row : B_rows) {
    if (row.values.size() != M) {
      throw kexp::DataError(kexp::SourceLocation{name, row.line, 0},
                            "this row of B has " + std::to_string(row.values.size()) +
                                " numbers and the first (line " +
                                std::to_string(B_rows.front().line) + ") has " + std::to_string(M) +
                                "; each row of B needs one probability per symbol");
    }
  }
  Hmm m;
  m.pi = arma::vec(pi->values);
  m.A.set_size(S, S);
  m.B.set_size(S, M);
  for (std::size_t i = 0; i < S; ++i) {
    for (std::size_t j = 0; j < S; ++j) m.A(i, j) = A_rows[i].values[j];
    for (std::size_t s = 0; s < M; ++s) m.B(i, s) = B_rows[i].values[s];
  }
  return m;
}

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

/// A flat Dirichlet draw: n independent Exp(1) = −log U, divided by their sum, written
/// `stride` apart.
inline void draw_flat_dirichlet(double* out, std::size_t n, std::size_t stride,
                                std::mt19937_64& engine) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += out[i * stride] = -std::log(open_uniform(engine));
  for (std::size_t i = 0; i < n; ++i) out[i * stride] /= sum;
}

}  // namespace detail

/// A model drawn at random: π, then each row of A in order, then each row of B, from a
/// flat Dirichlet (independent Exp(1) draws, normalised), with std::mt19937_64(seed). The
/// same seed gives the same model on every platform. Every probability is > 0.
inline Hmm random_hmm(arma::uword S, arma::uword M, std::uint64_t seed) {
  if (S == 0 || M == 0) {
    throw kexp::InvalidArgument("a random HMM needs at least one state and one symbol, got S = " +
                                std::to_string(S) + ", M = " + std::to_string(M));
  }
  std::mt19937_64 engine(seed);
  Hmm m;
  m.pi.set_size(S);
  m.A.set_size(S, S);
  m.B.set_size(S, M);
  detail::draw_flat_dirichlet(m.pi.memptr(), S, 1, engine);
  for (arma::uword i = 0; i < S; ++i) detail::draw_flat_dirichlet(&m.A(i, 0), S, S, engine);
  for (arma::uword i = 0; i < S; ++i) detail::draw_flat_dirichlet(&m.B(i, 0), M, S, engine);
  return m;
}

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
inline std::vector<unsigned> sample(const Hmm& m, std::size_t L, std::mt19937_64& engine) {
  m.check();
  std::vector<unsigned> x(L);
  sample_into(m, L, engine, x.data());
  return x;
}

namespace detail {

inline void require_symbols_below(const Hmm& m, const unsigned* x, std::size_t L) {
  const arma::uword M = m.symbols();
  for (std::size_t t = 0; t < L; ++t) {
    if (x[t] >= M) {
      throw kexp::InvalidArgument("symbol " + std::to_string(x[t]) + " at position " +
                                  std::to_string(t) +
                                  " of the sequence, and the HMM has M = " + std::to_string(M) +
                                  " symbols (0 to " + std::to_string(M - 1) + ")");
    }
  }
}

}  // namespace detail

/// log p(x | m) for x₀ … x_{L−1} by the scaled forward recursion (header comment): no
/// underflow however long x is. 0 for L = 0; −∞ when x has probability 0.
inline double log_likelihood(const Hmm& m, const unsigned* x, std::size_t L) {
  m.check();
  detail::require_symbols_below(m, x, L);
  if (L == 0) return 0.0;
  const arma::uword S = m.states();
  std::vector<double> alpha(S), next(S);
  const double* A = m.A.memptr();
  const double* b = m.B.colptr(x[0]);
  for (arma::uword j = 0; j < S; ++j) alpha[j] = m.pi[j] * b[j];
  double log_p = 0;
  for (std::size_t t = 0;; ++t) {
    double c = 0;
    for (arma::uword j = 0; j < S; ++j) c += alpha[j];
    if (!(c > 0)) return -std::numeric_limits<double>::infinity();
    log_p += std::log(c);
    if (t + 1 == L) break;
    b = m.B.colptr(x[t + 1]);
    for (arma::uword j = 0; j < S; ++j) {
      const double* a = A + j * S;  // column j of A: A(·, j)
      double sum = 0;
      for (arma::uword i = 0; i < S; ++i) sum += alpha[i] * a[i];
      next[j] = sum * b[j] / c;  // α̂_t = α_t / c_t folded into the next step
    }
    std::swap(alpha, next);
  }
  return log_p;
}

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
inline double add_expected_counts(const Hmm& m, const unsigned* x, std::size_t L,
                                  ExpectedCounts& counts, std::vector<double>& work) {
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

/// How many blocks the sequences are shared among for the parallel E-step and scores: a
/// number fixed in advance, so that sums over blocks are added in the same order
/// whatever the number of threads.
inline std::size_t block_count(std::size_t n) { return std::min<std::size_t>(n, 64); }

}  // namespace detail

/// λ (Σᵢ log πᵢ + Σᵢⱼ log A(i, j) + Σᵢₛ log B(i, s)): the log of the Dirichlet(1 + λ) prior
/// of the Baum–Welch M-step, up to its constant; 0 for λ = 0.
inline double log_prior(const Hmm& m, double pseudo_count) {
  if (pseudo_count == 0) return 0.0;
  return pseudo_count *
         (arma::accu(arma::log(m.pi)) + arma::accu(arma::log(m.A)) + arma::accu(arma::log(m.B)));
}

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

namespace detail {

/// The E-step: the expected counts of every training sequence under m, summed over fixed
/// blocks in parallel and then block after block. Throws kexp::NumericError if a
/// sequence has probability 0.
inline ExpectedCounts expected_counts(const Hmm& m, const Sequences& X) {
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
inline void maximise(const ExpectedCounts& counts, double pseudo_count, Hmm& m) {
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

}  // namespace detail

/// Fits an HMM of options.states states and options.symbols symbols to the training
/// sequences (each of its own length) by Baum–Welch from random_hmm(states, symbols,
/// seed): E-steps of expected counts summed over every sequence, M-steps as in the header
/// comment. Stops after options.iterations M-steps, or when the log-posterior (the
/// log-likelihood plus the log-prior of the pseudo-count, which each iteration cannot
/// lower) rises by less than tolerance × |log-posterior|; then `converged` is set.
/// Deterministic: the same options and sequences give the same model, whatever the
/// number of threads. Throws kexp::InvalidArgument for a bad option, no training
/// sequence, or a symbol not below options.symbols.
inline BaumWelchResult baum_welch(const Sequences& training, const BaumWelchOptions& options) {
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

namespace detail {

/// What the marginal kernel's Gram loops reuse for every pair: E(s, s')(j) = B(j, s) B(j, s')
/// and π_j E(s, s')(j) for every pair of symbols, S contiguous values at (s·M + s')·S,
/// and A column by column. E(s, s') and E(s', s) are equal bit for bit (the product is
/// computed the same way), so k(x, x') and k(x', x) are too.
struct MarginalTables {
  arma::uword S = 0, M = 0;
  std::vector<double> emission, initial;
  const double* A = nullptr;  ///< A(i, j) at A[j·S + i]

  explicit MarginalTables(const Hmm& m) : S(m.states()), M(m.symbols()), A(m.A.memptr()) {
    emission.resize(M * M * S);
    initial.resize(M * M * S);
    for (arma::uword s = 0; s < M; ++s) {
      for (arma::uword r = 0; r < M; ++r) {
        for (arma::uword j = 0; j < S; ++j) {
          const double e = m.B(j, s) * m.B(j, r);
          emission[(s * M + r) * S + j] = e;
          initial[(s * M + r) * S + j] = m.pi[j] * e;
        }
      }
    }
  }
};

/// Lanes: the pairs the Gram loops advance together, one fixed sequence against kLanes
/// others, so that the inner loop runs over independent pairs (vectorised, and no
/// dependency chain from one multiply-add to the next).
inline constexpr std::size_t kLanes = 4;

/// log k(x, zₚ) for p < kLanes, all of length L. The recursion is rescaled by exact powers
/// of two, only when a pair's Σ_j α_t(j) falls below 2^−256 (never more than a few times
/// per pair), with the exponents counted apart: no logarithm inside the loop, and no
/// rounding from the rescaling. `work` holds 2·S·kLanes doubles. kStates is S when it is
/// known at compile time (the loops over states then unroll, which halves the time for
/// S = 4), or 0 for any S.
template <std::size_t kStates>
void marginal_lanes(const MarginalTables& tab, const unsigned* x, const unsigned* const* z,
                    std::size_t L, double* work, double* log_k) {
  constexpr std::size_t P = kLanes;
  const std::size_t S = kStates > 0 ? kStates : tab.S, M = tab.M;
  if (L == 0) {
    for (std::size_t p = 0; p < P; ++p) log_k[p] = 0.0;
    return;
  }
  double* alpha = work;  // α_t(j) of lane p at alpha[j·P + p]
  double* next = work + S * P;
  long exponent[P] = {};
  double sum[P] = {};
  for (std::size_t p = 0; p < P; ++p) {
    const double* e = tab.initial.data() + (x[0] * M + z[p][0]) * S;
    for (std::size_t j = 0; j < S; ++j) {
      alpha[j * P + p] = e[j];
      sum[p] += e[j];
    }
  }
  for (std::size_t t = 0;; ++t) {
    for (std::size_t p = 0; p < P; ++p) {
      if (sum[p] < 0x1p-256 && sum[p] > 0) {
        int e = 0;
        (void)std::frexp(sum[p], &e);
        for (std::size_t j = 0; j < S; ++j) alpha[j * P + p] = std::ldexp(alpha[j * P + p], -e);
        sum[p] = std::ldexp(sum[p], -e);
        exponent[p] += e;
      }
    }
    if (t + 1 == L) break;
    const double* e[P];
    for (std::size_t p = 0; p < P; ++p) {
      e[p] = tab.emission.data() + (x[t + 1] * M + z[p][t + 1]) * S;
      sum[p] = 0;
    }
    for (std::size_t j = 0; j < S; ++j) {
      const double* a = tab.A + j * S;
      double acc[P] = {};
      for (std::size_t i = 0; i < S; ++i) {
        const double aij = a[i];
        const double* from = alpha + i * P;
        for (std::size_t p = 0; p < P; ++p) acc[p] += from[p] * aij;
      }
      double* to = next + j * P;
      for (std::size_t p = 0; p < P; ++p) {
        to[p] = acc[p] * e[p][j];
        sum[p] += to[p];
      }
    }
    std::swap(alpha, next);
  }
  const double ln2 = 0.693147180559945309417;
  for (std::size_t p = 0; p < P; ++p) {
    log_k[p] = std::log(sum[p]) + static_cast<double>(exponent[p]) * ln2;
  }
}

using MarginalLanes = void (*)(const MarginalTables&, const unsigned*, const unsigned* const*,
                               std::size_t, double*, double*);

/// marginal_lanes for S states: compiled for S itself up to 8 states.
inline MarginalLanes marginal_lanes_for(std::size_t S) {
  switch (S) {
    case 1:
      return marginal_lanes<1>;
    case 2:
      return marginal_lanes<2>;
    case 3:
      return marginal_lanes<3>;
    case 4:
      return marginal_lanes<4>;
    case 5:
      return marginal_lanes<5>;
    case 6:
      return marginal_lanes<6>;
    case 7:
      return marginal_lanes<7>;
    case 8:
      return marginal_lanes<8>;
    default:
      return marginal_lanes<0>;
  }
}

/// log k(x, X_r) for r in [begin, end), into out[r − begin], by lanes; a last lane group
/// that is not full repeats its last sequence.
inline void marginal_row_range(const MarginalTables& tab, const unsigned* x, const Sequences& X,
                               std::size_t begin, std::size_t end, std::size_t L,
                               std::vector<double>& work, double* out) {
  constexpr std::size_t P = kLanes;
  const MarginalLanes lanes = marginal_lanes_for(tab.S);
  work.resize(2 * tab.S * P);
  const unsigned* z[P];
  double log_k[P];
  for (std::size_t r = begin; r < end; r += P) {
    const std::size_t count = std::min(P, end - r);
    for (std::size_t p = 0; p < P; ++p) z[p] = X.data(r + std::min(p, count - 1));
    lanes(tab, x, z, L, work.data(), log_k);
    for (std::size_t p = 0; p < count; ++p) out[r - begin + p] = log_k[p];
  }
}

/// The common length of every sequence of X and Z; throws kexp::InvalidArgument naming
/// two sequences of different lengths.
inline std::size_t common_length(const Sequences& X, const Sequences& Z) {
  const Sequences* first = X.size() > 0 ? &X : &Z;
  if (first->size() == 0) return 0;
  const std::size_t L = first->length(0);
  const char* first_name = first == &X ? "X" : "Z";
  const auto require = [&](const Sequences& set, const char* set_name) {
    for (std::size_t j = 0; j < set.size(); ++j) {
      if (set.length(j) != L) {
        throw kexp::InvalidArgument(
            std::string("sequence ") + std::to_string(j) + " of " + set_name + " has length " +
            std::to_string(set.length(j)) + " and sequence 0 of " + first_name + " has length " +
            std::to_string(L) +
            "; the HMM marginal kernel is defined for sequences of equal length");
      }
    }
  };
  require(X, "X");
  require(Z, "Z");
  return L;
}

}  // namespace detail

/// log k(x, z) of the marginal kernel (header comment) for two sequences of length L, by
/// the pair's forward recursion normalised at every step with the logs of the scales
/// summed: no underflow however long the sequences. 0 for L = 0; −∞ when no hidden path
/// can emit both.
inline double log_marginal_kernel(const Hmm& m, const unsigned* x, const unsigned* z,
                                  std::size_t L) {
  m.check();
  detail::require_symbols_below(m, x, L);
  detail::require_symbols_below(m, z, L);
  if (L == 0) return 0.0;
  const arma::uword S = m.states();
  std::vector<double> alpha(S), next(S);
  const double* A = m.A.memptr();
  for (arma::uword j = 0; j < S; ++j) alpha[j] = m.pi[j] * (m.B(j, x[0]) * m.B(j, z[0]));
  double log_k = 0;
  for (std::size_t t = 0;; ++t) {
    double c = 0;
    for (arma::uword j = 0; j < S; ++j) c += alpha[j];
    if (!(c > 0)) return -std::numeric_limits<double>::infinity();
    log_k += std::log(c);
    if (t + 1 == L) break;
    for (arma::uword j = 0; j < S; ++j) {
      const double* a = A + j * S;
      double sum = 0;
      for (arma::uword i = 0; i < S; ++i) sum += alpha[i] * a[i];
      next[j] = sum * (m.B(j, x[t + 1]) * m.B(j, z[t + 1])) / c;
    }
    std::swap(alpha, next);
  }
  return log_k;
}

/// log k(x, z) for sequences of lengths Lx and Lz: throws kexp::InvalidArgument, with
/// both lengths, unless they are equal.
inline double log_marginal_kernel(const Hmm& m, const unsigned* x, std::size_t Lx,
                                  const unsigned* z, std::size_t Lz) {
  if (Lx != Lz) {
    throw kexp::InvalidArgument("the sequences have lengths " + std::to_string(Lx) + " and " +
                                std::to_string(Lz) +
                                "; the HMM marginal kernel is defined for sequences of equal "
                                "length");
  }
  return log_marginal_kernel(m, x, z, Lx);
}

/// logK(i, j) = log k(Xᵢ, Zⱼ), n × m, in parallel over the columns. Every sequence of X
/// and Z must have the same length (kexp::InvalidArgument otherwise, before any work).
inline void marginal_gram(const Hmm& m, const Sequences& X, const Sequences& Z, arma::mat& logK) {
  m.check();
  detail::require_symbols_below(X, m.symbols(), "X");
  detail::require_symbols_below(Z, m.symbols(), "Z");
  const std::size_t L = detail::common_length(X, Z);
  logK.set_size(X.size(), Z.size());
  const detail::MarginalTables tab(m);
  kexp::parallel_for(Z.size(), [&](std::size_t j) {
    std::vector<double> work;
    detail::marginal_row_range(tab, Z.data(j), X, 0, X.size(), L, work, logK.colptr(j));
  });
}

/// logK(i, j) = log k(Xᵢ, Xⱼ), n × n: the lower triangle computed (in parallel over the
/// columns), the upper one copied from it, so logK is exactly symmetric.
inline void marginal_gram_symmetric(const Hmm& m, const Sequences& X, arma::mat& logK) {
  m.check();
  detail::require_symbols_below(X, m.symbols(), "X");
  const std::size_t L = detail::common_length(X, X), n = X.size();
  logK.set_size(n, n);
  const detail::MarginalTables tab(m);
  kexp::parallel_for(
      n,
      [&](std::size_t j) {
        std::vector<double> work;
        detail::marginal_row_range(tab, X.data(j), X, j, n, L, work, logK.colptr(j) + j);
      },
      kexp::Schedule::Dynamic);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = j + 1; i < n; ++i) logK(j, i) = logK(i, j);
  }
}

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
inline void fisher_scores(const Hmm& m, const Sequences& X, bool transitions, arma::mat& G) {
  m.check();
  detail::require_symbols_below(X, m.symbols(), "X");
  const arma::uword S = m.states(), M = m.symbols();
  const std::size_t n = X.size(), blocks = detail::block_count(n);
  G.set_size(fisher_dimension(S, M, transitions), n);
  kexp::parallel_for(
      blocks,
      [&](std::size_t k) {
        ExpectedCounts counts;
        std::vector<double> work;
        for (std::size_t j = k * n / blocks; j < (k + 1) * n / blocks; ++j) {
          counts.zeros(S, M);
          const double log_p = detail::add_expected_counts(m, X.data(j), X.length(j), counts, work);
          if (std::isinf(log_p)) {
            throw kexp::InvalidArgument("sequence " + std::to_string(j) +
                                        " has probability 0 under the HMM, so its Fisher score "
                                        "is not defined; fit the model with pseudo_count > 0");
          }
          double* g = G.colptr(j);
          // Σ_t γ_t(i) = Σ_s emissions(i, s); Σ_{t<L} γ_t(i) = Σ_j transitions(i, j)
          for (arma::uword i = 0; i < S; ++i) {
            const double visits = arma::accu(counts.emissions.row(i));
            for (arma::uword s = 0; s < M; ++s) {
              *g++ = counts.emissions(i, s) - m.B(i, s) * visits;
            }
          }
          if (!transitions) continue;
          for (arma::uword i = 0; i < S; ++i) {
            const double departures = arma::accu(counts.transitions.row(i));
            for (arma::uword to = 0; to < S; ++to) {
              *g++ = counts.transitions(i, to) - m.A(i, to) * departures;
            }
          }
        }
      },
      kexp::Schedule::Dynamic);
}

}  // namespace kexp_kernels
