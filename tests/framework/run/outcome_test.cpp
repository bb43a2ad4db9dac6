// The line a run ends with on stdout: "all ok" when it is, the counts when it is not.
#include "run/outcome.hpp"

#include <gtest/gtest.h>

namespace kexp::core {
namespace {

TEST(OutcomeCounts, AllOkWhenEveryRunWasOk) {
  Outcome o;
  o.done = 6;
  EXPECT_EQ(o.counts("out"), "6 runs: all ok; results in out");
  o.done = 1;
  EXPECT_EQ(o.counts("out"), "1 run: ok; results in out");
}

TEST(OutcomeCounts, TheCountsWhenARunFailedWasRefusedOrWasLeft) {
  Outcome o;
  o.done = 10;
  o.failed = 2;
  o.refused = 1;
  EXPECT_EQ(o.counts("out"), "12 runs: 10 ok, 1 failed, 1 refused; results in out");
  Outcome kept;
  kept.done = 4;
  kept.skipped = 8;
  EXPECT_EQ(kept.counts("out"), "4 runs: 4 ok, 0 failed, 8 kept from before; results in out");
}

}  // namespace
}  // namespace kexp::core
