// hmm_model: the likelihood and the marginal kernel against sums over every hidden path,
// a long pair against the recursion in log-sum-exp, the Gram matrices against the pairwise
// kernel, the Fisher score against central differences in the softmax parameters,
// Baum–Welch (its objective never decreases, the same fit from the same seed whatever the
// threads), the reading of sequences and of model files with their errors, and the random
// model and sampler.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/hmm_baum_welch.hpp"
#include "common/hmm_file.hpp"
#include "common/hmm_kernels.hpp"
#include "common/hmm_model.hpp"
#include "kexp/parallel.hpp"

namespace kexp::test {
namespace {

using kexp_kernels::Hmm;
using kexp_kernels::Sequences;
using ::testing::HasSubstr;

Hmm two_states() {
  Hmm m;
  m.pi = {0.7, 0.3};
  m.A = {{0.9, 0.1}, {0.15, 0.85}};
  m.B = {{0.7, 0.2, 0.1}, {0.1, 0.2, 0.7}};
  return m;
}

Hmm three_states() {
  Hmm m;
  m.pi = {0.5, 0.2, 0.3};
  m.A = {{0.6, 0.3, 0.1}, {0.2, 0.5, 0.3}, {0.25, 0.25, 0.5}};
  m.B = {{0.5, 0.4, 0.1}, {0.05, 0.15, 0.8}, {0.3, 0.3, 0.4}};
  return m;
}

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

/// n sequences of lengths 20 … 20 + n − 1 from the model.
Sequences sampled(const Hmm& m, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Sequences X;
  for (int j = 0; j < n; ++j) X.push_back(kexp_kernels::sample(m, 20 + j, rng));
  return X;
}

double total_log_likelihood(const Hmm& m, const Sequences& X) {
  double total = 0;
  for (std::size_t j = 0; j < X.size(); ++j) {
    total += kexp_kernels::log_likelihood(m, X.data(j), X.length(j));
  }
  return total;
}

TEST(BaumWelch, ItsObjectiveNeverDecreases) {
  const Sequences X = sampled(two_states(), 60, 10);
  for (const double pseudo_count : {1e-3, 0.0, 1.0}) {
    kexp_kernels::BaumWelchOptions options;
    options.states = 2;
    options.symbols = 3;
    options.seed = 5;
    options.iterations = 300;
    options.tolerance = 1e-12;
    options.pseudo_count = pseudo_count;
    const kexp_kernels::BaumWelchResult fit = kexp_kernels::baum_welch(X, options);
    const std::vector<double>& objective = fit.log_posteriors;
    ASSERT_EQ(objective.size(), static_cast<std::size_t>(fit.iterations) + 1);
    ASSERT_EQ(fit.log_likelihoods.size(), objective.size());
    ASSERT_GE(fit.iterations, 10) << "pseudo-count " << pseudo_count;
    for (std::size_t k = 1; k < objective.size(); ++k) {
      EXPECT_GE(objective[k], objective[k - 1] - 1e-9 * std::abs(objective[k - 1]))
          << "pseudo-count " << pseudo_count << ", iteration " << k;
    }
    if (pseudo_count == 0) {
      EXPECT_EQ(objective, fit.log_likelihoods) << "no prior: the objective is the likelihood";
    }
    // the values reported are those of the models
    EXPECT_NEAR(fit.log_likelihoods.back(), total_log_likelihood(fit.model, X),
                1e-9 * std::abs(fit.log_likelihoods.back()));
    EXPECT_NEAR(objective.back(),
                fit.log_likelihoods.back() + kexp_kernels::log_prior(fit.model, pseudo_count),
                1e-12 * std::abs(objective.back()));
    EXPECT_NEAR(fit.log_likelihoods.front(),
                total_log_likelihood(kexp_kernels::random_hmm(2, 3, options.seed), X),
                1e-9 * std::abs(fit.log_likelihoods.front()))
        << "the start is random_hmm(states, symbols, seed)";
    EXPECT_NO_THROW(fit.model.check());
  }
}

TEST(BaumWelch, StopsWhereTheGradientOfItsObjectiveVanishes) {
  // In the softmax parameters the log-prior λ Σₛ log B(i, s) has gradient λ (1 − M B(i, s))
  // (and λ (1 − S A(i, j)) for A): added to the Fisher scores summed over the training
  // set, it gives the gradient of the objective, which is 0 at a fixed point of EM.
  const Sequences X = sampled(two_states(), 60, 15);
  for (const double pseudo_count : {0.0, 1.0}) {
    kexp_kernels::BaumWelchOptions options;
    options.states = 2;
    options.symbols = 3;
    options.seed = 5;
    options.iterations = 1000;
    options.tolerance = 1e-12;
    options.pseudo_count = pseudo_count;
    const kexp_kernels::BaumWelchResult fit = kexp_kernels::baum_welch(X, options);
    const Hmm& m = fit.model;
    arma::mat G;
    kexp_kernels::fisher_scores(m, X, true, G);
    arma::vec gradient = arma::sum(G, 1);
    const arma::vec prior_B = arma::vectorise((1.0 - 3.0 * m.B).t());
    const arma::vec prior_A = arma::vectorise((1.0 - 2.0 * m.A).t());
    gradient += pseudo_count * arma::join_cols(prior_B, prior_A);
    EXPECT_LT(arma::abs(gradient).max(), 1e-3)
        << "pseudo-count " << pseudo_count << ", after " << fit.iterations << " iterations";
  }
}

TEST(BaumWelch, FitsBetterThanItsStartAndAsWellAsTheTrueModel) {
  const Hmm truth = two_states();
  const Sequences X = sampled(truth, 60, 11);
  kexp_kernels::BaumWelchOptions options;
  options.states = 2;
  options.symbols = 3;
  options.seed = 3;
  options.iterations = 500;
  const kexp_kernels::BaumWelchResult fit = kexp_kernels::baum_welch(X, options);
  EXPECT_TRUE(fit.converged);
  const double start = total_log_likelihood(kexp_kernels::random_hmm(2, 3, 3), X);
  const double fitted = total_log_likelihood(fit.model, X);
  EXPECT_GT(fitted, start);
  // the maximum-likelihood fit explains its training set at least as well as the model
  // that generated it (to the small pull of the prior)
  EXPECT_GE(fitted, total_log_likelihood(truth, X) - 1e-3 * std::abs(fitted));
  // and, up to the order of its states, it is close to that model
  const bool swapped = fit.model.B(0, 0) < fit.model.B(1, 0);
  const arma::uvec order = swapped ? arma::uvec{1, 0} : arma::uvec{0, 1};
  EXPECT_LT(arma::abs(fit.model.B.rows(order) - truth.B).max(), 0.05);
  EXPECT_LT(arma::abs(fit.model.A(order, order) - truth.A).max(), 0.05);
}

TEST(BaumWelch, IsTheSameFromTheSameSeedWhateverTheThreads) {
  const Sequences X = sampled(two_states(), 150, 12);
  kexp_kernels::BaumWelchOptions options;
  options.states = 3;
  options.symbols = 3;
  options.seed = 21;
  options.iterations = 25;
  const kexp_kernels::BaumWelchResult fit = kexp_kernels::baum_welch(X, options);
  const kexp_kernels::BaumWelchResult again = kexp_kernels::baum_welch(X, options);
  kexp::set_thread_count(1);
  const kexp_kernels::BaumWelchResult serial = kexp_kernels::baum_welch(X, options);
  kexp::set_thread_count(0);
  for (const kexp_kernels::BaumWelchResult* other : {&again, &serial}) {
    EXPECT_TRUE(arma::approx_equal(other->model.pi, fit.model.pi, "absdiff", 0.0));
    EXPECT_TRUE(arma::approx_equal(other->model.A, fit.model.A, "absdiff", 0.0));
    EXPECT_TRUE(arma::approx_equal(other->model.B, fit.model.B, "absdiff", 0.0));
    EXPECT_EQ(other->log_likelihoods, fit.log_likelihoods);
  }
  options.seed = 22;
  EXPECT_FALSE(arma::approx_equal(kexp_kernels::baum_welch(X, options).model.B, fit.model.B,
                                  "absdiff", 1e-6))
      << "another seed, another start";
}

TEST(BaumWelch, RejectsBadOptionsAndSymbols) {
  const Sequences X = sampled(two_states(), 5, 13);
  kexp_kernels::BaumWelchOptions options;
  options.symbols = 3;
  options.states = 0;
  EXPECT_THROW((void)kexp_kernels::baum_welch(X, options), kexp::InvalidArgument);
  options.states = 2;
  options.pseudo_count = -1;
  EXPECT_THROW((void)kexp_kernels::baum_welch(X, options), kexp::InvalidArgument);
  options.pseudo_count = 0;
  options.symbols = 2;  // the sequences use symbol 2
  try {
    (void)kexp_kernels::baum_welch(X, options);
    FAIL() << "symbol 2 accepted with M = 2";
  } catch (const kexp::InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("M = 2"));
  }
  EXPECT_THROW((void)kexp_kernels::baum_welch(Sequences(), options), kexp::InvalidArgument);
}

TEST(Sequences, ReadVariableLengthsPaddedWithMinusOne) {
  const arma::mat X = {{0, 2, -1, 1}, {1, -1, -1, 1}, {2, -1, -1, 0}};
  const Sequences s = kexp_kernels::sequences_of(X, 3);
  ASSERT_EQ(s.size(), 4U);
  EXPECT_EQ(s.length(0), 3U);
  EXPECT_EQ(s.length(1), 1U);
  EXPECT_EQ(s.length(2), 0U);
  EXPECT_EQ(s.length(3), 3U);
  EXPECT_EQ(s.max_length(), 3U);
  EXPECT_EQ(s.all_symbols(), (std::vector<unsigned>{0, 1, 2, 2, 1, 1, 0}));
  EXPECT_EQ(s.data(3), s.data(0) + 4) << "stored one after the other";
  EXPECT_EQ(s.data(3)[2], 0U);
  EXPECT_EQ(kexp_kernels::sequence_of(X, 0, 3), (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(kexp_kernels::sequence_of(X, 1, 3), (std::vector<unsigned>{2}));
  EXPECT_TRUE(kexp_kernels::sequence_of(X, 2, 3).empty());
  EXPECT_EQ(kexp_kernels::sequences_of(arma::mat(0, 2), 3).size(), 2U) << "two empty sequences";
}

TEST(Sequences, ThrowForAValueThatIsNotASymbol) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    double value;
    const char* what;
  };
  for (const Case& c : {Case{1.5, "not an integer"}, Case{3.0, "M = 3"}, Case{-2.0, "negative"},
                        Case{nan, "NaN"}}) {
    arma::mat X = {{0, 1}, {1, 2}, {2, 0}};
    X(2, 1) = c.value;
    try {
      (void)kexp_kernels::sequences_of(X, 3);
      FAIL() << c.what << " accepted";
    } catch (const kexp::InvalidArgument& e) {
      EXPECT_THAT(e.what(), HasSubstr("column 1, row 2")) << c.what;
    }
    EXPECT_THROW((void)kexp_kernels::sequence_of(X, 1, 3), kexp::InvalidArgument) << c.what;
    EXPECT_NO_THROW((void)kexp_kernels::sequence_of(X, 0, 3)) << c.what;
  }
  const arma::mat after_end = {{0, 1}, {-1, 2}, {1, -1}};
  try {
    (void)kexp_kernels::sequences_of(after_end, 3);
    FAIL() << "a symbol after -1 accepted";
  } catch (const kexp::InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("column 0, row 2"));
    EXPECT_THAT(e.what(), HasSubstr("after the end"));
  }
}

