// The limits a process runs under: the memory and CPUs its cgroup allows (a Slurm job, a
// container), its CPU affinity, and Slurm's own variables.
//
// A cgroup limit may sit on any ancestor of the process's own cgroup: Slurm puts `--mem`
// on the job's and the step's cgroups, not on the task's leaf. The limit that holds is the
// smallest over the cgroup and all its ancestors, in cgroup v1 (the memory hierarchy's
// memory.limit_in_bytes, the cpu hierarchy's cpu.cfs_quota_us / cpu.cfs_period_us) and in
// v2 (memory.max, cpu.max); "max" and v1's huge "unlimited" value mean no limit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kexp::core {

/// A limit and where it comes from, in words, e.g. "memory.max of /user.slice/job".
struct Limit {
  double value = 0;
  std::string source;
};

/// Where the cgroup files are: /proc/self/cgroup and the /sys/fs/cgroup mount. Tests point
/// these at fixture trees.
struct CgroupPaths {
  std::filesystem::path self = "/proc/self/cgroup";
  std::filesystem::path root = "/sys/fs/cgroup";
};

/// The smallest memory limit, in bytes, over the process's cgroup and its ancestors, or
/// nothing when none is set.
std::optional<Limit> cgroup_memory_limit(const CgroupPaths& paths = {});

/// The smallest CPU quota, in CPUs (quota / period, may be fractional), over the cgroup
/// and its ancestors, or nothing when none is set.
std::optional<Limit> cgroup_cpu_limit(const CgroupPaths& paths = {});

/// The number of CPUs this process may run on (sched_getaffinity), or 0 when unknown.
int affinity_cpu_count();

/// The default thread count and why: OMP_NUM_THREADS when the user set it, else
/// SLURM_CPUS_PER_TASK inside a Slurm job, else the CPUs of the affinity mask, capped by
/// the cgroup's CPU quota (rounded up), else the machine's cores.
Limit default_threads(const CgroupPaths& paths = {});

}  // namespace kexp::core
