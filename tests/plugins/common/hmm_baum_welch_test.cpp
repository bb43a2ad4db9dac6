// hmm_baum_welch: Baum–Welch's objective never decreases, it stops where its gradient
// vanishes, fits as well as the true model, gives the same fit from the same seed whatever
// the threads, and refuses bad options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "common/hmm_baum_welch.hpp"
#include "common/hmm_kernels.hpp"
#include "common/hmm_model.hpp"
#include "kexp/parallel.hpp"
#include "plugins/common/hmm_models.hpp"

namespace kexp::test {
namespace {

using kexp_kernels::Hmm;
using kexp_kernels::Sequences;
using ::testing::HasSubstr;

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

}  // namespace
}  // namespace kexp::test
