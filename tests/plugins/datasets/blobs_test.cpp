// blobs: the classes' labels and task, their centres on the circle, and the seed.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

TEST(Blobs, ThreeClassesAreMulticlassWithCentresOnTheCircle) {
  const auto d = make_dataset(
      "blobs", {{"n", "3000"}, {"d", "4"}, {"classes", "3"}, {"radius", "5"}, {"noise", "0.5"}});
  const Data data = d->load({42, {}});
  EXPECT_EQ(data.task, Task::Multiclass);
  ASSERT_EQ(data.X.n_rows, 4U);
  ASSERT_EQ(data.X.n_cols, 3000U);
  const double pi = std::acos(-1.0);
  for (int c = 0; c < 3; ++c) {
    const arma::uvec of = arma::find(data.y == c);
    ASSERT_GT(of.n_elem, 900U);  // about a third each
    const arma::vec mean = arma::mean(data.X.cols(of), 1);
    EXPECT_NEAR(mean[0], 5 * std::cos(2 * pi * c / 3), 0.1);
    EXPECT_NEAR(mean[1], 5 * std::sin(2 * pi * c / 3), 0.1);
    EXPECT_NEAR(mean[2], 0.0, 0.1);
    EXPECT_NEAR(arma::stddev(arma::rowvec(data.X.row(3))), 0.5, 0.05);
  }
  const Data again = d->load({42, {}});
  EXPECT_TRUE(arma::approx_equal(again.X, data.X, "absdiff", 0.0));
}

TEST(Blobs, TwoClassesAreLabelledPlusMinusOne) {
  const Data data = make_dataset("blobs", {{"classes", "2"}, {"n", "200"}})->load({1, {}});
  EXPECT_EQ(data.task, Task::Classification);
  const std::set<double> labels(data.y.begin(), data.y.end());
  EXPECT_EQ(labels, (std::set<double>{-1.0, 1.0}));
  EXPECT_EQ(make_dataset("blobs", {{"n", "200"}, {"d", "7"}})->shape({})->d, 7U);
  EXPECT_THROW((void)make_dataset("blobs", {{"classes", "1"}}), ConfigError);
  EXPECT_THROW((void)make_dataset("blobs", {{"d", "1"}}), ConfigError);
}

}  // namespace
}  // namespace kexp::test