/// A file `name` holding `text`, in a folder of the test's own.
std::filesystem::path write_file(const std::string& name, const std::string& text) {
  const std::filesystem::path folder = std::filesystem::path(testing::TempDir()) / "hmm_model_test";
  std::filesystem::create_directories(folder);
  std::filesystem::path file = folder / name;
  std::ofstream(file) << text;
  return file;
}

TEST(ReadHmm, ReadsAGoodFile) {
  const std::filesystem::path file = write_file("good.hmm",
                                                "# two states, three symbols\n"
                                                "\n"
                                                "pi 0.6 0.4   # initial\n"
                                                "B 0.5 0.3 0.2\n"
                                                "A 0.9 0.1\n"
                                                "\tA 0.2\t0.8\r\n"
                                                "B 0.1 0.1 0.8\n");
  const Hmm m = kexp_kernels::read_hmm(file);
  EXPECT_NO_THROW(m.check());
  EXPECT_TRUE(arma::approx_equal(m.pi, arma::vec{0.6, 0.4}, "absdiff", 1e-15));
  EXPECT_TRUE(arma::approx_equal(m.A, arma::mat{{0.9, 0.1}, {0.2, 0.8}}, "absdiff", 1e-15));
  EXPECT_TRUE(
      arma::approx_equal(m.B, arma::mat{{0.5, 0.3, 0.2}, {0.1, 0.1, 0.8}}, "absdiff", 1e-15));
}

