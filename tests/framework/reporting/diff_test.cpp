// Comparing two result folders: results within the tolerance match, times are compared
// by the overlap of their measured ranges.
#include "reporting/diff.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

ResultFolder folder_with(const test::TempDir& dir, const std::string& name,
                         const std::string& rows) {
  dir.write(name + "/results.csv",
            "cell,repeat,status,kernel,solver,form,n_train,test_rmse,fit_seconds,fit_seconds_min,"
            "fit_seconds_max\n" +
                rows);
  return ResultFolder(dir.path() / name);
}

TEST(ResultsDiff, ErrorsWithinTheToleranceMatchAndTimesAreComparedByTheirRanges) {
  test::TempDir dir;
  const ResultFolder a = folder_with(dir, "a",
                                     "c1,0,ok,gaussian,kernel_ridge,dual,80,0.5,1.0,0.9,1.1\n"
                                     "c2,0,ok,gaussian,kernel_ridge,dual,80,0.25,2.0,1.9,2.2\n");
  // c1: the same error to 1e-12 relatively, a time inside the range; c2: a time twice
  // as long, outside.
  const ResultFolder b = folder_with(dir, "b",
                                     "c1,0,ok,gaussian,kernel_ridge,dual,80,0.5000000000001,1.05,"
                                     "1.0,1.2\n"
                                     "c2,0,ok,gaussian,kernel_ridge,dual,80,0.25,4.0,3.9,4.4\n");
  const ResultsDiff d = diff_results(a, b, 1e-9);
  EXPECT_EQ(d.compared, 2U);
  EXPECT_TRUE(d.same_results());
  EXPECT_EQ(d.phases_compared, 2U);
  ASSERT_EQ(d.timing.size(), 1U);
  EXPECT_THAT(d.timing[0], HasSubstr("c2 repeat 0"));
  EXPECT_THAT(d.timing[0], HasSubstr("×2"));
  EXPECT_DOUBLE_EQ(d.lowest_ratio, 1.05);
  EXPECT_DOUBLE_EQ(d.highest_ratio, 2.0);
}

TEST(ResultsDiff, AChangedErrorStatusOrSizeIsADifference) {
  test::TempDir dir;
  const ResultFolder a = folder_with(dir, "a",
                                     "c1,0,ok,gaussian,kernel_ridge,dual,80,0.5,1,1,1\n"
                                     "c2,0,ok,gaussian,kernel_ridge,dual,80,0.5,1,1,1\n"
                                     "c3,0,ok,gaussian,kernel_ridge,dual,80,0.5,1,1,1\n");
  const ResultFolder b = folder_with(dir, "b",
                                     "c1,0,ok,gaussian,kernel_ridge,dual,80,0.5001,1,1,1\n"
                                     "c2,0,failed,gaussian,kernel_ridge,dual,80,,1,1,1\n"
                                     "c3,0,ok,gaussian,kernel_ridge,dual,81,0.5,1,1,1\n"
                                     "c4,0,ok,gaussian,kernel_ridge,dual,80,0.5,1,1,1\n");
  const ResultsDiff d = diff_results(a, b, 1e-9);
  EXPECT_FALSE(d.same_results());
  // c1: test_rmse; c2: status and test_rmse (empty); c3: n_train
  EXPECT_EQ(d.accuracy.size(), 4U);
  EXPECT_EQ(d.only_in_b, std::vector<std::string>{"c4 repeat 0"});
  const std::string report = diff_report(d, "a", "b", 2);
  EXPECT_THAT(report, HasSubstr("results that differ (4)"));
  EXPECT_THAT(report, HasSubstr("… and 2 more"));
  EXPECT_TRUE(diff_results(a, b, 1e-3).accuracy.size() == 3U);
}

}  // namespace
}  // namespace kexp::core
