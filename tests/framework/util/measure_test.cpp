// What kexp measures of the machine: the load average and the busy-machine warning.
#include "util/measure.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Measure, LoadAverageAndProcessorsAreRead) {
  const auto load = load_average();
  ASSERT_TRUE(load.has_value());  // Linux has getloadavg
  EXPECT_GE(*load, 0.0);
  EXPECT_GE(online_cpus(), 1);
}

TEST(Measure, AMachineIsBusyWhenSharingItWouldSlowTheRunByMoreThanAQuarter) {
  // 2 processors, 2 threads: (L + 2) / 2 > 1.25 from a load of half a processor.
  EXPECT_EQ(busy_machine_warning(0.4, 2, 2), "");
  EXPECT_THAT(busy_machine_warning(1.05, 2, 2),
              AllOf(HasSubstr("load average is 1.05 on 2 processors"), HasSubstr("uses 2 threads"),
                    HasSubstr("up to 1.5× slower and noisier"),
                    HasSubstr("or on fewer threads (--threads 1)"), HasSubstr("`kexp diff`")));
  // One thread on two processors: one other busy process leaves it a processor.
  EXPECT_EQ(busy_machine_warning(1.05, 2, 1), "");
  EXPECT_THAT(busy_machine_warning(1.6, 2, 1),
              AllOf(HasSubstr("uses 1 thread;"), Not(HasSubstr("fewer threads"))));
  // 16 processors, 8 threads: (5 + 8) / 16 is under 1; (13 + 8) / 16 is over 1.25.
  EXPECT_EQ(busy_machine_warning(5.0, 16, 8), "");
  EXPECT_THAT(busy_machine_warning(13.0, 16, 8), HasSubstr("(--threads 3)"));
}

}  // namespace
}  // namespace kexp::core
