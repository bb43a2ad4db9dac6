// Memory and CPU limits read from cgroup trees that imitate cgroup v1 and v2 as Slurm
// and container runtimes lay them out: the limit on an ancestor, "max" on the leaf.
#include "util/limits.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "run/budget.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

TEST(Limits, CgroupV1LimitOnTheJobHoldsForItsTask) {
  const test::TempDir dir;
  dir.write("self",
            "9:name=systemd:/\n4:memory:/slurm/job_5/step_0/task_0\n3:cpu,cpuacct:/\n0::/\n");
  const std::string unlimited = "9223372036854771712\n";
  dir.write("root/memory/memory.limit_in_bytes", unlimited);
  dir.write("root/memory/slurm/memory.limit_in_bytes", unlimited);
  dir.write("root/memory/slurm/job_5/memory.limit_in_bytes", "1073741824\n");
  dir.write("root/memory/slurm/job_5/step_0/memory.limit_in_bytes", "2147483648\n");
  dir.write("root/memory/slurm/job_5/step_0/task_0/memory.limit_in_bytes", unlimited);
  const CgroupPaths paths{dir.path() / "self", dir.path() / "root"};
  const auto limit = cgroup_memory_limit(paths);
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->value, 1073741824.0);
  EXPECT_EQ(limit->source, "memory.limit_in_bytes of cgroup /slurm/job_5");
  const Limit budget = memory_budget(0, paths);
  EXPECT_NEAR(budget.value, 0.8 * 1073741824.0, 1);  // about 0.86 GB
  EXPECT_THAT(budget.source, HasSubstr("80% of memory.limit_in_bytes of cgroup /slurm/job_5"));
  EXPECT_EQ(memory_budget(5e9, paths).source, "--max-memory");
}

TEST(Limits, CgroupV2MaxOnTheLeafAndALimitAbove) {
  const test::TempDir dir;
  dir.write("self", "0::/user.slice/job/leaf\n");
  dir.write("root/cgroup.controllers", "cpu memory\n");
  dir.write("root/user.slice/memory.max", "max\n");
  dir.write("root/user.slice/job/memory.max", "2147483648\n");
  dir.write("root/user.slice/job/leaf/memory.max", "max\n");
  dir.write("root/user.slice/cpu.max", "max 100000\n");
  dir.write("root/user.slice/job/cpu.max", "150000 100000\n");
  dir.write("root/user.slice/job/leaf/cpu.max", "max 100000\n");
  const CgroupPaths paths{dir.path() / "self", dir.path() / "root"};
  const auto memory = cgroup_memory_limit(paths);
  ASSERT_TRUE(memory.has_value());
  EXPECT_EQ(memory->value, 2147483648.0);
  EXPECT_EQ(memory->source, "memory.max of cgroup /user.slice/job");
  const auto cpu = cgroup_cpu_limit(paths);
  ASSERT_TRUE(cpu.has_value());
  EXPECT_DOUBLE_EQ(cpu->value, 1.5);
}

TEST(Limits, HybridSystemsKeepV2UnderUnified) {
  const test::TempDir dir;
  dir.write("self", "4:memory:/\n0::/box\n");
  dir.write("root/memory/memory.limit_in_bytes", "9223372036854771712\n");
  dir.write("root/unified/cgroup.controllers", "memory\n");
  dir.write("root/unified/box/memory.max", "536870912\n");
  const auto limit = cgroup_memory_limit({dir.path() / "self", dir.path() / "root"});
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->value, 536870912.0);
}

TEST(Limits, NoLimitAnywhereIsNone) {
  const test::TempDir dir;
  dir.write("self", "4:memory:/a\n0::/a\n");
  dir.write("root/memory/a/memory.limit_in_bytes", "9223372036854771712\n");
  dir.write("root/a/memory.max", "max\n");
  const CgroupPaths paths{dir.path() / "self", dir.path() / "root"};
  EXPECT_FALSE(cgroup_memory_limit(paths).has_value());
  EXPECT_FALSE(cgroup_cpu_limit(paths).has_value());
  EXPECT_FALSE(cgroup_memory_limit({dir.path() / "missing", dir.path() / "root"}).has_value());
  EXPECT_THAT(memory_budget(0, paths).source, HasSubstr("physical memory"));
}

TEST(Limits, ThreadsFollowTheUserThenSlurmThenTheCpusAllowed) {
  const test::TempDir dir;
  dir.write("self", "0::/job\n");
  dir.write("root/cgroup.controllers", "cpu\n");
  dir.write("root/job/cpu.max", "100000 100000\n");
  const CgroupPaths paths{dir.path() / "self", dir.path() / "root"};
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const std::string saved_omp = omp ? omp : "";
  ::unsetenv("OMP_NUM_THREADS");
  ::setenv("SLURM_CPUS_PER_TASK", "3", 1);
  EXPECT_EQ(default_threads(paths).value, 3);
  EXPECT_EQ(default_threads(paths).source, "SLURM_CPUS_PER_TASK");
  ::setenv("SLURM_CPUS_PER_TASK", "", 1);      // set but empty, as in a job without it
  EXPECT_EQ(default_threads(paths).value, 1);  // the quota: one CPU
  EXPECT_EQ(default_threads(paths).source, "cpu.max of cgroup /job");
  ::unsetenv("SLURM_CPUS_PER_TASK");
  ::setenv("OMP_NUM_THREADS", "2", 1);
  EXPECT_EQ(default_threads(paths).source, "OMP_NUM_THREADS");
  if (omp) {
    ::setenv("OMP_NUM_THREADS", saved_omp.c_str(), 1);
  } else {
    ::unsetenv("OMP_NUM_THREADS");
  }
}

}  // namespace
}  // namespace kexp::core
