// gnuplot's side of the plots: the order of a key, file names that are never cut inside a
// value, the best square of a heat map framed, a crossover labelled beside its lines.
#include "reporting/gnuplot.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kexp::core::plot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(NaturalOrder, NumbersCompareAsNumbersWordsAsText) {
  std::vector<std::string> keys = {"lambda=1",      "lambda=1e-06", "lambda=0.01",
                                   "lambda=0.0001", "degree=10",    "degree=2"};
  std::sort(keys.begin(), keys.end(), natural_less);
  EXPECT_THAT(keys, ElementsAre("degree=2", "degree=10", "lambda=1e-06", "lambda=0.0001",
                                "lambda=0.01", "lambda=1"));
  // A letter e inside a word is not an exponent, and a minus after a letter is not a sign.
  EXPECT_TRUE(natural_less("x2each", "x10each"));
  EXPECT_TRUE(natural_less("map-1", "map-2"));
  EXPECT_FALSE(natural_less("a", "a"));
  EXPECT_TRUE(natural_less("a", "a1"));
}

TEST(Slug, ALongNameKeepsWholeValuesAndStaysUnique) {
  const std::string a =
      "spectrum normalize=true kernel_ridge_classifier dual min_length=100 max_length=100";
  const std::string b =
      "spectrum normalize=true kernel_ridge_classifier dual min_length=100 max_length=1000";
  const std::string sa = slug(a), sb = slug(b);
  EXPECT_LE(sa.size(), 80U);
  EXPECT_NE(sa, sb);
  // Cut after a whole word: "max_length_1" (a value cut short) never appears.
  EXPECT_THAT(sa, Not(HasSubstr("max_length_1")));
  EXPECT_EQ(slug("gaussian map=rff"), "gaussian_map_rff");
}

TEST(Script, TheBestSquareOfAHeatMapIsFramed) {
  Plot p;
  p.name = "heat";
  Heat h;
  h.xs = {0.1, 1};
  h.ys = {0.001, 0.1};
  h.z[{0, 0}] = 0.5;
  h.z[{1, 1}] = 0.2;
  h.best = std::make_pair(std::size_t{1}, std::size_t{1});
  p.heat = h;
  EXPECT_THAT(script(p), HasSubstr("set object 1 rect from 1-0.5, 1-0.5 to 1+0.5, 1+0.5"));
}

TEST(Script, ACrossoverLabelSitsOnItsLinesAndReadsOnASlide) {
  Plot p;
  p.name = "cost";
  Line l;
  l.title = "primal_ridge (primal)";
  l.points = {{10, 0.1, 0.1, 0.1}, {1000, 1, 1, 1}};
  p.lines.push_back(l);
  p.marks.push_back({100, "crossover: n ≈ 100", 0.3});
  p.marks.push_back({500, "n = D = 500", std::nullopt});
  const std::string s = script(p);
  // The label in a row at the top, the point it marks dotted on the line.
  EXPECT_THAT(s, HasSubstr("set label 1 'crossover: n ≈ 100' at 100, graph 0.960 left"));
  EXPECT_THAT(s, HasSubstr("set label 50 '' at 100, 0.3 point"));
  EXPECT_THAT(s, HasSubstr("set label 2 'n = D = 500' at 500, graph 0.960 left"));
  EXPECT_THAT(s, HasSubstr("font 'sans,15'"));
}

}  // namespace
}  // namespace kexp::core::plot
