// hmm_marginal: the plugin with an HMM read from a file against the sum over every hidden
// path computed here, its normalised form, a Gram matrix that check-kernel accepts, a
// fitted model, and the errors it gives (unequal lengths, a model of another size).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "common/hmm_kernels.hpp"
#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kModel =
    "pi 0.6 0.4\n"
    "A 0.7 0.3\n"
    "A 0.2 0.8\n"
    "B 0.5 0.4 0.1\n"
    "B 0.1 0.3 0.6\n";

/// Σ over every hidden path of p(x | Z) p(z | Z) p(Z), the definition, for the model above.
double by_every_path(const std::vector<unsigned>& x, const std::vector<unsigned>& z) {
  const arma::vec pi = {0.6, 0.4};
  const arma::mat A = {{0.7, 0.3}, {0.2, 0.8}};
  const arma::mat B = {{0.5, 0.4, 0.1}, {0.1, 0.3, 0.6}};
  const std::size_t L = x.size();
  double sum = 0;
  for (unsigned path = 0; path < (1U << L); ++path) {
    double p = 1;
    unsigned previous = 0;
    for (std::size_t t = 0; t < L; ++t) {
      const unsigned s = (path >> t) & 1U;
      p *= (t == 0 ? pi[s] : A(previous, s)) * B(s, x[t]) * B(s, z[t]);
      previous = s;
    }
    sum += p;
  }
  return sum;
}

arma::mat columns(const std::vector<std::vector<unsigned>>& seqs) {
  arma::mat X(seqs.front().size(), seqs.size());
  for (std::size_t j = 0; j < seqs.size(); ++j)
    for (std::size_t t = 0; t < seqs[j].size(); ++t) X(t, j) = seqs[j][t];
  return X;
}

class HmmMarginal : public ::testing::Test {
 protected:
  TempDir dir;
  std::shared_ptr<Kernel> with_file(const arma::mat& X, const char* normalize) {
    dir.write("model.txt", kModel);
    auto k = make_kernel("hmm_marginal", {{"file", "model.txt"}, {"normalize", normalize}});
    const arma::vec y(X.n_cols, arma::fill::zeros);
    k->fit(KernelFitData{&X, &y, 1, 3, dir.path()});
    return k;
  }
};

TEST_F(HmmMarginal, WithAModelFromAFileIsTheSumOverEveryHiddenPath) {
  const std::vector<std::vector<unsigned>> seqs = {
      {0, 1, 2, 2, 1, 0}, {2, 2, 2, 1, 0, 0}, {1, 1, 0, 2, 0, 1}};
  const arma::mat X = columns(seqs);
  arma::mat K, N;
  with_file(X, "false")->gram(X, K);
  with_file(X, "true")->gram(X, N);
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    for (std::size_t j = 0; j < seqs.size(); ++j) {
      const double k = by_every_path(seqs[i], seqs[j]);
      EXPECT_NEAR(K(i, j), k, 1e-12 * k) << i << ", " << j;
      const double n =
          k / std::sqrt(by_every_path(seqs[i], seqs[i]) * by_every_path(seqs[j], seqs[j]));
      EXPECT_NEAR(N(i, j), n, 1e-12) << i << ", " << j;
    }
  }
}

TEST_F(HmmMarginal, AFittedModelGivesAValidGramMatrixEvenForLongSequences) {
  const arma::mat X = core::sample_sequences(400, 40, 3, 5);
  auto k = make_kernel("hmm_marginal", {{"states", "3"}});
  const arma::vec y(X.n_cols, arma::fill::zeros);
  k->fit(KernelFitData{&X, &y, 1, 3});
  const core::KernelCheck r = core::check_kernel(*k, X, "hmm_marginal");
  EXPECT_TRUE(r.valid());
  arma::mat K;
  k->gram(X, K);
  EXPECT_TRUE(K.is_finite());
  EXPECT_GT(K.min(), 0.0) << "in log space nothing underflows to 0 at L = 400";
  EXPECT_LE(arma::abs(K.diag() - 1.0).max(), 1e-12);
}

TEST_F(HmmMarginal, RefusesSequencesOfUnequalLengthAndAModelOfAnotherSize) {
  const arma::mat equal = columns({{0, 1, 2, 2}, {2, 2, 1, 0}});
  arma::mat X = equal;
  X(3, 1) = -1;  // the second is now 3 long
  const auto k = with_file(equal, "true");
  arma::mat K;
  EXPECT_THAT([&] { k->gram(X, K); },
              ::testing::ThrowsMessage<InvalidArgument>(HasSubstr("sequences of equal length")));
  EXPECT_THAT([&] { (void)with_file(X, "true"); },
              ::testing::ThrowsMessage<InvalidArgument>(
                  HasSubstr("the training sequences have 3 to 4 symbols")));
  auto four = make_kernel("hmm_marginal", {{"file", "model.txt"}});
  const arma::vec y(X.n_cols, arma::fill::zeros);
  EXPECT_THAT(
      [&] {
        four->fit(KernelFitData{&equal, &y, 1, 4, dir.path()});
      },
      ::testing::ThrowsMessage<InvalidArgument>(
          HasSubstr("has 2 states and 3 symbols; the kernel has states: 2 and the data "
                    "4 symbols")));
}

TEST_F(HmmMarginal, ASequenceOfProbabilityZeroIsAnErrorNotANaN) {
  // symbol 2 is never emitted by this model: k(X, X) = 0 for a sequence holding it
  dir.write("zeros.txt", "pi 1 0\nA 0.5 0.5\nA 0.5 0.5\nB 0.5 0.5 0\nB 0.5 0.5 0\n");
  const arma::mat X = columns({{0, 1, 0}, {1, 1, 2}});
  auto k = make_kernel("hmm_marginal", {{"file", "zeros.txt"}});
  const arma::vec y(X.n_cols, arma::fill::zeros);
  k->fit(KernelFitData{&X, &y, 1, 3, dir.path()});
  arma::mat K;
  EXPECT_THAT([&] { k->gram(X, K); }, ::testing::ThrowsMessage<InvalidArgument>(
                                          HasSubstr("sequence 1 has probability 0 under the HMM")));
  EXPECT_THAT([&] { k->gram(X, X, K); },
              ::testing::ThrowsMessage<InvalidArgument>(HasSubstr("probability 0")));
}

TEST_F(HmmMarginal, AModelFileMustBeARegularFile) {
  std::filesystem::create_directories(dir.path() / "folder");
  const arma::mat X = columns({{0, 1, 2}});
  auto k = make_kernel("hmm_marginal", {{"file", "folder"}});
  const arma::vec y(X.n_cols, arma::fill::zeros);
  EXPECT_THAT(
      [&] {
        k->fit(KernelFitData{&X, &y, 1, 3, dir.path()});
      },
      ::testing::ThrowsMessage<DataError>(HasSubstr("is a folder, not a file (file: ")));
}

}  // namespace
}  // namespace kexp::test
