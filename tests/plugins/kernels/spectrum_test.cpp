// spectrum: the k-spectrum kernel by hand on short sequences, its exact map against the
// kernel, the normalised form, and what it refuses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

/// Sequences as columns, padded with −1 to the longest.
arma::mat sequences(const std::vector<std::vector<double>>& seqs) {
  std::size_t L = 0;
  for (const auto& s : seqs) L = std::max(L, s.size());
  arma::mat X(L, seqs.size());
  X.fill(-1.0);
  for (std::size_t j = 0; j < seqs.size(); ++j)
    for (std::size_t t = 0; t < seqs[j].size(); ++t) X(t, j) = seqs[j][t];
  return X;
}

std::shared_ptr<Kernel> fitted_spectrum(const TextParams& params, const arma::mat& X,
                                        std::size_t symbols) {
  auto k = make_kernel("spectrum", params);
  const arma::vec y(X.n_cols, arma::fill::zeros);
  k->fit(KernelFitData{&X, &y, 1, symbols});
  return k;
}

TEST(SpectrumKernel, CountsSharedWordsByHand) {
  // over {0, 1}, k = 2: 0110 has 01, 11, 10; 1101 has 11, 10, 01; 000 has 00 twice; 1 none
  const arma::mat X = sequences({{0, 1, 1, 0}, {1, 1, 0, 1}, {0, 0, 0}, {1}});
  const auto k = fitted_spectrum({{"k", "2"}}, X, 2);
  arma::mat K;
  k->gram(X, K);
  const arma::mat expected = {{3, 3, 0, 0}, {3, 3, 0, 0}, {0, 0, 4, 0}, {0, 0, 0, 0}};
  EXPECT_TRUE(arma::approx_equal(K, expected, "absdiff", 0.0)) << K;
  arma::mat Phi;
  k->feature_map()->features(X, Phi);
  ASSERT_EQ(Phi.n_rows, 4U);  // |Σ|ᵏ = 2²
  // words numbered in base 2, first symbol most significant: 00 01 10 11
  EXPECT_TRUE(arma::approx_equal(Phi.col(0), arma::vec{0, 1, 1, 1}, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(Phi.col(2), arma::vec{2, 0, 0, 0}, "absdiff", 0.0));
  EXPECT_EQ(k->feature_map()->dimension(4), 16U) << "d is the alphabet's size";
}

TEST(SpectrumKernel, TheMapAgreesWithTheKernelAndTheNormalisedFormHasAUnitDiagonal) {
  const arma::mat X = core::sample_sequences(40, 60, 5, 3);
  for (const char* normalize : {"false", "true"}) {
    const auto k = fitted_spectrum({{"k", "3"}, {"normalize", normalize}}, X, 5);
    const core::KernelCheck r = core::check_kernel(*k, X, "spectrum");
    EXPECT_TRUE(r.valid()) << normalize;
    EXPECT_TRUE(r.has_map);
    EXPECT_LE(r.map_error_relative, 1e-12) << normalize;
    arma::mat K;
    k->gram(X, K);
    arma::mat C;
    k->gram(X, X.cols(0, 9), C);
    EXPECT_TRUE(arma::approx_equal(C, K.cols(0, 9), "absdiff", 1e-12)) << "K(X, Z) is a block";
    if (std::string(normalize) == "true") {
      EXPECT_LE(arma::abs(K.diag() - 1.0).max(), 1e-12);
      EXPECT_LE(arma::abs(k->diagonal(X) - 1.0).max(), 1e-12);
    }
  }
}

TEST(SpectrumKernel, RefusesVectorsAnUnfittedUseAndAMapTooLarge) {
  const arma::mat X = core::sample_sequences(10, 5, 4, 1);
  auto k = make_kernel("spectrum", {{"k", "2"}});
  arma::mat K;
  EXPECT_THAT([&] { k->gram(X, K); },
              ::testing::ThrowsMessage<InvalidArgument>(HasSubstr("fit it on sequence data")));
  const arma::vec y(X.n_cols, arma::fill::zeros);
  EXPECT_THAT(
      [&] {
        k->fit(KernelFitData{&X, &y, 1, 0});
      },
      ::testing::ThrowsMessage<InvalidArgument>(HasSubstr("it was fitted on vectors")));
  const auto big = fitted_spectrum({{"k", "8"}}, X, 20);
  EXPECT_THAT([&] { (void)big->feature_map()->dimension(20); },
              ::testing::ThrowsMessage<InvalidArgument>(HasSubstr("use a dual solver")));
  big->gram(X, K);  // the dual form does not need the map
  EXPECT_EQ(K.n_rows, 5U);
}

}  // namespace
}  // namespace kexp::test
