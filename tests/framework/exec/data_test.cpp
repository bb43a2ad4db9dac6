// Data preparation: the seeded train/test split and the standardization fitted on the
// training part, on data whose samples carry their own index so that every sample can be
// followed through the split, and on hand-computed statistics.
#include "exec/data.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "kexp/error.hpp"

namespace kexp::core {
namespace {

using testing::HasSubstr;

Params preparation(double test_fraction, bool standardize) {
  Params p;
  p.set("test_fraction", test_fraction);
  p.set("standardize", std::string(standardize ? "true" : "false"));
  return p;
}

/// n samples in 2 dimensions; sample i is (i, −i) with target 10·i.
Data indexed(arma::uword n) {
  Data d;
  d.X.set_size(2, n);
  d.y.set_size(n);
  for (arma::uword i = 0; i < n; ++i) {
    d.X(0, i) = static_cast<double>(i);
    d.X(1, i) = -static_cast<double>(i);
    d.y[i] = 10.0 * static_cast<double>(i);
  }
  return d;
}

std::vector<double> first_feature(const arma::mat& X) {
  return arma::conv_to<std::vector<double>>::from(X.row(0));
}

TEST(PrepareData, SplitIsAPermutationOfTheSamplesKeptInTheirOrder) {
  const arma::uword n = 50;
  const PreparedData out = prepare_data(indexed(n), preparation(0.2, false), 7, "indexed");
  ASSERT_EQ(out.X_test.n_cols, 10U);  // 0.2 · 50
  ASSERT_EQ(out.X_train.n_cols, 40U);
  ASSERT_EQ(out.y_train.n_elem, 40U);
  ASSERT_EQ(out.y_test.n_elem, 10U);
  std::set<double> seen;
  for (const arma::mat* X : {&out.X_train, &out.X_test}) {
    for (arma::uword j = 0; j < X->n_cols; ++j) {
      EXPECT_TRUE(seen.insert((*X)(0, j)).second) << "sample " << (*X)(0, j) << " twice";
      EXPECT_EQ((*X)(1, j), -(*X)(0, j));  // a sample's features stay together
    }
    // Each part keeps the samples in the order of the input.
    const std::vector<double> order = first_feature(*X);
    EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
  }
  EXPECT_EQ(seen.size(), n);
  // Targets follow their samples.
  for (arma::uword j = 0; j < out.X_train.n_cols; ++j)
    EXPECT_EQ(out.y_train[j], 10.0 * out.X_train(0, j));
  for (arma::uword j = 0; j < out.X_test.n_cols; ++j)
    EXPECT_EQ(out.y_test[j], 10.0 * out.X_test(0, j));
}

TEST(PrepareData, SplitIsDeterminedByTheSeed) {
  const Params p = preparation(0.2, false);
  const PreparedData a = prepare_data(indexed(50), p, 7, "indexed");
  const PreparedData b = prepare_data(indexed(50), p, 7, "indexed");
  EXPECT_EQ(first_feature(a.X_test), first_feature(b.X_test));
  EXPECT_EQ(first_feature(a.X_train), first_feature(b.X_train));
  // Other seeds choose other test sets (for 50 samples, 10 of them, two seeds agree with
  // probability 1/C(50, 10) ≈ 1e-10).
  std::set<std::vector<double>> test_sets;
  for (const std::uint64_t seed : {1U, 2U, 3U, 7U, 8U}) {
    test_sets.insert(first_feature(prepare_data(indexed(50), p, seed, "indexed").X_test));
  }
  EXPECT_EQ(test_sets.size(), 5U);
}

TEST(PrepareData, TestSizeIsTheFractionRoundedHalfAwayFromZero) {
  // round(test_fraction · n), halves away from zero (std::llround).
  const struct {
    arma::uword n;
    double fraction;
    arma::uword n_test;
  } cases[] = {
      {10, 0.2, 2},   // exactly 2
      {10, 0.24, 2},  // 2.4 rounds down
      {10, 0.25, 3},  // 2.5 rounds up
      {10, 0.26, 3},  // 2.6 rounds up
      {4, 0.125, 1},  // 0.5 rounds up to the one sample the test set needs
      {3, 0.5, 2},    // 1.5 rounds up
  };
  for (const auto& c : cases) {
    const PreparedData out =
        prepare_data(indexed(c.n), preparation(c.fraction, false), 1, "indexed");
    EXPECT_EQ(out.X_test.n_cols, c.n_test) << c.n << " × " << c.fraction;
    EXPECT_EQ(out.X_train.n_cols, c.n - c.n_test) << c.n << " × " << c.fraction;
  }
}

TEST(PrepareData, SplitThatLeavesAnEmptyPartIsADataError) {
  // 0.1 · 4 = 0.4 rounds to no test sample; 0.75 · 2 = 1.5 rounds to both samples.
  try {
    (void)prepare_data(indexed(4), preparation(0.1, false), 1, "cubic(n=4)");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(),
                 "cubic(n=4): test_fraction 0.1 of 4 samples leaves 0 for testing and 4 for "
                 "training; both need at least one (use more samples or another test_fraction)");
  }
  try {
    (void)prepare_data(indexed(2), preparation(0.75, false), 1, "cubic(n=2)");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_THAT(e.what(), HasSubstr("leaves 2 for testing and 0 for training"));
  }
}

TEST(PrepareData, OwnTestSetIsKeptAsItIsAndTheFractionIgnored) {
  Data d = indexed(4);
  d.has_test = true;
  d.X_test = {{9.0, 7.0, 8.0}, {0.0, 0.0, 0.0}};
  d.y_test = {3.0, 1.0, 2.0};
  const PreparedData out = prepare_data(d, preparation(0.5, false), 1, "own");
  EXPECT_TRUE(arma::approx_equal(out.X_train, d.X, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(out.y_train, d.y, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(out.X_test, d.X_test, "absdiff", 0.0));  // same order
  EXPECT_TRUE(arma::approx_equal(out.y_test, d.y_test, "absdiff", 0.0));
}

TEST(PrepareData, StandardizesWithTheTrainingMeanAndSampleDeviation) {
  // Training feature 1: 1, 2, 3, 4: mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25
  // = 5, so the deviation is √(5/3) dividing by n − 1 = 3 (√(5/4) dividing by n would give
  // other values). Feature 2 is constant (deviation 0): it is only centred.
  Data d;
  d.X = {{1.0, 2.0, 3.0, 4.0}, {5.0, 5.0, 5.0, 5.0}};
  d.y = {1.0, 2.0, 3.0, 4.0};
  d.has_test = true;
  d.X_test = {{0.0, 2.5, 10.0}, {7.0, 5.0, 5.0}};
  d.y_test = {0.0, 0.0, 0.0};
  const PreparedData out = prepare_data(d, preparation(0.2, true), 1, "hand");
  const double s = std::sqrt(5.0 / 3.0);
  const arma::mat train = {{-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s}, {0.0, 0.0, 0.0, 0.0}};
  // The test set moves by the training statistics, not its own: its mean is not 0.
  const arma::mat test = {{-2.5 / s, 0.0, 7.5 / s}, {2.0, 0.0, 0.0}};
  EXPECT_TRUE(arma::approx_equal(out.X_train, train, "absdiff", 1e-15)) << out.X_train;
  EXPECT_TRUE(arma::approx_equal(out.X_test, test, "absdiff", 1e-15)) << out.X_test;
  // The training part comes out with mean 0 and sample variance 1.
  EXPECT_NEAR(arma::mean(out.X_train.row(0)), 0.0, 1e-15);
  EXPECT_NEAR(arma::var(out.X_train.row(0)), 1.0, 1e-15);  // divides by n − 1
  // Targets are never standardized.
  EXPECT_TRUE(arma::approx_equal(out.y_train, d.y, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(out.y_test, d.y_test, "absdiff", 0.0));
}

TEST(PrepareData, PopulationStandardizationDividesByNAsScikitLearnDoes) {
  // Feature 1 of the training part is 1, 2, 3, 4: mean 2.5, population variance 5/4
  // (scikit-learn's StandardScaler), where `true` takes the sample variance 5/3.
  Data d;
  d.X = arma::rowvec{1.0, 2.0, 3.0, 4.0};
  d.y = {1.0, 2.0, 3.0, 4.0};
  d.has_test = true;
  d.X_test = arma::mat(1, 1, arma::fill::zeros);
  d.y_test = {0.0};
  Params p = preparation(0.2, true);
  p.set("standardize", std::string("population"));
  const PreparedData out = prepare_data(d, p, 1, "hand");
  const double s = std::sqrt(5.0 / 4.0);
  const arma::mat train = arma::rowvec{-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s};
  EXPECT_TRUE(arma::approx_equal(out.X_train, train, "absdiff", 1e-15)) << out.X_train;
  EXPECT_NEAR(arma::var(out.X_train.row(0), 1), 1.0, 1e-15);  // divides by n
  EXPECT_NEAR(out.X_test(0, 0), -2.5 / s, 1e-15);
}

TEST(PrepareData, StandardizationAfterASplitUsesTheTrainingPartOnly) {
  // The same seed gives the same split with and without standardization; the standardized
  // parts are the raw parts transformed by the raw training part's mean and deviation.
  Data d = indexed(40);
  d.X.row(1) = arma::square(d.X.row(0));  // a second feature with another spread
  const PreparedData raw = prepare_data(d, preparation(0.25, false), 11, "indexed");
  const PreparedData out = prepare_data(d, preparation(0.25, true), 11, "indexed");
  const arma::vec mean = arma::mean(raw.X_train, 1);
  const arma::vec deviation = arma::stddev(raw.X_train, 0, 1);
  for (arma::uword i = 0; i < 2; ++i) {
    EXPECT_TRUE(arma::approx_equal(
        out.X_train.row(i), (raw.X_train.row(i) - mean[i]) / deviation[i], "absdiff", 1e-14));
    EXPECT_TRUE(arma::approx_equal(out.X_test.row(i), (raw.X_test.row(i) - mean[i]) / deviation[i],
                                   "absdiff", 1e-14));
  }
}

TEST(PrepareData, WithoutStandardizeTheValuesAreUntouched) {
  Data d;
  d.X = {{1.0, 2.0, 3.0, 4.0}};
  d.y = {1.0, 2.0, 3.0, 4.0};
  d.has_test = true;
  d.X_test = arma::mat(1, 1, arma::fill::value(100.0));
  d.y_test = {0.0};
  const PreparedData out = prepare_data(d, preparation(0.2, false), 1, "plain");
  EXPECT_TRUE(arma::approx_equal(out.X_train, d.X, "absdiff", 0.0));
  EXPECT_TRUE(arma::approx_equal(out.X_test, d.X_test, "absdiff", 0.0));
}

TEST(PrepareData, RejectsDataItCannotUse) {
  Data ragged = indexed(5);
  ragged.y.resize(4);
  try {
    (void)prepare_data(ragged, preparation(0.2, false), 1, "ragged");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "ragged: the training set has 5 samples (columns of X) but 4 targets");
  }
  Data nan = indexed(5);
  nan.X(1, 3) = std::nan("");
  EXPECT_THROW((void)prepare_data(nan, preparation(0.2, false), 1, "nan"), DataError);
  Data narrow_test = indexed(5);
  narrow_test.has_test = true;
  narrow_test.X_test = arma::mat(3, 2, arma::fill::zeros);
  narrow_test.y_test = arma::vec(2, arma::fill::zeros);
  try {
    (void)prepare_data(narrow_test, preparation(0.2, false), 1, "files");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "files: the test set has 3 features, the training set 2");
  }
}

TEST(PlannedDims, AreTheSizesThatPreparingTheDataGives) {
  // the sizes a dry run takes from a generator's stated shape, against the data prepared
  for (const arma::uword n : {2U, 7U, 10U, 101U, 1000U}) {
    for (const double fraction : {0.1, 0.25, 0.5}) {
      ValidationSpec none, folds, held;
      folds.folds = 3;
      held.fraction = 0.3;
      for (const ValidationSpec& v : {none, folds, held}) {
        DataDims prepared, planned;
        bool prepared_throws = false, planned_throws = false;
        try {
          prepared = dims_of(prepare_data(indexed(n), preparation(fraction, false), 7, "d", v));
        } catch (const DataError&) {
          prepared_throws = true;
        }
        try {
          planned = planned_dims(n, 2, fraction, v, "d");
        } catch (const DataError&) {
          planned_throws = true;
        }
        SCOPED_TRACE(testing::Message() << "n " << n << " fraction " << fraction << " folds "
                                        << v.folds << " held " << v.fraction);
        // a validation split too small is found when the data is prepared only
        if (prepared_throws && !planned_throws && v.enabled()) continue;
        ASSERT_EQ(prepared_throws, planned_throws);
        if (planned_throws) continue;
        EXPECT_EQ(planned.n, prepared.n);
        EXPECT_EQ(planned.m, prepared.m);
        EXPECT_EQ(planned.d, 2.0);
        EXPECT_EQ(planned.input_size, prepared.input_size);
        EXPECT_EQ(planned.splits, prepared.splits);
        EXPECT_EQ(planned.largest_fit, prepared.largest_fit);
      }
    }
  }
  // by hand: 1000 samples, a quarter for testing, 3 folds of 250 each
  ValidationSpec folds;
  folds.folds = 3;
  const DataDims d = planned_dims(1000, 4, 0.25, folds, "d");
  EXPECT_EQ(d.n, 750.0);
  EXPECT_EQ(d.m, 250.0);
  EXPECT_EQ(d.largest_fit, 500.0);
}

TEST(ValidationSplits, KFoldsPartitionTheTrainingPartInBalancedFolds) {
  const arma::uword n = 23;
  const auto splits = validation_splits(n, ValidationSpec{4, 0, {}}, 9, "indexed");
  ASSERT_EQ(splits.size(), 4U);
  std::vector<int> seen(n, 0);
  for (const ValidationSplit& s : splits) {
    // Sizes 6, 6, 6, 5: they differ by at most one.
    EXPECT_GE(s.held_out.n_elem, 5U);
    EXPECT_LE(s.held_out.n_elem, 6U);
    EXPECT_EQ(s.fit.n_elem + s.held_out.n_elem, n);
    EXPECT_TRUE(s.fit.is_sorted() && s.held_out.is_sorted());
    // fit is the complement of held_out
    std::vector<int> in(n, 0);
    for (arma::uword i : s.fit) ++in[i];
    for (arma::uword i : s.held_out) ++in[i];
    EXPECT_EQ(std::count(in.begin(), in.end(), 1), static_cast<long>(n));
    for (arma::uword i : s.held_out) ++seen[i];
  }
  // every sample is held out exactly once
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(n));
}

TEST(ValidationSplits, AreTheSameForASeedAndDifferForAnother) {
  const ValidationSpec five{5, 0, {}};
  const auto a = validation_splits(40, five, 3, "x");
  const auto b = validation_splits(40, five, 3, "x");
  const auto c = validation_splits(40, five, 4, "x");
  bool differ = false;
  for (std::size_t j = 0; j < a.size(); ++j) {
    EXPECT_TRUE(arma::all(a[j].held_out == b[j].held_out));
    differ = differ || a[j].held_out.n_elem != c[j].held_out.n_elem ||
             arma::any(a[j].held_out != c[j].held_out);
  }
  EXPECT_TRUE(differ);
}

TEST(ValidationSplits, AFractionHoldsOutItsRoundedShare) {
  const auto s = validation_splits(30, ValidationSpec{0, 0.25, {}}, 1, "x");
  ASSERT_EQ(s.size(), 1U);
  EXPECT_EQ(s[0].held_out.n_elem, 8U);  // round(7.5) = 8, halves away from zero
  EXPECT_EQ(s[0].fit.n_elem, 22U);
  EXPECT_TRUE(validation_splits(30, ValidationSpec{}, 1, "x").empty());
}

TEST(ValidationSplits, TooFewSamplesAreADataErrorWithTheFix) {
  try {
    (void)validation_splits(3, ValidationSpec{5, 0, {}}, 1, "cubic(n=4)");
    FAIL() << "expected a DataError";
  } catch (const DataError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cubic(n=4): folds: 5 needs at least 5 training samples"));
    EXPECT_THAT(e.what(), HasSubstr("use fewer folds or more samples"));
  }
  EXPECT_THROW((void)validation_splits(3, ValidationSpec{0, 0.1, {}}, 1, "x"), DataError);
}

TEST(PrepareData, SplitsTheTrainingPartForValidationAfterTheTestSplit) {
  const PreparedData out =
      prepare_data(indexed(50), preparation(0.2, false), 7, "indexed", ValidationSpec{5, 0, {}});
  ASSERT_EQ(out.splits.size(), 5U);
  for (const ValidationSplit& s : out.splits) {
    EXPECT_EQ(s.fit.n_elem + s.held_out.n_elem, out.X_train.n_cols);
    EXPECT_LT(s.held_out.max(), out.X_train.n_cols);
  }
}

}  // namespace
}  // namespace kexp::core
