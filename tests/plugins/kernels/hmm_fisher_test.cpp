// hmm_fisher: the plugin's scores against those of the model read from a file (with the
// identity information the kernel is their inner product), the empirical map that whitens
// the training scores, the map against the kernel, and sequences of different lengths.
#include <gtest/gtest.h>

#include "common/hmm_file.hpp"
#include "common/hmm_kernels.hpp"
#include "common/hmm_model.hpp"
#include "support/kernels.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

constexpr const char* kModel =
    "pi 0.6 0.4\n"
    "A 0.7 0.3\n"
    "A 0.2 0.8\n"
    "B 0.5 0.4 0.1\n"
    "B 0.1 0.3 0.6\n";

TEST(HmmFisher, WithTheIdentityIsTheInnerProductOfTheModelsScores) {
  TempDir dir;
  dir.write("model.txt", kModel);
  arma::mat X = core::sample_sequences(12, 20, 3, 2);
  X.submat(8, 0, 11, 4).fill(-1.0);  // five sequences of length 8
  const arma::vec y(X.n_cols, arma::fill::zeros);
  auto k = make_kernel("hmm_fisher", {{"file", "model.txt"}, {"information", "identity"}});
  k->fit(KernelFitData{&X, &y, 1, 3, dir.path()});
  arma::mat G;
  kexp_kernels::fisher_scores(kexp_kernels::read_hmm(dir.path() / "model.txt"),
                              kexp_kernels::sequences_of(X, 3), true, G);
  ASSERT_EQ(G.n_rows, 10U);  // S·M + S² = 6 + 4
  arma::mat K;
  k->gram(X, K);
  EXPECT_LE(arma::abs(K - G.t() * G).max(), 1e-12 * arma::abs(K).max());
  EXPECT_EQ(k->feature_map()->dimension(3), 10U);
  arma::mat Phi;
  k->feature_map()->features(X, Phi);
  EXPECT_LE(arma::abs(Phi - G).max(), 1e-14);
}

TEST(HmmFisher, TheEmpiricalMapWhitensTheTrainingScoresAndAgreesWithTheKernel) {
  const arma::mat X = core::sample_sequences(30, 300, 4, 7);
  const arma::vec y(X.n_cols, arma::fill::zeros);
  auto k = make_kernel("hmm_fisher", {{"states", "2"}, {"transitions", "false"}});
  k->fit(KernelFitData{&X, &y, 3, 4});
  arma::mat Phi;
  k->feature_map()->features(X, Phi);
  ASSERT_EQ(Phi.n_rows, 8U);  // S·M
  // The softmax scores of each state's row sum to zero: F has rank D − S = 6, and the map
  // whitens the training scores on that subspace, (1/n) Σ φφᵀ = the projection onto it.
  const arma::mat C = Phi * Phi.t() / static_cast<double>(X.n_cols);
  const arma::vec eigen = arma::eig_sym(C);
  EXPECT_LE(arma::abs(eigen.head(2)).max(), 1e-8) << eigen;
  EXPECT_LE(arma::abs(eigen.tail(6) - 1.0).max(), 1e-8) << eigen;
  const core::KernelCheck r = core::check_kernel(*k, X.cols(0, 79), "hmm_fisher");
  EXPECT_TRUE(r.valid());
  EXPECT_LE(r.map_error_relative, 1e-10);
}

}  // namespace
}  // namespace kexp::test
