// "Did you mean" suggestions: edit distance, the nearest of a list of names, and the
// names users bring from scikit-learn and the literature.
#include "util/names.hpp"

#include <gtest/gtest.h>

namespace kexp::core {
namespace {

TEST(NearestName, SuggestsOnlyCloseNames) {
  EXPECT_EQ(nearest_name("sigmaa", {"sigma", "lambda"}), "sigma");
  EXPECT_EQ(nearest_name("zzzzzz", {"sigma", "lambda"}), "");
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
}

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0U);
  EXPECT_EQ(edit_distance("", "abc"), 3U);
  EXPECT_EQ(edit_distance("abc", ""), 3U);
  EXPECT_EQ(edit_distance("gaussian", "gaussian"), 0U);
  EXPECT_EQ(edit_distance("gausian", "gaussian"), 1U);  // one insertion
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2U);         // a deletion and an insertion
  EXPECT_EQ(edit_distance("lambda", "lambdb"), 1U);     // one substitution
}

TEST(NearestName, TakesTheFirstOfEquallyNearCandidates) {
  EXPECT_EQ(nearest_name("sigm", {"sigma", "sigmb"}), "sigma");
  EXPECT_EQ(nearest_name("x", {}), "");
}

TEST(DidYouMean, KnowsScikitLearnsNamesWhereThePluginHasTheirCounterpart) {
  EXPECT_EQ(did_you_mean("rbf", {"constant", "gaussian", "laplacian"}),
            "; did you mean 'gaussian'? (scikit-learn's 'rbf' kernel is kexp's gaussian)");
  EXPECT_EQ(did_you_mean("RBF", {"gaussian"}).substr(0, 28), "; did you mean 'gaussian'? (");
  // gamma is σ for the Gaussian kernel, a for the sigmoid: whichever the plugin has.
  const std::string gaussian = did_you_mean("gamma", {"sigma", "map", "order"});
  EXPECT_NE(gaussian.find("'sigma'"), std::string::npos);
  EXPECT_NE(gaussian.find("σ = 1/√(2γ)"), std::string::npos) << gaussian;
  EXPECT_NE(did_you_mean("gamma", {"a", "b"}).find("'a'"), std::string::npos);
  // alpha is λ for ridge, the noise for a GP, and dual_gd's own alpha is not suggested.
  EXPECT_NE(did_you_mean("alpha", {"lambda"}).find("'lambda'"), std::string::npos);
  EXPECT_NE(did_you_mean("alpha", {"noise"}).find("'noise'"), std::string::npos);
  EXPECT_NE(did_you_mean("n_components", {"sigma", "features"}).find("'features'"),
            std::string::npos);
  EXPECT_EQ(did_you_mean("KernelRidge", {"kernel_ridge", "gp_regression"}),
            "; did you mean 'kernel_ridge'? (scikit-learn's KernelRidge)");
  // Without a counterpart, the nearest name, or nothing.
  EXPECT_EQ(did_you_mean("gamma", {"degree", "c"}), "");
  EXPECT_EQ(did_you_mean("sigmaa", {"sigma"}), "; did you mean 'sigma'?");
}

TEST(DidYouMean, EverySynonymNamesADifferentName) {
  for (const Synonym& s : synonyms()) {
    EXPECT_NE(s.theirs, s.ours);
    EXPECT_FALSE(s.ours.empty());
    for (const char c : s.theirs) EXPECT_FALSE(c >= 'A' && c <= 'Z') << s.theirs;  // lower case
  }
}

}  // namespace
}  // namespace kexp::core