TEST(ReadHmm, AMalformedFileNamesItselfAndTheLine) {
  const std::string good_A = "A 0.9 0.1\nA 0.2 0.8\n";
  const std::string good_B = "B 0.5 0.3 0.2\nB 0.1 0.1 0.8\n";
  struct Case {
    std::string name, text;
    int line;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"keyword", "pi 0.6 0.4\nC 0.5 0.5\n" + good_A + good_B, 2, "unknown keyword \"C\""},
      {"word", "pi 0.6 0.4\nA 0.9 x\nA 0.2 0.8\n" + good_B, 2, "\"x\" is not a number"},
      {"probability", "pi 0.6 0.4\n" + good_A + "B 1.5 -0.5 0\n" + "B 0.1 0.1 0.8\n", 4,
       "1.5 is not a probability"},
      {"sum", "pi 0.6 0.4\n" + good_A + "B 0.5 0.3 0.1\nB 0.1 0.1 0.8\n", 4,
       "sums to 0.9; its probabilities must sum to 1"},
      {"count", "pi 0.6 0.4\nA 0.5 0.3 0.2\nA 0.2 0.8\n" + good_B, 2,
       "this row of A has 3 numbers"},
      {"ragged", "pi 0.6 0.4\n" + good_A + "B 0.5 0.3 0.2\n\nB 0.2 0.8\n", 6,
       "the first (line 4) has 3"},
      {"rows", "pi 0.6 0.4\nA 0.9 0.1\n" + good_B, 2, "A has 1 row"},
      {"extra", "pi 0.6 0.4\n" + good_A + good_B + "B 0.1 0.1 0.8\n", 6, "B has 3 rows"},
      {"twice", "pi 0.6 0.4\n" + good_A + "pi 0.5 0.5\n" + good_B, 4, "a second pi line"},
      {"empty", "pi\n" + good_A + good_B, 1, "has no numbers"},
      {"no_B", "# no emissions\npi 0.6 0.4\n" + good_A, 4, "no B lines"},
      {"no_pi", good_A + good_B, 4, "no pi line"},
  };
  for (const Case& c : cases) {
    const std::filesystem::path file = write_file(c.name + ".hmm", c.text);
    try {
      (void)kexp_kernels::read_hmm(file);
      FAIL() << c.name << " read";
    } catch (const kexp::DataError& e) {
      EXPECT_EQ(e.where().file, file.string()) << c.name;
      EXPECT_EQ(e.where().line, c.line) << c.name;
      EXPECT_THAT(e.what(), HasSubstr(file.string() + ":" + std::to_string(c.line) + ":"))
          << c.name;
      EXPECT_THAT(e.what(), HasSubstr(c.says)) << c.name;
    }
  }
  const std::filesystem::path missing = write_file("x", "").parent_path() / "missing.hmm";
  try {
    (void)kexp_kernels::read_hmm(missing);
    FAIL() << "a missing file read";
  } catch (const kexp::DataError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing.string()));
  }
}

