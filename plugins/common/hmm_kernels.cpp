// The forward recursion, the marginal kernel and the Fisher scores
// (common/hmm_kernels.hpp).
#include "common/hmm_kernels.hpp"

#include <kexp/error.hpp>
#include <kexp/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace kexp_kernels {

double log_likelihood(const Hmm& m, const unsigned* x, std::size_t L) {
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

namespace detail {
namespace {

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
constexpr std::size_t kLanes = 4;

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
MarginalLanes marginal_lanes_for(std::size_t S) {
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
void marginal_row_range(const MarginalTables& tab, const unsigned* x, const Sequences& X,
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
std::size_t common_length(const Sequences& X, const Sequences& Z) {
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

}  // namespace
}  // namespace detail

double log_marginal_kernel(const Hmm& m, const unsigned* x, const unsigned* z, std::size_t L) {
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

double log_marginal_kernel(const Hmm& m, const unsigned* x, std::size_t Lx, const unsigned* z,
                           std::size_t Lz) {
  if (Lx != Lz) {
    throw kexp::InvalidArgument("the sequences have lengths " + std::to_string(Lx) + " and " +
                                std::to_string(Lz) +
                                "; the HMM marginal kernel is defined for sequences of equal "
                                "length");
  }
  return log_marginal_kernel(m, x, z, Lx);
}

void marginal_gram(const Hmm& m, const Sequences& X, const Sequences& Z, arma::mat& logK) {
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

void marginal_gram_symmetric(const Hmm& m, const Sequences& X, arma::mat& logK) {
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

void fisher_scores(const Hmm& m, const Sequences& X, bool transitions, arma::mat& G) {
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
