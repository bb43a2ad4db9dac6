// The model's checks, the sequence encoding and sampling (common/hmm_model.hpp).
#include "common/hmm_model.hpp"

#include <kexp/error.hpp>

#include <cmath>
#include <cstdio>

namespace kexp_kernels {

namespace detail {

std::string hmm_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

namespace {

/// Throws kexp::InvalidArgument unless every entry of P is finite and in [0, 1] and,
/// when `rows` is set, each row sums to 1 within 1e-6; otherwise the one column (π).
/// `name` names the matrix in the message ("A", "B", "pi").
void check_stochastic(const arma::mat& P, const std::string& name, bool rows) {
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

/// A flat Dirichlet draw: n independent Exp(1) = −log U, divided by their sum, written
/// `stride` apart.
void draw_flat_dirichlet(double* out, std::size_t n, std::size_t stride, std::mt19937_64& engine) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += out[i * stride] = -std::log(open_uniform(engine));
  for (std::size_t i = 0; i < n; ++i) out[i * stride] /= sum;
}

}  // namespace

std::size_t checked_length(const arma::mat& X, arma::uword j, arma::uword M) {
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
void require_symbols_below(const Sequences& X, arma::uword M, const char* name) {
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

void require_symbols_below(const Hmm& m, const unsigned* x, std::size_t L) {
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

void Hmm::check() const {
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

std::vector<unsigned> sequence_of(const arma::mat& X, arma::uword j, arma::uword M) {
  if (j >= X.n_cols) {
    throw kexp::InvalidArgument("sequence column " + std::to_string(j) + " does not exist: X has " +
                                std::to_string(X.n_cols) + " columns");
  }
  const std::size_t L = detail::checked_length(X, j, M);
  std::vector<unsigned> x(L);
  for (std::size_t t = 0; t < L; ++t) x[t] = static_cast<unsigned>(X(t, j));
  return x;
}

Sequences sequences_of(const arma::mat& X, arma::uword M) {
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

Hmm random_hmm(arma::uword S, arma::uword M, std::uint64_t seed) {
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

std::vector<unsigned> sample(const Hmm& m, std::size_t L, std::mt19937_64& engine) {
  m.check();
  std::vector<unsigned> x(L);
  sample_into(m, L, engine, x.data());
  return x;
}

}  // namespace kexp_kernels
