// The memory of a run's data before it is loaded: a stated shape gives 8·n·(d + 1) bytes,
// a file-based dataset the size of its files; the peak holds every earlier repeat beside
// the one being loaded, and a run past the budget is refused with the figures.
#include "run/data_budget.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

TEST(DataBudget, AStatedShapeGivesXAndYInDoubles) {
  const auto friedman = test::make_dataset("friedman1", {{"n", "1000"}, {"d", "7"}});
  const DataSize size = data_size(*friedman, Params(), DatasetContext{});
  ASSERT_TRUE(size.shape.has_value());
  EXPECT_EQ(size.shape->n, 1000U);
  EXPECT_EQ(size.shape->d, 7U);
  EXPECT_DOUBLE_EQ(size.bytes, 8.0 * 1000 * 8);
  EXPECT_DOUBLE_EQ(size.peak, 2 * 8.0 * 1000 * 8);
  EXPECT_THAT(size.what, HasSubstr("n = 1000, d = 7"));
  // the shape the generator states is the shape it builds
  const Data data = friedman->load(DatasetContext{});
  EXPECT_EQ(data.X.n_cols, 1000U);
  EXPECT_EQ(data.X.n_rows, 7U);
}

TEST(DataBudget, AFileBasedDatasetIsBudgetedByItsFiles) {
  test::TempDir dir;
  dir.write("train.csv", std::string(1234, 'x'));
  const auto csv = test::make_dataset("csv", {{"train", (dir.path() / "train.csv").string()}});
  Params params;
  params.set("train", std::string("train.csv"));
  params.set("missing", std::string("none.csv"));  // not a file: not counted
  params.set("test_fraction", 0.25);
  const DataSize size = data_size(*csv, params, DatasetContext{0, dir.path()});
  EXPECT_FALSE(size.shape.has_value());
  EXPECT_DOUBLE_EQ(size.bytes, 1234);
  EXPECT_DOUBLE_EQ(size.peak, 2468);
  EXPECT_THAT(size.what, HasSubstr("train.csv (1.23 kB)"));
}

TEST(DataBudget, ThePeakHoldsEveryEarlierRepeatBesideTheOneLoaded) {
  DataSize a, b;
  a.bytes = 100, a.peak = 250;
  b.bytes = 10, b.peak = 20;
  // a, a, a held (300) while b's first repeat peaks: 320; a's third at 200 + 250 = 450
  EXPECT_DOUBLE_EQ(data_peak_bytes({{"a", a, 3}, {"b", b, 2}}), 450);
  EXPECT_DOUBLE_EQ(data_peak_bytes({{"b", b, 2}, {"a", a, 1}}), 270);
  EXPECT_DOUBLE_EQ(data_peak_bytes({}), 0);
}

TEST(DataBudget, ARunWhoseDataPassesTheBudgetIsRefusedWithTheFigures) {
  DataSize a;
  a.bytes = 4e9, a.peak = 8e9;
  a.what = "n = 1, d = 2: X and y";
  const std::vector<DataLoad> loads{{"friedman1(n=1)", a, 2}};
  EXPECT_FALSE(data_refusal(loads, Limit{12e9, "--max-memory"}).has_value());
  const auto why = data_refusal(loads, Limit{11e9, "--max-memory"});
  ASSERT_TRUE(why.has_value());
  EXPECT_THAT(*why, HasSubstr("needs about 12 GB"));
  EXPECT_THAT(*why, HasSubstr("friedman1(n=1) × 2 repeats: n = 1, d = 2: X and y"));
  EXPECT_THAT(*why, HasSubstr("memory budget of 11 GB (--max-memory)"));
  EXPECT_THAT(*why, HasSubstr("raise --max-memory"));
}

}  // namespace
}  // namespace kexp::core
