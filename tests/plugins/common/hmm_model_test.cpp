// hmm_model: the reading of sequences with their errors, the checks of a model, and the
// random model and sampler.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "common/hmm_model.hpp"
#include "plugins/common/hmm_models.hpp"

namespace kexp::test {
namespace {

using kexp_kernels::Hmm;
using kexp_kernels::Sequences;
using ::testing::HasSubstr;

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
