// "Did you mean" suggestions: edit distance and the nearest of a list of names.
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

}  // namespace
}  // namespace kexp::core
