// What kexp measures of the machine: the load average and the busy-machine warning.
#include "util/measure.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(Measure, LoadAverageAndProcessorsAreRead) {
  const auto load = load_average();
  ASSERT_TRUE(load.has_value());  // Linux has getloadavg
  EXPECT_GE(*load, 0.0);
  EXPECT_GE(online_cpus(), 1);
}

TEST(Measure, AMachineIsBusyWhenOtherProcessesLeaveFewerProcessorsThanTheRunUses) {
  // 2 processors, 2 threads: half a processor of load is tolerated, not more.
  EXPECT_EQ(busy_machine_warning(0.4, 2, 2), "");
  EXPECT_THAT(busy_machine_warning(1.05, 2, 2),
              AllOf(HasSubstr("load average is 1.05 on 2 processors"), HasSubstr("uses 2 threads"),
                    HasSubstr("slower and noisier")));
  // One thread on two processors: one other busy process leaves it a processor.
  EXPECT_EQ(busy_machine_warning(1.05, 2, 1), "");
  EXPECT_THAT(busy_machine_warning(1.6, 2, 1), HasSubstr("uses 1 thread;"));
  EXPECT_EQ(busy_machine_warning(5.0, 16, 8), "");
}

}  // namespace
}  // namespace kexp::core