TEST(RandomHmm, IsTheSameFromTheSameSeedAndValid) {
  const Hmm m = kexp_kernels::random_hmm(3, 5, 42);
  EXPECT_NO_THROW(m.check());
  ASSERT_EQ(m.states(), 3U);
  ASSERT_EQ(m.symbols(), 5U);
  EXPECT_GT(m.A.min(), 0.0);
  EXPECT_GT(m.B.min(), 0.0);
  EXPECT_GT(m.pi.min(), 0.0);
  EXPECT_LE(arma::abs(arma::sum(m.B, 1) - 1.0).max(), 1e-15);
  const Hmm again = kexp_kernels::random_hmm(3, 5, 42);
  EXPECT_TRUE(arma::approx_equal(again.pi, m.pi, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(again.A, m.A, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(again.B, m.B, "absdiff", 0.0));
  EXPECT_FALSE(arma::approx_equal(kexp_kernels::random_hmm(3, 5, 43).B, m.B, "absdiff", 1e-3));
  EXPECT_THROW((void)kexp_kernels::random_hmm(0, 5, 1), kexp::InvalidArgument);
}

TEST(HmmCheck, NamesWhatIsWrong) {
  const auto message = [](const Hmm& m) -> std::string {
    try {
      m.check();
    } catch (const kexp::InvalidArgument& e) {
      return e.what();
    }
    return "no error";
  };
  Hmm m = two_states();
  EXPECT_EQ(message(m), "no error");
  m.A = {{0.9, 0.2}, {0.15, 0.85}};
  EXPECT_THAT(message(m), HasSubstr("A row 0 sums to 1.1"));
  m = two_states();
  m.B(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(message(m), HasSubstr("B(1, 2) is nan"));
  m = two_states();
  m.A = arma::mat(2, 3).fill(1.0 / 3);
  EXPECT_THAT(message(m), HasSubstr("A must be S × S"));
  m = two_states();
  m.pi = {0.5, 0.6};
  EXPECT_THAT(message(m), HasSubstr("pi sums to 1.1"));
}

TEST(HmmSample, HasTheSymbolFrequenciesOfTheModel) {
  // stationary distribution of A = [0.9 0.1; 0.15 0.85]: (0.6, 0.4); symbols (0.6, 0.4) B
  const Hmm m = two_states();
  std::mt19937_64 rng(14);
  const std::vector<unsigned> x = kexp_kernels::sample(m, 200000, rng);
  arma::vec frequency(3, arma::fill::zeros);
  for (const unsigned s : x) frequency[s] += 1.0 / static_cast<double>(x.size());
  const arma::vec expected = (arma::rowvec{0.6, 0.4} * m.B).t();
  EXPECT_LE(arma::abs(frequency - expected).max(), 0.01);
  std::mt19937_64 same(14);
  EXPECT_EQ(kexp_kernels::sample(m, 1000, same), std::vector<unsigned>(x.begin(), x.begin() + 1000))
      << "the same from the same engine";
}

}  // namespace
}  // namespace kexp::test
