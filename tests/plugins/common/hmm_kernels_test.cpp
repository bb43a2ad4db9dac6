// hmm_kernels: the likelihood and the marginal kernel against sums over every hidden path,
// a long pair against the recursion in log-sum-exp, the Gram matrices against the pairwise
// kernel, and the Fisher score against central differences in the softmax parameters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "common/hmm_kernels.hpp"
#include "common/hmm_model.hpp"
#include "plugins/common/hmm_models.hpp"

namespace kexp::test {
namespace {

using kexp_kernels::Hmm;
using kexp_kernels::Sequences;
using ::testing::HasSubstr;

/// Every hidden path of length L over S states, in turn: calls f(z) for each.
template <class F>
void for_each_path(arma::uword S, std::size_t L, const F& f) {
  std::vector<unsigned> z(L, 0);
  while (true) {
    f(z);
    std::size_t t = 0;
    while (t < L && ++z[t] == S) z[t++] = 0;
    if (t == L) return;
  }
}

/// p(z) and p(x | z) term by term.
double path_probability(const Hmm& m, const std::vector<unsigned>& z) {
  double p = z.empty() ? 1.0 : m.pi[z[0]];
  for (std::size_t t = 1; t < z.size(); ++t) p *= m.A(z[t - 1], z[t]);
  return p;
}
double emission_probability(const Hmm& m, const std::vector<unsigned>& z,
                            const std::vector<unsigned>& x) {
  double p = 1.0;
  for (std::size_t t = 0; t < z.size(); ++t) p *= m.B(z[t], x[t]);
  return p;
}

/// L symbols uniform in [0, M).
std::vector<unsigned> uniform_sequence(std::size_t L, unsigned M, std::mt19937_64& rng) {
  std::uniform_int_distribution<unsigned> u(0, M - 1);
  std::vector<unsigned> x(L);
  for (unsigned& s : x) s = u(rng);
  return x;
}

double log_sum_exp(const arma::vec& v) {
  const double top = v.max();
  return top + std::log(arma::accu(arma::exp(v - top)));
}

TEST(HmmLikelihood, MatchesTheSumOverEveryHiddenPath) {
  std::mt19937_64 rng(1);
  for (const Hmm& m : {two_states(), three_states()}) {
    for (std::size_t L = 0; L <= 6; ++L) {
      for (int repeat = 0; repeat < 3; ++repeat) {
        const std::vector<unsigned> x = uniform_sequence(L, 3, rng);
        double p = 0;
        for_each_path(m.states(), L, [&](const std::vector<unsigned>& z) {
          p += path_probability(m, z) * emission_probability(m, z, x);
        });
        const double log_p = kexp_kernels::log_likelihood(m, x.data(), L);
        if (L == 0) {
          EXPECT_EQ(log_p, 0.0);
          continue;
        }
        EXPECT_NEAR(log_p, std::log(p), 1e-12 * std::abs(std::log(p)))
            << "S = " << m.states() << ", L = " << L;
      }
    }
  }
}

TEST(HmmLikelihood, OfALongSequenceMatchesTheForwardRecursionInLogSpace) {
  const Hmm m = three_states();
  std::mt19937_64 rng(2);
  const std::vector<unsigned> x = kexp_kernels::sample(m, 5000, rng);
  const arma::mat log_A = arma::log(m.A), log_B = arma::log(m.B);
  arma::vec la = arma::log(m.pi) + log_B.col(x[0]);
  for (std::size_t t = 1; t < x.size(); ++t) {
    arma::vec next(m.states());
    for (arma::uword j = 0; j < m.states(); ++j) next[j] = log_sum_exp(la + log_A.col(j));
    la = next + log_B.col(x[t]);
  }
  const double expected = log_sum_exp(la);
  const double log_p = kexp_kernels::log_likelihood(m, x.data(), x.size());
  ASSERT_TRUE(std::isfinite(log_p));
  EXPECT_NEAR(log_p, expected, 1e-10 * std::abs(expected));
}

TEST(MarginalKernel, MatchesTheSumOverEveryHiddenPath) {
  std::mt19937_64 rng(3);
  for (const Hmm& m : {two_states(), three_states()}) {
    for (std::size_t L = 0; L <= 6; ++L) {
      for (int repeat = 0; repeat < 3; ++repeat) {
        const std::vector<unsigned> x = uniform_sequence(L, 3, rng);
        const std::vector<unsigned> z = uniform_sequence(L, 3, rng);
        double k = 0;
        for_each_path(m.states(), L, [&](const std::vector<unsigned>& path) {
          k += emission_probability(m, path, x) * emission_probability(m, path, z) *
               path_probability(m, path);
        });
        const double log_k = kexp_kernels::log_marginal_kernel(m, x.data(), z.data(), L);
        if (L == 0) {
          EXPECT_EQ(log_k, 0.0);
          continue;
        }
        EXPECT_NEAR(log_k, std::log(k), 1e-12 * std::abs(std::log(k)))
            << "S = " << m.states() << ", L = " << L;
      }
    }
  }
}

TEST(MarginalKernel, GramMatricesEqualThePairwiseKernel) {
  const Hmm m = kexp_kernels::random_hmm(3, 4, 9);
  std::mt19937_64 rng(4);
  Sequences X, Z;
  for (int j = 0; j < 11; ++j) X.push_back(uniform_sequence(6, 4, rng));  // not a multiple of 4
  for (int j = 0; j < 5; ++j) Z.push_back(uniform_sequence(6, 4, rng));
  arma::mat K, K_sym;
  kexp_kernels::marginal_gram(m, X, Z, K);
  kexp_kernels::marginal_gram_symmetric(m, X, K_sym);
  ASSERT_EQ(K.n_rows, 11U);
  ASSERT_EQ(K.n_cols, 5U);
  ASSERT_EQ(K_sym.n_rows, 11U);
  ASSERT_EQ(K_sym.n_cols, 11U);
  for (std::size_t i = 0; i < X.size(); ++i) {
    for (std::size_t j = 0; j < Z.size(); ++j) {
      const double expected = kexp_kernels::log_marginal_kernel(m, X.data(i), Z.data(j), 6);
      EXPECT_NEAR(K(i, j), expected, 1e-12 * std::abs(expected)) << i << ", " << j;
    }
    for (std::size_t j = 0; j < X.size(); ++j) {
      const double expected = kexp_kernels::log_marginal_kernel(m, X.data(i), X.data(j), 6);
      EXPECT_NEAR(K_sym(i, j), expected, 1e-12 * std::abs(expected)) << i << ", " << j;
    }
  }
  EXPECT_TRUE(arma::approx_equal(K_sym, K_sym.t(), "absdiff", 0.0)) << "exactly symmetric";
}

TEST(MarginalKernel, OfALongPairMatchesTheRecursionInLogSumExp) {
  const Hmm m = kexp_kernels::random_hmm(3, 4, 5);
  std::mt19937_64 rng(6);
  const std::size_t L = 2000;
  const std::vector<unsigned> x = kexp_kernels::sample(m, L, rng);
  const std::vector<unsigned> z = kexp_kernels::sample(m, L, rng);
  // α in log space: log α₁(j) = log π_j + log B(j, x₁) + log B(j, z₁), …
  const arma::mat log_A = arma::log(m.A), log_B = arma::log(m.B);
  arma::vec la = arma::log(m.pi) + log_B.col(x[0]) + log_B.col(z[0]);
  for (std::size_t t = 1; t < L; ++t) {
    arma::vec next(m.states());
    for (arma::uword j = 0; j < m.states(); ++j) next[j] = log_sum_exp(la + log_A.col(j));
    la = next + log_B.col(x[t]) + log_B.col(z[t]);
  }
  const double expected = log_sum_exp(la);
  ASSERT_LT(expected, -1000.0) << "far below the smallest double";
  const double log_k = kexp_kernels::log_marginal_kernel(m, x.data(), z.data(), L);
  ASSERT_TRUE(std::isfinite(log_k));
  EXPECT_NEAR(log_k, expected, 1e-9 * std::abs(expected));

  Sequences X;
  X.push_back(x);
  X.push_back(z);
  arma::mat K;
  kexp_kernels::marginal_gram_symmetric(m, X, K);
  ASSERT_TRUE(K.is_finite());
  EXPECT_NEAR(K(1, 0), expected, 1e-9 * std::abs(expected));
  EXPECT_LT(K(1, 0), 0.5 * (K(0, 0) + K(1, 1))) << "Cauchy–Schwarz: k(x,z)² ≤ k(x,x) k(z,z)";

  // Every prefix up to 400 symbols: the Gram loops rescale now and then, so for some
  // lengths the last step is one that rescales.
  for (std::size_t l = 1; l <= 400; ++l) {
    Sequences prefixes;
    prefixes.push_back(x.data(), l);
    prefixes.push_back(z.data(), l);
    kexp_kernels::marginal_gram_symmetric(m, prefixes, K);
    const double reference = kexp_kernels::log_marginal_kernel(m, x.data(), z.data(), l);
    ASSERT_NEAR(K(1, 0), reference, 1e-12 * std::abs(reference)) << "length " << l;
  }
}

TEST(MarginalKernel, SequencesOfDifferentLengthsThrow) {
  const Hmm m = two_states();
  const std::vector<unsigned> x = {0, 1, 2, 0, 1}, z = {2, 2, 1, 0, 1, 0};
  try {
    (void)kexp_kernels::log_marginal_kernel(m, x.data(), x.size(), z.data(), z.size());
    FAIL() << "lengths 5 and 6 accepted";
  } catch (const kexp::InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("lengths 5 and 6"));
    EXPECT_THAT(e.what(), HasSubstr("equal length"));
  }
  EXPECT_NO_THROW(
      (void)kexp_kernels::log_marginal_kernel(m, x.data(), x.size(), x.data(), x.size()));
  Sequences X, Z;
  X.push_back(x);
  Z.push_back(x);
  Z.push_back(z);
  arma::mat K;
  EXPECT_THROW(kexp_kernels::marginal_gram(m, X, Z, K), kexp::InvalidArgument);
  EXPECT_THROW(kexp_kernels::marginal_gram_symmetric(m, Z, K), kexp::InvalidArgument);
}

/// The model with softmax parameter `p` of the score's order (b_is row by row, then a_ij)
/// moved by h: that entry's row multiplied by e^h at the entry, then renormalised.
Hmm moved(const Hmm& m, arma::uword p, double h) {
  Hmm out = m;
  const arma::uword S = m.states(), M = m.symbols();
  arma::mat& P = p < S * M ? out.B : out.A;
  const arma::uword q = p < S * M ? p : p - S * M, width = P.n_cols;
  const arma::uword i = q / width, s = q % width;
  P(i, s) *= std::exp(h);
  P.row(i) /= arma::accu(P.row(i));
  return out;
}

TEST(HmmFisherScore, MatchesCentralDifferencesOfTheLogLikelihood) {
  const Hmm m = kexp_kernels::random_hmm(3, 4, 8);
  std::mt19937_64 rng(9);
  Sequences X;
  for (const std::size_t L : {1U, 2U, 5U, 12U, 30U}) X.push_back(kexp_kernels::sample(m, L, rng));
  X.push_back(std::vector<unsigned>{});
  for (const bool transitions : {false, true}) {
    arma::mat G;
    kexp_kernels::fisher_scores(m, X, transitions, G);
    ASSERT_EQ(G.n_rows, kexp_kernels::fisher_dimension(3, 4, transitions));
    ASSERT_EQ(G.n_rows, transitions ? 21U : 12U);
    ASSERT_EQ(G.n_cols, X.size());
    const double h = 1e-5;
    for (arma::uword p = 0; p < G.n_rows; ++p) {
      const Hmm up = moved(m, p, h), down = moved(m, p, -h);
      for (std::size_t j = 0; j < X.size(); ++j) {
        const double difference = (kexp_kernels::log_likelihood(up, X.data(j), X.length(j)) -
                                   kexp_kernels::log_likelihood(down, X.data(j), X.length(j))) /
                                  (2 * h);
        EXPECT_NEAR(G(p, j), difference, 1e-6 * std::max(1.0, std::abs(difference)))
            << "transitions " << transitions << ", parameter " << p << ", sequence " << j;
      }
    }
    EXPECT_EQ(arma::abs(G.col(X.size() - 1)).max(), 0.0) << "length 0 scores 0";
  }
}

}  // namespace
}  // namespace kexp::test
